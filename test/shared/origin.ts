// An origin for the fetch-cache tests that counts what it is asked: full answers (200) and
// revalidations (304) per path, honouring If-None-Match as a web server does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serve, type TestServer } from '../support/file-server.ts';

export interface Served {
  body: string;
  etag?: string;
  cacheControl?: string;
  type?: string;
  /** Answer this status (no body) instead of the file: an origin failing on its side. */
  status?: number;
}

/** An origin serving `files`, counting full answers (200) and revalidations (304) per path. */
export class CountingOrigin {
  readonly files = new Map<string, Served>();
  readonly full = new Map<string, number>();
  readonly notModified = new Map<string, number>();
  readonly authorizations: (string | undefined)[] = [];
  server!: TestServer;

  async start(): Promise<void> {
    this.server = await serve((req, res) => this.#answer(req, res));
  }

  url(path: string): string {
    return `${this.server.origin}${path}`;
  }

  count(path: string): { full: number; notModified: number } {
    return { full: this.full.get(path) ?? 0, notModified: this.notModified.get(path) ?? 0 };
  }

  #answer(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = this.files.get(path);
    this.authorizations.push(req.headers.authorization);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    if (file.status !== undefined) {
      res.writeHead(file.status).end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': file.type ?? 'text/plain; charset=utf-8' };
    if (file.etag) headers.etag = file.etag;
    if (file.cacheControl) headers['cache-control'] = file.cacheControl;
    if (file.etag && req.headers['if-none-match'] === file.etag) {
      this.notModified.set(path, (this.notModified.get(path) ?? 0) + 1);
      res.writeHead(304, headers).end();
      return;
    }
    this.full.set(path, (this.full.get(path) ?? 0) + 1);
    res.writeHead(200, headers).end(file.body);
  }
}
