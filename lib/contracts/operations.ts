// The contract of every service operation: the schema of its input, one per operation. The
// gateways build their route schemas from these same objects (gateways/*.ts use `part`), the
// request topics' schemas in schemas/ are generated from them (tools/contracts.ts), and the
// TypeScript type of each input is derived from them (OperationInputs), so none can drift.
import { RETURN_TYPES, type ReturnType } from '../rdf/formats.ts';
import { ENCODINGS, type EncodingName } from '../annotator/encoding.ts';
import { DEFAULT_DATA_TYPES, DEFAULT_PREDICATE, DEFAULT_TEMPLATE_TYPES } from '../mapper/vocab.ts';
import type { ServiceName } from '../services.ts';
import { input, leaf, uploadOr, type Accepted, type InputSchema, type Schema } from './schema.ts';
import { REPRESENTATIONS, type Representation } from '../extractor/representations.ts';
import { GROWING_ID } from '../blobs/blob-store.ts';

/** A client URL: fetched later through the guarded fetch. */
export const url = (description: string) =>
  leaf<string>({ type: 'string', format: 'uri', minLength: 1, description });

/** `return_type`: one of the RDF serializations. */
export const returnType = (fallback: ReturnType, description: string) =>
  leaf<ReturnType>({ type: 'string', enum: [...RETURN_TYPES], default: fallback, description });

const text = (description: string) => leaf<string>({ type: 'string', description });

/** An upload moved into the blob store by the gateway: its key, and the name it came with. */
const upload = {
  blob: leaf<string>({ type: 'string', minLength: 1, description: 'blob store key of the upload' }),
  filename: text('the file name the upload came with'),
};

const encoding = leaf<EncodingName>({
  type: 'string',
  enum: [...ENCODINGS],
  default: 'auto',
  description: 'text encoding of the CSV; `auto` detects it (BOM, then strict UTF-8, then a detector)',
});

const iris = (description: string, fallback?: string[]) =>
  leaf<string[]>({
    type: 'array',
    items: { type: 'string', minLength: 1 },
    description,
    ...(fallback ? { examples: [fallback] } : {}),
  });

const info = input({});

export const annotator = {
  info,
  annotate: input(
    {
      data_url: url('the CSV file'),
      encoding,
      return_type: returnType('json-ld', 'serialization of the answer'),
    },
    ['data_url'],
  ),
  annotate_upload: input(
    { ...upload, encoding, return_type: returnType('json-ld', 'serialization of the answer') },
    ['blob', 'filename'],
  ),
  rdf: input(
    {
      metadata_url: url('the CSVW descriptor'),
      csv_url: url('the CSV, if not the one the descriptor names'),
      return_type: returnType('turtle', 'serialization of the answer'),
    },
    ['metadata_url'],
  ),
};

const document = url('the document (CSVW descriptor or template), in any RDF syntax');

export const mapper = {
  info,
  types: input({ url: document }, ['url']),
  entities: input(
    {
      url: document,
      types: leaf<string | string[]>({
        type: ['string', 'array'],
        items: { type: 'string' },
        description: `comma-separated type IRIs (or prefix:name), or the parameter repeated; default ${DEFAULT_DATA_TYPES.join(',')}`,
      }),
    },
    ['url'],
  ),
  mapping: input(
    {
      data_url: url('the CSVW descriptor (JSON-LD)'),
      template_url: url('the template graph'),
      map: leaf<Record<string, string>>({
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'template individual name → data entity name (or data entity name → individual IRI)',
      }),
      predicate: leaf<string>({
        type: 'string',
        minLength: 1,
        default: DEFAULT_PREDICATE,
        description: 'relation from a data entity to its template individual',
      }),
      use_template_rowwise: leaf<boolean>({ type: 'boolean', default: false }),
      data_types: iris('data entity types to map', DEFAULT_DATA_TYPES),
      template_types: iris('template entity types besides owl:NamedIndividual', DEFAULT_TEMPLATE_TYPES),
    },
    ['data_url', 'template_url', 'map'],
  ),
};

const mappingUrl = url('the YARRRML mapping');
const graphType = returnType('turtle', 'serialization of the graph');
/** createrdf and test: a mapping, its data (default: the mapping's first source), the serialization. */
const run = () =>
  input(
    {
      mapping_url: mappingUrl,
      data_url: url("the data (CSVW descriptor or JSON payload); default: the mapping's first source"),
      return_type: graphType,
    },
    ['mapping_url'],
  );
// Declared apart from uploadOr, so that their required fields are inferred from themselves.
const createRdfUpload = input(
  {
    mapping_url: mappingUrl,
    return_type: graphType,
    ...upload,
    data_url: url('names the data: base of minted IRIs and the file name'),
    data_content: text('the data itself'),
  },
  ['mapping_url'],
);
const normalizeYarrrml = input({ ...upload, mapping_url: mappingUrl });
const byMappingUrl = () => input({ mapping_url: mappingUrl }, ['mapping_url']);

export const converter = {
  info,
  createrdf: run(),
  createrdfupload: uploadOr(createRdfUpload, ['filename'], ['data_url', 'data_content']),
  checkmapping: input({ mapping_url: mappingUrl, data_url: run().properties.data_url }, ['mapping_url']),
  test: run(),
  rdfvalidator: input({ shapes_url: url('the SHACL shapes graph'), rdf_url: url('the graph to validate') }, [
    'shapes_url',
    'rdf_url',
  ]),
  yarrrmltorml: byMappingUrl(),
  yarrrmltosparql: byMappingUrl(),
  normalizeyarrrml: uploadOr(normalizeYarrrml, ['filename'], ['mapping_url']),
};

/** The caller's openBIS session token: set by the gateway from the request's credentials, never by a client field. */
const session = leaf<string>({
  type: 'string',
  minLength: 1,
  maxLength: 512,
  description: "the caller's openBIS session token (the gateway's, from the request's credentials)",
});
const representation = leaf<Representation>({
  type: 'string',
  enum: [...REPRESENTATIONS],
  default: 'jsonld',
  description: 'the representation negotiated from the Accept header',
});
/** Set by the gateway (never a client field): where the consumer writes a download it serves while it grows (lib/blobs/growing.ts). */
const growing = leaf<string>({
  type: 'string',
  pattern: GROWING_ID.source,
  description: "the gateway's growing-blob id: the file is written there as it is made",
});
const entityId = (description: string) =>
  leaf<string>({ type: 'string', minLength: 1, maxLength: 255, description });
const record = <N extends string>(name: N, description: string) =>
  input(
    { [name]: entityId(description), session, representation } as Record<N, Schema<string>> & {
      session: typeof session;
      representation: typeof representation;
    },
    [name, 'session'],
  );

export const extractor = {
  info,
  object: record('perm_id', 'permId of the object (sample), or its identifier /SPACE/PROJECT/CODE'),
  dataset: record('perm_id', 'permId of the data set'),
  collection: record('perm_id', 'permId of the collection (experiment), or its identifier'),
  project: record('perm_id', 'permId of the project, or its identifier'),
  space: record('perm_id', 'code of the space'),
  user: record('user_id', 'user id of the person'),
  class: record('object_type_code', 'code of the object, collection or data-set type'),
  object_property: record('property_type_code', 'code of the property type'),
  distribution: input(
    {
      perm_id: entityId('permId of the data set'),
      path: leaf<string>({
        type: 'string',
        minLength: 1,
        maxLength: 4096,
        description: "the file's path in the data set",
      }),
      download: leaf<boolean>({
        type: 'boolean',
        default: false,
        description: "the file's bytes instead of its record",
      }),
      session,
      growing,
      representation,
    },
    ['perm_id', 'path', 'session'],
  ),
  instance: input({ session, representation }, ['session']),
  search: input(
    {
      query: leaf<string>({
        type: 'string',
        minLength: 1,
        maxLength: 500,
        description: 'text to find (contains)',
      }),
      session,
      representation,
    },
    ['query', 'session'],
  ),
  export_bundle: input(
    {
      graph: leaf<string>({
        type: 'string',
        description: 'the selection as a JSON-LD document in a string (the original UI)',
      }),
      iris: leaf<string[]>({
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 2048 },
        description: 'the selection as record IRIs',
      }),
      session,
      growing,
    },
    ['session'],
  ),
};

/** Every service's operations, by name: the one list of what may be sent on a request topic. */
export const OPERATIONS = { annotator, mapper, converter, extractor } satisfies Record<
  ServiceName,
  Record<string, InputSchema>
>;

/** The input type of each operation: `OperationInputs['annotator']['annotate']`. */
export type OperationInputs = {
  [S in ServiceName]: { [O in keyof (typeof OPERATIONS)[S]]: Accepted<(typeof OPERATIONS)[S][O]> };
};

/** The operation names a service offers. */
export type OperationName<S extends ServiceName> = keyof OperationInputs[S] & string;
