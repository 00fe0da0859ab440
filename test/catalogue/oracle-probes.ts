// Every request that addresses a dataset or a resource, for the oracle matrix (oracle-matrix.ts):
// each Action API action (a table over every ActionName, so a new action must be placed here or
// among those that address none), the pages that read or change a dataset, and the dataset's
// SPARQL endpoint, its DCAT. Each probe is a function of the references it is sent with, so the same
// request can be made about a private dataset and about a missing one.
import { CATALOGUE_ACTIONS, type ActionName } from '../../lib/contracts/catalogue.ts';
import type { CookieJar } from './support/login.ts';

/** What a probe names: a dataset (by name or id), a resource of it, a dead letter of its chain. */
export interface Refs {
  dataset: string;
  resource: string;
  deadLetter: string;
}

export interface Caller {
  name: 'anonymous' | 'other';
  /** The caller's API token (the Action API and the endpoint); none for anonymous. */
  token: string | undefined;
  /** The caller's browser: its session (the pages), or only a pre-session for anonymous. */
  jar: CookieJar;
  /** The jar's CSRF token, for the pages' forms. */
  csrf: string;
}

export interface Probe {
  label: string;
  send(base: string, refs: Refs, caller: Caller): Promise<Response>;
}

type Params = (r: Refs) => Record<string, unknown>;

/**
 * Per action: its parameters about the dataset or resource of `Refs`, or `null` for an action
 * that addresses none (the site, a group, a user or a token), with why.
 */
const ACTION_PARAMS: Record<ActionName, Params | null> = {
  package_create: null, // names a new dataset: its own test (the name-taken case)
  package_show: (r) => ({ id: r.dataset }),
  package_update: (r) => ({ id: r.dataset, name: 'renamed-set', title: 'Updated' }),
  package_patch: (r) => ({ id: r.dataset, notes: 'Patched' }),
  package_delete: (r) => ({ id: r.dataset }),
  package_list: null, // the site's public datasets
  package_search: null, // the site's datasets, as far as the caller may read them
  tag_list: null, // the tags of the datasets the caller may read
  license_list: null, // a fixed list
  resource_create: (r) => ({ package_id: r.dataset, url: 'https://example.org/more.csv' }),
  resource_show: (r) => ({ id: r.resource }),
  resource_update: (r) => ({ id: r.resource, url: 'https://example.org/other.csv' }),
  resource_patch: (r) => ({ id: r.resource, description: 'patched' }),
  resource_delete: (r) => ({ id: r.resource }),
  group_create: null, // a group
  group_list: null, // the groups
  group_show: null, // a group: its datasets as package_search lists them
  member_create: (r) => ({ id: 'mappings', object: r.dataset, object_type: 'package', capacity: 'public' }),
  member_delete: (r) => ({ id: 'mappings', object: r.dataset, object_type: 'package' }),
  member_list: null, // a group's or an organization's: the datasets listed as package_search lists them
  organization_create: null, // an organization (public)
  organization_show: null, // an organization: its datasets as package_search lists them
  organization_list: null,
  organization_update: null,
  organization_patch: null,
  organization_delete: null,
  organization_list_for_user: null, // the caller's organizations
  organization_member_create: null, // a user's role in an organization
  organization_member_delete: null,
  package_collaborator_create: (r) => ({ id: r.dataset, user_id: 'other', capacity: 'editor' }),
  package_collaborator_list: (r) => ({ id: r.dataset }),
  package_collaborator_delete: (r) => ({ id: r.dataset, user_id: 'owner' }),
  datastore_create: (r) => ({ resource_id: r.resource, fields: [{ id: 'a', type: 'numeric' }], records: [] }),
  datastore_delete: (r) => ({ resource_id: r.resource }),
  datastore_search: (r) => ({ resource_id: r.resource }),
  datastore_search_sql: (r) => ({ sql: `SELECT * FROM "${r.resource}"` }),
  datastore_info: (r) => ({ id: r.resource }),
  datastore_upsert: (r) => ({ resource_id: r.resource, method: 'insert', records: [] }),
  status_show: null, // the site
  user_show: null, // a user
  user_list: null, // the users
  help_show: null, // an action's help
  api_token_create: null, // a user's tokens
  api_token_list: null,
  api_token_revoke: null,
  labld_resource_download: (r) => ({ id: r.resource }),
  labld_dataset_permissions: (r) => ({ id: r.dataset }),
  labld_dataset_page: (r) => ({ id: r.dataset }),
  labld_resource_page: (r) => ({ id: r.dataset, resource_id: r.resource }),
  labld_datastore_plot: (r) => ({ resource_id: r.resource }),
  triplestore_load: (r) => ({ id: r.dataset }),
  labld_status_show: (r) => ({ id: r.dataset }),
  task_status_show: (r) => ({ entity_id: r.resource, key: 'annotate' }),
  labld_chain_retry: (r) => ({ resource_id: r.resource }),
  labld_dead_letter_list: (r) => ({ id: r.dataset }),
  labld_dead_letter_replay: (r) => ({ id: r.deadLetter }),
  labld_mapping_library_show: null, // the site's library
};

const tokenOf = (c: Caller): Record<string, string> => (c.token ? { authorization: c.token } : {});

function actionProbes(): Probe[] {
  const probes: Probe[] = [];
  for (const [name, params] of Object.entries(ACTION_PARAMS) as [ActionName, Params | null][]) {
    if (params === null) continue;
    probes.push({
      label: `POST ${name}`,
      send: (base, refs, caller) =>
        fetch(`${base}/api/3/action/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...tokenOf(caller) },
          body: JSON.stringify(params(refs)),
        }),
    });
    if (!CATALOGUE_ACTIONS[name]) continue;
    // A read by GET counts the session cookie too (a browser's script).
    probes.push({
      label: `GET ${name}`,
      send: (base, refs, caller) => {
        const query = new URLSearchParams(params(refs) as Record<string, string>);
        return fetch(`${base}/api/3/action/${name}?${query}`, {
          headers: { cookie: caller.jar.header(), ...tokenOf(caller) },
        });
      },
    });
  }
  probes.push({
    label: 'POST resource_create with an upload',
    send: (base, refs, caller) => {
      const form = new FormData();
      form.set('package_id', refs.dataset);
      form.set('upload', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'rows.csv');
      return fetch(`${base}/api/3/action/resource_create`, {
        method: 'POST',
        headers: tokenOf(caller),
        body: form,
      });
    },
  });
  return probes;
}

const datasetPath = (r: Refs) => `/dataset/${r.dataset}`;
const resourcePath = (r: Refs) => `${datasetPath(r)}/resource/${r.resource}`;

/** The pages that read a dataset, as a browser (HTML) and as a script (JSON) asks for them. */
const PAGES: [string, (r: Refs) => string][] = [
  ['the dataset page', datasetPath],
  ['its Resources section', (r) => `${datasetPath(r)}/resources`],
  ['its Automation section', (r) => `${datasetPath(r)}/automation`],
  ['the upload form', (r) => `${datasetPath(r)}/upload`],
  ['the query page', (r) => `${datasetPath(r)}/query`],
  ['the resource page', resourcePath],
  ['the download', (r) => `${resourcePath(r)}/download`],
  ['the download by file name', (r) => `${resourcePath(r)}/download/rows.csv`],
  ['the plot', (r) => `${resourcePath(r)}/plot`],
];

/** The pages' forms that change a dataset. */
const FORMS: [string, (r: Refs) => string, (r: Refs) => Record<string, string>][] = [
  ['Load', (r) => `${datasetPath(r)}/triplestore/load`, () => ({})],
  ["the query page's Load", (r) => `${datasetPath(r)}/query/load`, () => ({})],
  [
    'Retry',
    (r) => `${datasetPath(r)}/automation/retry`,
    (r) => ({ resource_id: r.resource, step: 'annotate' }),
  ],
  ['Replay', (r) => `${datasetPath(r)}/dead-letters/replay`, (r) => ({ id: r.deadLetter })],
];

function pageProbes(): Probe[] {
  const probes: Probe[] = [];
  for (const [label, path] of PAGES) {
    for (const accept of ['text/html', 'application/json']) {
      probes.push({
        label: `GET ${label} (${accept})`,
        send: (base, refs, caller) =>
          fetch(`${base}${path(refs)}`, {
            headers: { cookie: caller.jar.header(), accept },
            redirect: 'manual',
          }),
      });
    }
  }
  for (const [label, path, fields] of FORMS) {
    probes.push({
      label: `POST ${label}`,
      send: (base, refs, caller) =>
        fetch(`${base}${path(refs)}`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            cookie: caller.jar.header(),
            accept: 'text/html',
            origin: base,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ _csrf: caller.csrf, ...fields(refs) }).toString(),
        }),
    });
  }
  probes.push({
    label: 'POST the upload form',
    send: (base, refs, caller) => {
      const body = new FormData();
      body.set('_csrf', caller.csrf);
      body.set('file', new Blob(['x\n1\n'], { type: 'text/csv' }), 'more.csv');
      return fetch(`${base}${datasetPath(refs)}/upload`, {
        method: 'POST',
        redirect: 'manual',
        body,
        headers: { cookie: caller.jar.header(), origin: base, accept: 'text/html' },
      });
    },
  });
  return probes;
}

const ASK = 'ASK { ?s ?p ?o }';
const INSERT = 'INSERT DATA { <urn:x:s> <urn:x:p> 1 }';

/** The endpoint: queries and updates in each of the protocol's forms, by token and by session. */
function sparqlProbes(): Probe[] {
  const at = (base: string, r: Refs) => `${base}${datasetPath(r)}/triplestore/sparql`;
  const post = (label: string, type: string, body: string, cookie = false): Probe => ({
    label: `POST the endpoint: ${label}`,
    send: (base, refs, caller) =>
      fetch(at(base, refs), {
        method: 'POST',
        headers: {
          'content-type': type,
          ...tokenOf(caller),
          // Our own pages' posts: the session counts.
          ...(cookie ? { cookie: caller.jar.header(), 'sec-fetch-site': 'same-origin' } : {}),
        },
        body,
      }),
  });
  const form = 'application/x-www-form-urlencoded';
  return [
    {
      label: 'GET the endpoint: a query',
      send: (base, refs, caller) =>
        fetch(`${at(base, refs)}?query=${encodeURIComponent(ASK)}`, {
          headers: { cookie: caller.jar.header(), ...tokenOf(caller) },
        }),
    },
    post('a query form', form, new URLSearchParams({ query: ASK }).toString()),
    post('an update form', form, new URLSearchParams({ update: INSERT }).toString()),
    post('application/sparql-query', 'application/sparql-query', ASK),
    post('application/sparql-update', 'application/sparql-update', INSERT),
    post('an update from our own page', 'application/sparql-update', INSERT, true),
  ];
}

/** The dataset as DCAT: by extension and by the page's content negotiation, by token and by session. */
function dcatProbes(): Probe[] {
  const get = (label: string, path: (r: Refs) => string, accept = '*/*'): Probe => ({
    label: `GET DCAT ${label}`,
    send: (base, refs, caller) =>
      fetch(`${base}${path(refs)}`, { headers: { cookie: caller.jar.header(), accept, ...tokenOf(caller) } }),
  });
  return [
    ...['ttl', 'jsonld', 'rdf', 'xml', 'n3'].map((ext) => get(`.${ext}`, (r) => `${datasetPath(r)}.${ext}`)),
    get('by Accept: text/turtle', datasetPath, 'text/turtle'),
    get('by Accept: application/ld+json', datasetPath, 'application/ld+json'),
  ];
}

/** Every probe of the matrix. */
export function probes(): Probe[] {
  return [...actionProbes(), ...pageProbes(), ...sparqlProbes(), ...dcatProbes()];
}
