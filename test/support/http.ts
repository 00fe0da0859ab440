// HTTP requests of the end-to-end tests, with the answer read whole: status, type, the
// download's file name, bytes and text.

export interface Answer {
  status: number;
  contentType: string;
  /** From Content-Disposition. */
  filename: string | undefined;
  text: string;
  bytes: Buffer;
  json(): unknown;
}

async function answer(response: Response): Promise<Answer> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1];
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    filename,
    bytes,
    text: bytes.toString('utf8'),
    json: () => JSON.parse(bytes.toString('utf8')) as unknown,
  };
}

/** `signal`: e.g. AbortSignal.timeout, for requests that must answer in time. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** POST a JSON body (a string is sent as it is: a deep value would overflow JSON.stringify). */
export async function postJson(url: string, body: unknown, options: RequestOptions = {}): Promise<Answer> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return answer(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
      signal: options.signal,
    }),
  );
}

/** POST a multipart form whose field `file` holds `bytes` named `name`. */
export async function postFile(
  url: string,
  bytes: Buffer | string,
  name: string,
  options: RequestOptions = {},
): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  return answer(await fetch(url, { method: 'POST', body: form, signal: options.signal }));
}

export async function get(url: string, options: RequestOptions = {}): Promise<Answer> {
  return answer(await fetch(url, { signal: options.signal }));
}

/** The detail of a 4xx answer: a `{"detail": "…"}` body whose text names `field`. */
export function detailOf(reply: Answer): string {
  const body = reply.json() as { detail?: unknown };
  if (typeof body.detail !== 'string') throw new Error(`no string detail in ${reply.text.slice(0, 200)}`);
  return body.detail;
}
