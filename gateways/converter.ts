// The converter's routes (spec "RDF conversion service"): each is forwarded to the converter's
// request consumer. Parameters come in the query string or, for the original's clients, in a
// JSON body — all or nothing, as the original read them (research §3.2).
import type { Runtime } from '../app/runtime.ts';
import { isDownload } from '../lib/blobs/download.ts';
import { invalid } from '../lib/process/errors.ts';
import { route, type Result, type Route, type RouteInput, type UploadedFile } from './kit/index.ts';
import type { Forwarder } from './forward.ts';
import { converter, type OperationName } from '../lib/contracts/operations.ts';
import { part } from '../lib/contracts/schema.ts';

type Input = RouteInput<Record<string, unknown>, unknown>;
type Contract = (typeof converter)[keyof typeof converter];

// Either place may carry a field, so neither requires one; the forwarder checks the fields it
// sends against the contract, which names a field missing from both (`mapping_url: is required`).
const query = <C extends Contract>(contract: C, names: (keyof C['properties'] & string)[]) =>
  part(contract, names, []);
const body = <C extends Contract>(contract: C, names: (keyof C['properties'] & string)[]) => ({
  json: part(contract, names, []),
  required: false,
});

const conversionSchema = {
  type: 'object',
  properties: {
    filename: { type: 'string' },
    graph: { type: 'string' },
    num_mappings_applied: { type: 'integer' },
    num_mappings_skipped: { type: 'integer' },
  },
};
const checkSchema = {
  type: 'object',
  properties: { rules_applicable: { type: 'integer' }, rules_skipped: { type: 'integer' } },
};

/** Query parameters win when any is given; otherwise the body's (return_type is query-only). */
function dualUse(input: Input, names: string[]): Record<string, unknown> {
  const fromQuery = names.some((name) => input.query[name] !== undefined && input.query[name] !== '');
  const fromBody =
    input.body && typeof input.body === 'object' ? (input.body as Record<string, unknown>) : {};
  const picked = fromQuery ? input.query : fromBody;
  const fields: Record<string, unknown> = {};
  for (const name of names) if (picked[name] !== undefined) fields[name] = picked[name];
  if (input.query.return_type !== undefined) fields.return_type = input.query.return_type;
  return fields;
}

export function converterRoutes(runtime: Runtime, forward: Forwarder<'converter'>): Route[] {
  /** A JSON answer the consumer stored (graphs can be large): streamed, not downloaded. */
  const storedJson = (reply: unknown): Result => {
    if (!isDownload(reply)) return { json: reply };
    return { body: { path: runtime.blobs.path(reply.blob) }, contentType: 'application/json' };
  };
  // dualUse picks the fields the route's schemas (the same contract) have checked.
  const send = (operation: OperationName<'converter'>, names: string[]) => async (input: Input) =>
    forward.send(operation, dualUse(input, names) as never, input);

  return [
    route({
      method: 'POST',
      path: '/api/createrdf',
      summary: 'Run a mapping on its data: the joined graph',
      description:
        "The template graph (the mapping's `template:` or `method:` prefix), the link triples of the " +
        "mapping, the matched entities' quantity values and provenance, in `return_type`. " +
        '`num_mappings_skipped` counts the rules that made no triple.',
      tags: ['convert'],
      query: query(converter.createrdf, ['return_type', 'mapping_url', 'data_url']),
      body: body(converter.createrdf, ['mapping_url', 'data_url']),
      responses: {
        200: { description: 'the conversion', content: { 'application/json': conversionSchema } },
      },
      handler: async (input) => storedJson(await send('createrdf', ['mapping_url', 'data_url'])(input)),
    }),
    route<Record<string, unknown>, Record<string, unknown>>({
      method: 'POST',
      path: '/api/createrdfupload',
      summary: 'Run a mapping on uploaded data: the joined graph',
      description:
        'Multipart: the descriptor in the field `file`, `mapping_url` in the query or a form field. ' +
        "JSON (the original's form): `{mapping_url, data_url, data_content}` — data_url only names the data.",
      tags: ['convert'],
      query: query(converter.createrdfupload, ['return_type', 'mapping_url']),
      body: {
        multipart: {
          fileField: 'file',
          fields: part(converter.createrdfupload, ['mapping_url', 'data_url'], []),
          json: part(
            converter.createrdfupload,
            ['mapping_url', 'data_url', 'data_content'],
            ['mapping_url', 'data_url', 'data_content'],
          ),
        },
      },
      responses: {
        200: { description: 'the conversion', content: { 'application/json': conversionSchema } },
      },
      handler: async (input) => {
        const file = input.file as UploadedFile | undefined;
        if (!file && input.body === undefined) {
          // Neither form came: name the spec's one, and the original's as the alternative.
          throw invalid(
            'body.file: is required: send the data as the multipart field "file", or the JSON form ' +
              '{mapping_url, data_url, data_content}',
            'body.file',
          );
        }
        const fields = forward.withUpload(
          { ...input.query, ...(input.body as object | undefined) },
          file && (await forward.upload(file)),
        );
        return storedJson(await forward.send('createrdfupload', fields as never, input as Input));
      },
    }),
    route({
      method: 'POST',
      path: '/api/checkmapping',
      summary: 'Dry run: how many rules of the mapping apply to the data',
      tags: ['validate'],
      query: query(converter.checkmapping, ['mapping_url', 'data_url']),
      body: body(converter.checkmapping, ['mapping_url', 'data_url']),
      responses: { 200: { description: 'the check', content: { 'application/json': checkSchema } } },
      handler: async (input) => ({ json: await send('checkmapping', ['mapping_url', 'data_url'])(input) }),
    }),
    route({
      method: 'POST',
      path: '/api/test',
      summary: 'Run a mapping and report per-rule statistics instead of the graph',
      description:
        'For each rule: its condition, the values compared and whether they matched, records, subjects ' +
        'and triples; also the logs of the run and a preview of the output. A failing run answers ' +
        '`success: false` with the error, as the original did.',
      tags: ['debug'],
      query: query(converter.test, ['return_type', 'mapping_url', 'data_url']),
      body: body(converter.test, ['mapping_url', 'data_url']),
      responses: { 200: { description: 'the report', content: { 'application/json': { type: 'object' } } } },
      handler: async (input) => ({ json: await send('test', ['mapping_url', 'data_url'])(input) }),
    }),
    route({
      method: 'POST',
      path: '/api/rdfvalidator',
      summary: 'Validate a graph against SHACL shapes',
      description:
        "Both by URL (query string, or the original's JSON body). `conformance_report` is a readable " +
        'summary of the violations; the report graph is in `report_graph` (and `graph`, with `valid`, ' +
        "for the original's clients).",
      tags: ['validate'],
      query: query(converter.rdfvalidator, ['shapes_url', 'rdf_url']),
      body: body(converter.rdfvalidator, ['shapes_url', 'rdf_url']),
      responses: {
        200: {
          description: 'the validation',
          content: {
            'application/json': {
              type: 'object',
              properties: {
                conforms: { type: 'boolean' },
                conformance_report: { type: 'string' },
                shapes_graph: { type: 'string' },
                report_graph: { type: 'string' },
              },
            },
          },
        },
      },
      handler: async (input) => ({ json: await send('rdfvalidator', ['shapes_url', 'rdf_url'])(input) }),
    }),
    route({
      method: 'POST',
      path: '/api/yarrrmltorml',
      summary: 'Translate a YARRRML mapping to RML (Turtle), without running it',
      tags: ['convert'],
      query: query(converter.yarrrmltorml, ['mapping_url']),
      body: body(converter.yarrrmltorml, ['mapping_url']),
      responses: { 200: { description: 'the RML mapping (file download)' } },
      handler: async (input) => forward.asDownload(await send('yarrrmltorml', ['mapping_url'])(input)),
    }),
    route({
      method: 'POST',
      path: '/api/yarrrmltosparql',
      summary: "A SPARQL SELECT that reads the mapping's values back from its output graph",
      description:
        'One UNION branch per rule: its subjects, one column per referenced value, one per link to another ' +
        'rule. Runs on the RML result and on the createrdf joined graph (template IRIs in either form).',
      tags: ['convert'],
      query: query(converter.yarrrmltosparql, ['mapping_url']),
      body: body(converter.yarrrmltosparql, ['mapping_url']),
      responses: { 200: { description: 'the query (file download)' } },
      handler: async (input) => forward.asDownload(await send('yarrrmltosparql', ['mapping_url'])(input)),
    }),
    route<Record<string, unknown>, Record<string, unknown>>({
      method: 'POST',
      path: '/api/normalizeyarrrml',
      summary: 'Normalise a YARRRML mapping (two-line nested lists → inline pairs)',
      description: 'The mapping by `mapping_url` (query or JSON body) or as the multipart field `file`.',
      tags: ['convert'],
      query: query(converter.normalizeyarrrml, ['mapping_url']),
      body: {
        multipart: { fileField: 'file', json: part(converter.normalizeyarrrml, ['mapping_url'], []) },
      },
      responses: { 200: { description: 'the normalised mapping (file download)' } },
      handler: async (input) => {
        const file = input.file as UploadedFile | undefined;
        const fields: Record<string, unknown> = file
          ? await forward.upload(file)
          : dualUse(input as Input, ['mapping_url']);
        return forward.asDownload(await forward.send('normalizeyarrrml', fields as never, input as Input));
      },
    }),
  ];
}
