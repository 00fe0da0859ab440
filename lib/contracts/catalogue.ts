// The catalogue's request topic: a CKAN Action API call as it travels from the gateway to the
// catalogue consumer. `operation` is the action's name; `input` the caller's hash-only
// Credential (never a token or a password), the action's parameters as the client sent them
// (CKAN's actions validate their own parameters, so the domain checks them and names the field),
// and an upload the gateway has already moved into the blob store. schemas/catalogue-request.schema.json
// is this schema written out by tools/contracts.ts.
import { CLAIM_DEFS, SCHEMA_BASE, claimOr } from './requests.ts';

/** The consumer group of the catalogue's request topic (topics.yaml). */
export const CATALOGUE_GROUP = 'catalogue-requests';

/**
 * Every action of the Action API, and whether it only reads (CKAN's `side_effect_free`: such an
 * action may be called with GET and query parameters; the others need POST).
 */
export const CATALOGUE_ACTIONS = {
  package_create: false,
  package_show: true,
  package_update: false,
  package_patch: false,
  package_delete: false,
  package_list: true,
  package_search: true,
  tag_list: true,
  license_list: true,
  resource_create: false,
  resource_show: true,
  resource_update: false,
  resource_patch: false,
  resource_delete: false,
  group_create: false,
  group_list: true,
  group_show: true,
  member_create: false,
  member_list: true,
  member_delete: false,
  organization_create: false,
  organization_show: true,
  organization_list: true,
  organization_update: false,
  organization_patch: false,
  organization_delete: false,
  organization_list_for_user: true,
  organization_member_create: false,
  organization_member_delete: false,
  package_collaborator_create: false,
  package_collaborator_list: true,
  package_collaborator_delete: false,
  datastore_create: false,
  datastore_delete: false,
  datastore_search: true,
  datastore_search_sql: true,
  datastore_info: true,
  datastore_upsert: false,
  status_show: true,
  user_show: true,
  user_list: true,
  help_show: true,
  api_token_create: false,
  api_token_list: true,
  api_token_revoke: false,
  // labld's own (DESIGN §7: prefixed): the stored file behind a resource, for its download link;
  // what the caller may do to a dataset, for the pages to offer only what will be allowed.
  labld_resource_download: true,
  labld_dataset_permissions: true,
  // A dataset page's whole content in one read (issue 25).
  labld_dataset_page: true,
  // A resource page's whole content, its table's rows included, in one read (issue 25).
  labld_resource_page: true,
  // A plot's points from a resource's datastore table, reduced in the database (issue 15).
  labld_datastore_plot: true,
  // The original's name (ckanext-fuseki's load button; DESIGN §7 keeps it unprefixed).
  triplestore_load: false,
  // The automation chain's step status (issue 14): labld's whole view, and CKAN's task_status_show.
  labld_status_show: true,
  task_status_show: true,
  labld_chain_retry: false,
  // The chain's dead letters, for a dataset's admins: listed, and replayed from the page.
  labld_dead_letter_list: true,
  labld_dead_letter_replay: false,
  // The mapping library's page (issue 28): its mappings, what each maps, which sources used it.
  labld_mapping_library_show: true,
} as const satisfies Record<string, boolean>;

export type ActionName = keyof typeof CATALOGUE_ACTIONS;
export const ACTION_NAMES = Object.keys(CATALOGUE_ACTIONS) as ActionName[];

export function isActionName(name: unknown): name is ActionName {
  return typeof name === 'string' && Object.hasOwn(CATALOGUE_ACTIONS, name);
}

/**
 * Where an upload is downloaded: CKAN's URL form, `/dataset/<id>/resource/<rid>/download/<file>`
 * (also the name of the graph a load puts it in).
 */
export function downloadUrl(
  siteUrl: string,
  resource: { id: string; package_id: string; url: string },
): string {
  const file = encodeURIComponent(resource.url.split('/').pop() || 'download');
  return `${siteUrl}/dataset/${resource.package_id}/resource/${resource.id}/download/${file}`;
}

/** An upload the gateway stored: its blob key, the client's file name and media type, its size. */
export interface StoredUpload {
  blob: string;
  filename: string;
  mimetype: string;
  size: number;
}

export type WireCredential =
  { kind: 'anonymous' } | { kind: 'token'; hash: string } | { kind: 'session'; hash: string };

/** A client's Idempotency-Key scoped by the gateway (gateways/catalogue/idempotency.ts), as hashes. */
export interface WireIdempotency {
  key: string;
  fingerprint: string;
}

export interface CatalogueInput {
  credential: WireCredential;
  params: Record<string, unknown>;
  upload?: StoredUpload;
  idempotency?: WireIdempotency;
}

export interface CatalogueRequest {
  operation: ActionName;
  input: CatalogueInput;
}

const HASH = { type: 'string', pattern: '^[0-9a-f]{64}$' };

/** Who asks, as hashes only (also on the triple store's request topic). */
export const CREDENTIAL_SCHEMA = {
  description: 'who asks, as hashes only: never a token, a password or a cookie',
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind'],
      properties: { kind: { const: 'anonymous' } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'hash'],
      properties: { kind: { enum: ['token', 'session'] }, hash: HASH },
    },
  ],
};

const inputSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['credential', 'params'],
  properties: {
    credential: CREDENTIAL_SCHEMA,
    params: { type: 'object', description: "the action's parameters as the client sent them" },
    upload: {
      type: 'object',
      additionalProperties: false,
      required: ['blob', 'filename', 'mimetype', 'size'],
      properties: {
        blob: HASH,
        filename: { type: 'string' },
        mimetype: { type: 'string' },
        size: { type: 'integer', minimum: 0 },
      },
    },
    idempotency: {
      type: 'object',
      description: "the client's Idempotency-Key scoped to caller and dataset, and the request's fingerprint",
      additionalProperties: false,
      required: ['key', 'fingerprint'],
      properties: { key: HASH, fingerprint: HASH },
    },
  },
};

export const CATALOGUE_REQUEST_FILE = 'catalogue-request.schema.json';

export function catalogueRequestSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}${CATALOGUE_REQUEST_FILE}`,
    title: 'catalogue request',
    description:
      'A CKAN Action API call, published by the catalogue gateway to the catalogue request topic. ' +
      'An input larger than the claim-check threshold (datastore_create records) travels as ' +
      '{"$claim": key}. Generated from lib/contracts/catalogue.ts by tools/contracts.ts: edit that, not this file.',
    type: 'object',
    required: ['operation', 'input'],
    additionalProperties: false,
    properties: {
      operation: { enum: ACTION_NAMES },
      input: claimOr(inputSchema),
    },
    $defs: CLAIM_DEFS,
  };
}

export const catalogueRequestSchemaText = () => `${JSON.stringify(catalogueRequestSchema(), null, 2)}\n`;
