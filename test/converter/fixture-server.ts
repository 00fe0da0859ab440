// A local HTTP server standing in for the hosts the seed mappings name (GitHub, Tractus-X):
// it serves the seed files with those hosts' URLs rewritten to itself, plus files a test adds.
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { BATCH_URL, readSeed, TEMPLATE_URL, DESCRIPTOR_URL } from './support.ts';

export interface FixtureServer extends FileServer {
  /** The seed text with the seed hosts' URLs pointed at this server. */
  local(text: string): string;
}

const dir = (u: string) => u.slice(0, u.lastIndexOf('/') + 1);

/** Seed files go without a Content-Type, as raw GitHub files are read by their names. */
export async function startFixtureServer(): Promise<FixtureServer> {
  // `/x/` answers as `/x` does.
  const server: FileServer = await startFileServer({
    fallback: (path) => (path.endsWith('/') ? server.get(path.slice(0, -1)) : undefined),
  });
  const local = (text: string) =>
    text
      .replaceAll(dir(DESCRIPTOR_URL), server.url('/examples/'))
      .replaceAll(dir(TEMPLATE_URL), server.url('/methods/'))
      .replaceAll(dir(BATCH_URL), server.url('/batch/'));
  server.put('/examples/example-metadata.json', readSeed('csvtocsvw/example-metadata.json'));
  server.put(
    '/methods/DIN_EN_ISO_527-3.drawio.ttl',
    local(readSeed('maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl')),
  );
  server.put('/batch/Batch.json', readSeed('rdfconverter/Batch.json'));
  server.put('/csvw-template-map.yaml', local(readSeed('rdfconverter/csvw-template-map.yaml')));
  server.put('/catenax-batch-map.yaml', local(readSeed('rdfconverter/catenax-batch-map.yaml')));
  server.put('/test_unsupported_iterator.yaml', readSeed('rdfconverter/test_unsupported_iterator.yaml'));
  return { ...server, local };
}
