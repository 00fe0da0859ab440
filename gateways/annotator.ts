// The annotator's routes (spec "CSV annotation service"): each is forwarded to the annotator's
// request consumer; outputs come back as stored files and are answered as downloads.
import type { Runtime } from '../app/runtime.ts';
import { annotator, type OperationInputs } from '../lib/contracts/operations.ts';
import { part } from '../lib/contracts/schema.ts';
import { route, type Route } from './kit/index.ts';
import type { Forwarder } from './forward.ts';
import { serveStoredFile } from './stored-files.ts';

const download = (what: string) => ({ 200: { description: `${what} (file download)` } });

export function annotatorRoutes(runtime: Runtime, forward: Forwarder<'annotator'>): Route[] {
  return [
    route({
      method: 'POST',
      path: '/api/annotate',
      summary: 'Annotate a CSV reachable by URL: its CSVW descriptor',
      tags: ['annotation'],
      query: part(annotator.annotate, ['return_type']),
      body: { json: part(annotator.annotate, ['data_url', 'encoding']) },
      responses: download('the CSVW descriptor'),
      handler: forward.download('annotate'),
    }),
    route<Pick<OperationInputs['annotator']['annotate_upload'], 'return_type' | 'encoding'>>({
      method: 'POST',
      path: '/api/annotate_upload',
      summary: 'Annotate an uploaded CSV: its CSVW descriptor',
      description:
        'The same descriptor as /api/annotate for the same bytes. The descriptor names the CSV by a ' +
        'stable URL that labld serves, so the mapper and converter can read it later.',
      tags: ['annotation'],
      query: part(annotator.annotate_upload, ['return_type', 'encoding']),
      body: { multipart: { fileField: 'file' } },
      responses: download('the CSVW descriptor'),
      handler: async (input) => {
        const fields = forward.withUpload(input.query, await forward.upload(input.file));
        return forward.asDownload(await forward.send('annotate_upload', fields, input));
      },
    }),
    route({
      method: 'POST',
      path: '/api/rdf',
      summary: 'A CSVW descriptor and the CSV rows it describes, as RDF',
      tags: ['annotation'],
      query: part(annotator.rdf, ['return_type']),
      body: { json: part(annotator.rdf, ['metadata_url', 'csv_url']) },
      responses: download('the graph'),
      handler: forward.download('rdf'),
    }),
    route<Record<string, unknown>, unknown, { id: string; name: string }>({
      method: 'GET',
      path: '/files/{id}/{name}',
      summary: 'A published file (an upload named in a descriptor), as stored',
      description:
        'Only files labld published (their URL went into an answer) are served, by their random id and ' +
        'the name they were published with; anything else is a 404. The URL is a capability: whoever ' +
        'has it can read the file.',
      tags: ['files'],
      responses: {
        200: { description: 'the file, with the type and charset recorded when it was stored' },
        206: { description: 'the byte range asked for (`Range: bytes=…`)' },
        304: { description: 'unchanged (`If-None-Match` with its ETag)' },
        404: { description: 'no such file' },
        416: { description: 'a range outside the file' },
      },
      handler: ({ params }, ctx) => serveStoredFile(runtime.blobs, params, ctx),
    }),
  ];
}
