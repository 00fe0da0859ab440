// Local HTTP servers standing in for the web in tests: `serve` runs any handler on 127.0.0.1;
// `startFileServer` serves files a test puts at paths (and, optionally, what a fallback
// resolver finds), so the guarded fetch reaches them as it would reach a data_url's host.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface TestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export async function serve(handler: Handler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Stalling handlers never finish, so sockets are cut rather than awaited.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface ServedFile {
  body: Buffer;
  /** Sent as Content-Type; without one the client has to go by the name or the bytes. */
  type?: string | undefined;
}

/** Finds a file for a (decoded) path nothing was put at; undefined is a 404. */
export type Fallback = (path: string) => ServedFile | undefined;

export interface FileServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Serves `body` at `path` (`/a/b.csv`, decoded as it appears in a URL); returns its URL. */
  put(path: string, body: Buffer | string, type?: string): string;
  /** What a GET of `path` answers, if anything. */
  get(path: string): ServedFile | undefined;
  /** The URL of `path`, each segment percent-encoded. */
  url(path: string): string;
  stop(): Promise<void>;
}

/** The request's path, decoded; undefined for a malformed percent-encoding. */
function pathOf(req: IncomingMessage): string | undefined {
  try {
    // The raw target, not URL's: its resolution of `/a/../b` to `/b` would hide the climb.
    return decodeURIComponent((req.url ?? '/').split(/[?#]/)[0]!);
  } catch {
    return undefined;
  }
}

export interface FileServerOptions {
  fallback?: Fallback;
  /**
   * Close each connection after its answer (`Connection: close`), as HTTP/1.0 servers such as
   * `python3 -m http.server` and many lab file servers do: a body read slowly then ends while
   * the client's parser is paused (undici before 8.13 crashed on that, nodejs/undici#5360).
   */
  closeAfterBody?: boolean;
}

export async function startFileServer(options: FileServerOptions = {}): Promise<FileServer> {
  const files = new Map<string, ServedFile>();
  const get = (path: string): ServedFile | undefined => {
    // Never a path that climbs, whatever a fallback would make of it.
    if (path.split('/').includes('..')) return undefined;
    return files.get(path) ?? options.fallback?.(path);
  };
  const server = await serve((req, res) => {
    const path = pathOf(req);
    const file = path === undefined ? undefined : get(path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const headers: Record<string, string | number> = { 'content-length': file.body.length };
    if (file.type !== undefined) headers['content-type'] = file.type;
    if (options.closeAfterBody) headers['connection'] = 'close';
    res.writeHead(200, headers).end(file.body);
  });
  const url = (path: string) => `${server.origin}${path.split('/').map(encodeURIComponent).join('/')}`;
  return {
    origin: server.origin,
    put(path, body, type) {
      files.set(path, { body: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), type });
      return url(path);
    },
    get,
    url,
    stop: server.close,
  };
}
