// A local HTTP server standing in for the hosts the seed mappings name (GitHub, Tractus-X):
// it serves the seed files with those hosts' URLs rewritten to itself, plus files a test adds.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BATCH_URL, readSeed, TEMPLATE_URL, DESCRIPTOR_URL } from './support.ts';

export interface FixtureServer {
  url: string;
  /** Path → body (a test may add or replace files). */
  files: Map<string, string>;
  /** The seed text with the seed hosts' URLs pointed at this server. */
  local(text: string): string;
  stop(): Promise<void>;
}

const dir = (u: string) => u.slice(0, u.lastIndexOf('/') + 1);

export async function startFixtureServer(): Promise<FixtureServer> {
  const files = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const body = files.get(path) ?? files.get(path.replace(/\/$/, ''));
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const local = (text: string) =>
    text
      .replaceAll(dir(DESCRIPTOR_URL), `${url}/examples/`)
      .replaceAll(dir(TEMPLATE_URL), `${url}/methods/`)
      .replaceAll(dir(BATCH_URL), `${url}/batch/`);
  files.set('/examples/example-metadata.json', readSeed('csvtocsvw/example-metadata.json'));
  files.set(
    '/methods/DIN_EN_ISO_527-3.drawio.ttl',
    local(readSeed('maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl')),
  );
  files.set('/batch/Batch.json', readSeed('rdfconverter/Batch.json'));
  files.set('/csvw-template-map.yaml', local(readSeed('rdfconverter/csvw-template-map.yaml')));
  files.set('/catenax-batch-map.yaml', local(readSeed('rdfconverter/catenax-batch-map.yaml')));
  files.set('/test_unsupported_iterator.yaml', readSeed('rdfconverter/test_unsupported_iterator.yaml'));
  return {
    url,
    files,
    local,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
