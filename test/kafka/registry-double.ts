// A TEST DOUBLE of a Confluent-compatible schema registry: the subset of the Confluent REST API
// that @kafkajs/confluent-schema-registry calls, kept in memory. It exists because no
// Confluent-compatible registry can be started from Maven Central or PyPI on our CI machines;
// production points at a real registry (Confluent Schema Registry or Apicurio, see compose/).
// It does not check compatibility between versions (every check answers "compatible").
//
// Standalone: node test/kafka/registry-double.ts [--port 18081]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Stored {
  id: number;
  schema: string;
  schemaType: string;
}

interface Version extends Stored {
  version: number;
}

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

class RegistryError extends Error {
  readonly status: number;
  readonly code: number;
  constructor(status: number, code: number, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The registry's state: schemas by id (one id per distinct schema text), versions by subject. */
class Registry {
  readonly #byId = new Map<number, Stored>();
  readonly #byText = new Map<string, Stored>();
  readonly #subjects = new Map<string, Version[]>();
  readonly #config = new Map<string, string>();
  #globalCompatibility = 'BACKWARD';

  register(subject: string, body: { schema?: unknown; schemaType?: unknown }): { id: number } {
    if (typeof body.schema !== 'string') throw new RegistryError(422, 42201, 'schema must be a string');
    const schemaType = typeof body.schemaType === 'string' ? body.schemaType : 'AVRO';
    const versions = this.#subjects.get(subject) ?? [];
    const existing = versions.find((v) => v.schema === body.schema && v.schemaType === schemaType);
    if (existing) return { id: existing.id };
    const key = `${schemaType}\u0000${body.schema}`;
    let stored = this.#byText.get(key);
    if (!stored) {
      stored = { id: this.#byId.size + 1, schema: body.schema, schemaType };
      this.#byText.set(key, stored);
      this.#byId.set(stored.id, stored);
    }
    versions.push({ ...stored, version: versions.length + 1 });
    this.#subjects.set(subject, versions);
    return { id: stored.id };
  }

  lookup(subject: string, body: { schema?: unknown; schemaType?: unknown }): object {
    const schemaType = typeof body.schemaType === 'string' ? body.schemaType : 'AVRO';
    const found = this.#versions(subject).find(
      (v) => v.schema === body.schema && v.schemaType === schemaType,
    );
    if (!found) throw new RegistryError(404, 40403, 'Schema not found');
    return this.#describe(subject, found);
  }

  version(subject: string, which: string): object {
    const versions = this.#versions(subject);
    const found = which === 'latest' ? versions.at(-1) : versions.find((v) => v.version === Number(which));
    if (!found) throw new RegistryError(404, 40402, 'Version not found.');
    return this.#describe(subject, found);
  }

  versions(subject: string): number[] {
    return this.#versions(subject).map((v) => v.version);
  }

  subjects(): string[] {
    return [...this.#subjects.keys()];
  }

  schema(id: number): object {
    const stored = this.#byId.get(id);
    if (!stored) throw new RegistryError(404, 40403, 'Schema not found');
    return stored.schemaType === 'AVRO'
      ? { schema: stored.schema }
      : { schema: stored.schema, schemaType: stored.schemaType };
  }

  config(subject?: string): object {
    if (subject === undefined) return { compatibilityLevel: this.#globalCompatibility };
    const level = this.#config.get(subject);
    if (!level)
      throw new RegistryError(
        404,
        40408,
        `Subject '${subject}' does not have subject-level compatibility configured`,
      );
    return { compatibilityLevel: level };
  }

  setConfig(subject: string | undefined, body: { compatibility?: unknown }): object {
    if (typeof body.compatibility !== 'string')
      throw new RegistryError(422, 42203, 'Invalid compatibility level');
    if (subject === undefined) this.#globalCompatibility = body.compatibility;
    else this.#config.set(subject, body.compatibility);
    return { compatibility: body.compatibility };
  }

  #versions(subject: string): Version[] {
    const versions = this.#subjects.get(subject);
    if (!versions) throw new RegistryError(404, 40401, `Subject '${subject}' not found.`);
    return versions;
  }

  #describe(subject: string, v: Version): object {
    return { subject, version: v.version, id: v.id, schema: v.schema, schemaType: v.schemaType };
  }
}

type Route = [
  method: string,
  pattern: RegExp,
  answer: (registry: Registry, params: string[], body: never) => unknown,
];

const ROUTES: Route[] = [
  ['GET', /^\/subjects$/, (r) => r.subjects()],
  ['POST', /^\/subjects\/([^/]+)\/versions$/, (r, [s], body) => r.register(s!, body)],
  ['GET', /^\/subjects\/([^/]+)\/versions$/, (r, [s]) => r.versions(s!)],
  ['GET', /^\/subjects\/([^/]+)\/versions\/([^/]+)$/, (r, [s, v]) => r.version(s!, v!)],
  ['POST', /^\/subjects\/([^/]+)$/, (r, [s], body) => r.lookup(s!, body)],
  ['GET', /^\/schemas\/ids\/(\d+)$/, (r, [id]) => r.schema(Number(id))],
  ['GET', /^\/config$/, (r) => r.config()],
  ['PUT', /^\/config$/, (r, _, body) => r.setConfig(undefined, body)],
  ['GET', /^\/config\/([^/]+)$/, (r, [s]) => r.config(s!)],
  ['PUT', /^\/config\/([^/]+)$/, (r, [s], body) => r.setConfig(s!, body)],
  ['POST', /^\/compatibility\/subjects\/[^/]+\/versions\/[^/]+$/, () => ({ is_compatible: true })],
];

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new RegistryError(400, 400, 'body is not JSON');
  }
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': CONTENT_TYPE });
  res.end(JSON.stringify(body));
}

export interface RegistryDouble {
  url: string;
  close(): Promise<void>;
}

/** Start the double on 127.0.0.1 (`port` 0: any free port). */
export async function startRegistryDouble(port = 0): Promise<RegistryDouble> {
  const registry = new Registry();
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const route = ROUTES.find(([method, pattern]) => method === req.method && pattern.test(path));
        if (!route) throw new RegistryError(404, 404, `no route for ${req.method} ${path}`);
        const params = route[1].exec(path)!.slice(1).map(decodeURIComponent);
        const body = req.method === 'GET' ? {} : await readJson(req);
        answer(res, 200, route[2](registry, params, body as never));
      } catch (error) {
        const e = error instanceof RegistryError ? error : new RegistryError(500, 50001, String(error));
        answer(res, e.status, { error_code: e.code, message: e.message });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.main) {
  const flag = process.argv.indexOf('--port');
  const double = await startRegistryDouble(flag > 0 ? Number(process.argv[flag + 1]) : 18081);
  process.stdout.write(`schema registry TEST DOUBLE listening on ${double.url}\n`);
}
