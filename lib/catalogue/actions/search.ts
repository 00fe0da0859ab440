// package_search as CKAN 2.10/2.11 documents it: q, fq and fq_list in the Solr syntax CKAN users
// write (search-query.ts reads the subset labld supports and refuses the rest), sort on any
// sortable field, facets with CKAN's `facets` and `search_facets`, rows capped as CKAN caps
// them. A parameter labld does not read is refused naming it: silently ignored, it would answer
// another question than the one asked.
import { demand } from '../auth/authorize.ts';
import { invalid } from '../../process/errors.ts';
import {
  allOf,
  FACET_FIELDS,
  parseSearch,
  parseSort,
  scoreTerms,
  type FacetField,
  type FacetQuery,
} from '../search-query.ts';
import type { DatasetQuery } from '../store/contract.ts';
import { LICENSES } from '../licenses.ts';
import { privateFilterOf, type Action } from './context.ts';
import { showDataset } from './datasets.ts';
import { bool, integer, list, optional, type Params } from './params.ts';

/** CKAN's search.rows_max: more rows are capped to it, not refused. */
const ROWS_MAX = 1000;
/** CKAN's search.facets.limit default; a negative facet.limit is "all" (here: up to this many). */
const FACET_LIMIT = 50;
const FACET_ALL = 1000;
const DEFAULT_SORT = 'score desc, metadata_modified desc';

/**
 * What labld reads. include_drafts and include_deleted change nothing (labld keeps no drafts and
 * purges on delete); use_default_schema neither (one schema). Solr tuning (defType, qf, mm, bf…)
 * is refused with the rest.
 */
const KNOWN = new Set([
  'q',
  'fq',
  'fq_list',
  'sort',
  'rows',
  'start',
  'facet',
  'facet.field',
  'facet.limit',
  'facet.mincount',
  'include_private',
  'include_drafts',
  'include_deleted',
  'use_default_schema',
]);

function unknownParams(params: Params): void {
  for (const name of Object.keys(params)) {
    if (!KNOWN.has(name)) {
      throw invalid(`package_search does not read ${name} (it reads ${[...KNOWN].join(', ')})`, name);
    }
  }
  for (const name of ['include_drafts', 'include_deleted', 'use_default_schema']) bool(params, name);
}

function facetQuery(params: Params): FacetQuery | undefined {
  const fields = list(params, 'facet.field');
  const limitGiven = integer(params, 'facet.limit', FACET_LIMIT, -1, Number.MAX_SAFE_INTEGER);
  const mincount = integer(params, 'facet.mincount', 1, 0, Number.MAX_SAFE_INTEGER);
  if (bool(params, 'facet') === false || fields === undefined || fields.length === 0) return undefined;
  for (const field of fields) {
    if (typeof field !== 'string' || !(FACET_FIELDS as readonly string[]).includes(field)) {
      throw invalid(
        `labld counts facets of ${FACET_FIELDS.join(', ')} (got ${JSON.stringify(field)})`,
        'facet.field',
      );
    }
  }
  const limit = limitGiven < 0 ? FACET_ALL : Math.min(limitGiven, FACET_ALL);
  return { fields: [...new Set(fields as FacetField[])], limit, mincount };
}

/** fq_list: a list of fq texts, each a filter of its own. */
function filterList(params: Params) {
  return (list(params, 'fq_list') ?? []).map((fq, i) => {
    if (typeof fq !== 'string') throw invalid(`item ${i + 1} must be text`, 'fq_list');
    return parseSearch(fq, 'fq_list');
  });
}

const packageSearch: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'dataset.search');
  unknownParams(params);
  const sortText = optional(params, 'sort') ?? DEFAULT_SORT;
  const order = parseSort(sortText);
  const rows = Math.min(integer(params, 'rows', 10, 0, Number.MAX_SAFE_INTEGER), ROWS_MAX);
  const start = integer(params, 'start', 0, 0, Number.MAX_SAFE_INTEGER);
  const q = parseSearch(optional(params, 'q') ?? '', 'q');
  const where = allOf([q, parseSearch(optional(params, 'fq') ?? '', 'fq'), ...filterList(params)]);
  const facets = facetQuery(params);
  // CKAN: private datasets only with include_private, and then those the user may read.
  const includePrivate = bool(params, 'include_private') === true;
  const query: DatasetQuery = {
    order,
    scoreTerms: scoreTerms(q),
    limit: rows,
    offset: start,
    ...(where !== undefined ? { where } : {}),
    ...(facets !== undefined ? { facets } : {}),
    ...(includePrivate ? privateFilterOf(viewer) : {}),
  };
  const found = await deps.store.searchDatasets(query);
  const counted = found.facets ?? {};
  return {
    count: found.count,
    sort: sortText,
    results: await Promise.all(found.results.map((d) => showDataset(deps, d))),
    facets: Object.fromEntries(
      Object.entries(counted).map(([field, items]) => [
        field,
        Object.fromEntries(items.map((item) => [item.name, item.count])),
      ]),
    ),
    search_facets: Object.fromEntries(
      Object.entries(counted).map(([field, items]) => [field, { title: field, items }]),
    ),
  };
};

/**
 * CKAN's tag_list: the free tags of the datasets the viewer may see (CKAN lists every tag in
 * its database; a tag only a private dataset has would tell of it). `query`: tags containing it.
 */
const tagList: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'dataset.search');
  const query = (optional(params, 'query') ?? '').toLowerCase();
  const allFields = bool(params, 'all_fields') === true;
  if (optional(params, 'vocabulary_id') !== undefined)
    throw invalid('labld keeps free tags only', 'vocabulary_id');
  const found = await deps.store.searchDatasets({
    limit: 0,
    facets: { fields: ['tags'], limit: FACET_ALL, mincount: 1 },
    ...privateFilterOf(viewer),
  });
  const names = (found.facets?.tags ?? [])
    .map((t) => t.name)
    .filter((name) => name.toLowerCase().includes(query))
    .sort();
  return allFields ? names.map((name) => ({ name, display_name: name, vocabulary_id: null })) : names;
};

/** CKAN's license_list: its default licences. */
const licenseList: Action = async () =>
  LICENSES.map((l) => ({
    id: l.id,
    title: l.title,
    url: l.url,
    is_okd_compliant: l.is_okd_compliant,
    od_conformance: l.is_okd_compliant ? 'approved' : 'not reviewed',
    status: 'active',
  }));

export const searchActions = { package_search: packageSearch, tag_list: tagList, license_list: licenseList };
