// Dataset search on SQL, for both databases: a parsed q/fq tree (../../search-query.ts) becomes
// a WHERE clause with `?` parameters, a sort becomes ORDER BY, and facets are counted over
// every dataset found. Text fields match case-insensitively anywhere in the text (no stemming,
// no tokens: Solr would match words); exact fields match the whole value, as Solr's strings.
import { invalid } from '../../../process/errors.ts';
import type { Dataset } from '../../model.ts';
import { licenseOf } from '../../licenses.ts';
import {
  stepOfField,
  type FacetItem,
  type Match,
  type SearchNode,
  type SortKey,
} from '../../search-query.ts';
import type { DatasetQuery, SearchResult } from '../contract.ts';
import { containing, findId, paging, text } from './common.ts';
import { num, str } from './rows.ts';
import type { Param, Row, SqlSession } from './session.ts';

/** A LIKE pattern for a value that starts with `prefix`, its wildcards escaped. */
function startingWith(prefix: string): string {
  return `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A text column holds the value somewhere (case-insensitive). */
function textMatch(column: string, value: string, match: Match, params: Param[]): string {
  if (match === 'any') return `${column} <> ''`;
  params.push(containing(value));
  return `lower(${column}) LIKE ? ESCAPE '\\'`;
}

/** An exact column is the value (a prefix: starts with it, case-insensitive). */
function exactMatch(column: string, value: string, match: Match, params: Param[]): string {
  if (match === 'any') return `(${column} IS NOT NULL AND ${column} <> '')`;
  if (match === 'prefix') {
    params.push(startingWith(value));
    return `lower(${column}) LIKE ? ESCAPE '\\'`;
  }
  params.push(value);
  return `${column} = ?`;
}

/** Whether a constant that every dataset has (type `dataset`, state `active`) matches. */
function constantMatch(constant: string, value: string, match: Match): boolean {
  if (match === 'any') return true;
  if (match === 'prefix') return constant.startsWith(value.toLowerCase());
  return constant === value;
}

const inResources = (condition: string) =>
  `EXISTS (SELECT 1 FROM resources r WHERE r.package_id = p.id AND ${condition})`;

type Dialect = SqlSession['dialect'];

/** A step status's `summary.outcome` (a facet of a step: pipeline.ts), in each dialect. */
const outcomeOf = (dialect: Dialect) =>
  dialect === 'postgres' ? `(c.summary::jsonb ->> 'outcome')` : `json_extract(c.summary, '$.outcome')`;

function term(node: Extract<SearchNode, { field: unknown }>, params: Param[], dialect: Dialect): string {
  const { value, match } = node;
  switch (node.field) {
    case 'text': {
      const own = ['p.name', 'p.title', 'p.notes'].map((c) => textMatch(c, value, match, params));
      const res = ['r.name', 'r.description'].map((c) => textMatch(c, value, match, params));
      return `(${own.join(' OR ')} OR ${inResources(`(${res.join(' OR ')})`)})`;
    }
    case 'title':
    case 'notes':
      return textMatch(`p.${node.field}`, value, match, params);
    case 'res_name':
      return inResources(textMatch('r.name', value, match, params));
    case 'res_description':
      return inResources(textMatch('r.description', value, match, params));
    case 'name':
    case 'id':
    case 'creator_user_id':
      return exactMatch(`p.${node.field}`, value, match, params);
    case 'groups':
      return `EXISTS (SELECT 1 FROM group_members gm JOIN groups g ON g.id = gm.group_id
        WHERE gm.package_id = p.id AND ${exactMatch('g.name', value, match, params)})`;
    case 'res_format':
      return inResources(exactMatch('r.format', value, match, params));
    case 'dataset_type':
    case 'type':
      return constantMatch('dataset', value, match) ? 'TRUE' : 'FALSE';
    case 'state':
      return constantMatch('active', value, match) ? 'TRUE' : 'FALSE';
    case 'capacity': {
      const pub = constantMatch('public', value, match);
      const priv = constantMatch('private', value, match);
      return pub && priv ? 'TRUE' : pub ? 'NOT p.private' : priv ? 'p.private' : 'FALSE';
    }
    case 'tags':
      return `EXISTS (SELECT 1 FROM package_tags t WHERE t.package_id = p.id AND ${exactMatch('t.name', value, match, params)})`;
    case 'author':
    case 'maintainer':
      return textMatch(`p.${node.field}`, value, match, params);
    case 'license_id':
    case 'version':
    case 'url':
      return exactMatch(`p.${node.field}`, value, match, params);
    // Solr's organization field holds the owner's name, owner_org its id.
    case 'organization':
      return `EXISTS (SELECT 1 FROM organizations o WHERE o.id = p.owner_org AND ${exactMatch('o.name', value, match, params)})`;
    case 'owner_org':
      return exactMatch('p.owner_org', value, match, params);
    default: {
      // A step's outcome (pipeline.ts `facet`): a source of the dataset whose done step has it.
      params.push(stepOfField(node.field) ?? '');
      const outcome = exactMatch(outcomeOf(dialect), value, match, params);
      return `EXISTS (SELECT 1 FROM chain_step_status c WHERE c.package_id = p.id AND c.step = ? AND c.state = 'done' AND ${outcome})`;
    }
  }
}

/** The WHERE condition of a tree, its values appended to `params` in order. */
export function condition(node: SearchNode, params: Param[], dialect: Dialect): string {
  if ('all' in node) return 'TRUE';
  if ('not' in node) return `NOT (${condition(node.not, params, dialect)})`;
  if ('and' in node) return `(${node.and.map((n) => condition(n, params, dialect)).join(' AND ')})`;
  if ('or' in node) return `(${node.or.map((n) => condition(n, params, dialect)).join(' OR ')})`;
  return term(node, params, dialect);
}

/** Relevance: per word of `q`, 2 when in the title or name, 1 when in the notes. */
function score(words: readonly string[], params: Param[]): string {
  return words
    .map((word) => {
      const pattern = containing(word);
      params.push(pattern, pattern, pattern);
      return `(CASE WHEN lower(p.title) LIKE ? ESCAPE '\\' OR lower(p.name) LIKE ? ESCAPE '\\' THEN 2 ELSE 0 END
        + CASE WHEN lower(p.notes) LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)`;
    })
    .join(' + ');
}

/** ORDER BY for the keys, then name and id, so that pages never overlap. */
function orderBy(s: SqlSession, keys: readonly SortKey[], words: readonly string[], params: Param[]): string {
  // Code point order on both databases (PostgreSQL's default collation would follow a locale).
  const bytes = s.dialect === 'postgres' ? ' COLLATE "C"' : '';
  // Without words every score is the same: no key (a constant would read as a column number).
  const parts = keys.flatMap(({ field, desc }) => {
    if (field === 'score' && words.length === 0) return [];
    const dir = desc ? 'DESC' : 'ASC';
    switch (field) {
      case 'score':
        return `(${score(words, params)}) ${dir}`;
      case 'title_string':
        return `p.title${bytes} ${dir}`;
      case 'num_resources':
        return `(SELECT COUNT(*) FROM resources r WHERE r.package_id = p.id) ${dir}`;
      default:
        return `p.${field} ${dir}`;
    }
  });
  return [...parts, 'p.name', 'p.id'].join(', ');
}

/** Keys for the store's older `sort` values. */
function keysOf(query: DatasetQuery): SortKey[] {
  if (query.order) return [...query.order];
  const sort = query.sort ?? 'name asc';
  if (sort === 'name asc') return [{ field: 'name', desc: false }];
  if (sort === 'metadata_modified desc') return [{ field: 'metadata_modified', desc: true }];
  throw invalid(`sort: must be "name asc" or "metadata_modified desc" (got ${JSON.stringify(sort)})`, 'sort');
}

async function facetCounts(
  s: SqlSession,
  query: DatasetQuery,
  found: string,
  params: Param[],
): Promise<Record<string, FacetItem[]>> {
  const facets: Record<string, FacetItem[]> = {};
  const { fields = [], limit = 50, mincount = 1 } = query.facets ?? {};
  const bytes = s.dialect === 'postgres' ? ' COLLATE "C"' : '';
  const least = Math.max(1, mincount);
  for (const field of fields) {
    let rows: Row[] = [];
    if (field === 'groups') {
      rows = await s.all(
        `SELECT g.name AS name, g.title AS title, COUNT(*) AS n FROM group_members gm JOIN groups g ON g.id = gm.group_id
         WHERE gm.package_id IN (${found}) GROUP BY g.name, g.title HAVING COUNT(*) >= ?
         ORDER BY n DESC, g.name${bytes} LIMIT ?`,
        [...params, least, limit],
      );
    } else if (field === 'res_format') {
      rows = await s.all(
        `SELECT r.format AS name, COUNT(DISTINCT r.package_id) AS n FROM resources r
         WHERE r.format <> '' AND r.package_id IN (${found}) GROUP BY r.format
         HAVING COUNT(DISTINCT r.package_id) >= ? ORDER BY n DESC, r.format${bytes} LIMIT ?`,
        [...params, least, limit],
      );
    } else if (field === 'tags') {
      rows = await s.all(
        `SELECT t.name AS name, COUNT(*) AS n FROM package_tags t WHERE t.package_id IN (${found})
         GROUP BY t.name HAVING COUNT(*) >= ? ORDER BY n DESC, t.name${bytes} LIMIT ?`,
        [...params, least, limit],
      );
    } else if (field === 'license_id') {
      rows = await s
        .all(
          `SELECT l.license_id AS name, COUNT(*) AS n FROM packages l WHERE l.license_id <> '' AND l.id IN (${found})
         GROUP BY l.license_id HAVING COUNT(*) >= ? ORDER BY n DESC, l.license_id${bytes} LIMIT ?`,
          [...params, least, limit],
        )
        .then((counted) => counted.map((r) => ({ ...r, title: licenseOf(str(r.name))?.title ?? null })));
    } else if (stepOfField(field) !== undefined) {
      // A step's outcome: the datasets with a source whose done step has each outcome.
      const outcome = outcomeOf(s.dialect);
      rows = await s.all(
        `SELECT ${outcome} AS name, COUNT(DISTINCT c.package_id) AS n FROM chain_step_status c
         WHERE c.step = ? AND c.state = 'done' AND ${outcome} IS NOT NULL AND c.package_id IN (${found})
         GROUP BY ${outcome} HAVING COUNT(DISTINCT c.package_id) >= ? ORDER BY n DESC, ${outcome}${bytes} LIMIT ?`,
        [stepOfField(field)!, ...params, least, limit],
      );
    } else if (field === 'organization') {
      rows = await s.all(
        `SELECT o.name AS name, o.title AS title, COUNT(*) AS n FROM packages q JOIN organizations o ON o.id = q.owner_org
         WHERE q.id IN (${found}) GROUP BY o.name, o.title HAVING COUNT(*) >= ?
         ORDER BY n DESC, o.name${bytes} LIMIT ?`,
        [...params, least, limit],
      );
    }
    facets[field] = rows.map((r) => ({
      name: str(r.name),
      display_name: (r.title == null ? '' : str(r.title)) || str(r.name),
      count: num(r.n),
    }));
  }
  return facets;
}

/** The store's searchDatasets on a session; `datasets` reads the rows into datasets. */
export async function searchDatasets(
  s: SqlSession,
  query: DatasetQuery,
  visibility: (params: Param[]) => string,
  datasets: (rows: Row[]) => Promise<Dataset[]>,
): Promise<SearchResult<Dataset>> {
  const { limit, offset } = paging(query);
  const params: Param[] = [];
  const where = [visibility(params)];
  for (const word of text(query.q ?? '', 'q')
    .split(/\s+/)
    .filter(Boolean)) {
    where.push(condition({ field: 'text', value: word, match: 'word' }, params, s.dialect));
  }
  if (query.group !== undefined) {
    const groupId = (await findId(s, 'groups', query.group)) ?? '';
    where.push(`EXISTS (SELECT 1 FROM group_members gm WHERE gm.package_id = p.id AND gm.group_id = ?)`);
    params.push(groupId);
  }
  if (query.where !== undefined) where.push(condition(query.where, params, s.dialect));
  const clause = where.join(' AND ');
  const ordering: Param[] = [];
  const order = orderBy(s, keysOf(query), query.scoreTerms ?? [], ordering);
  const [total] = await s.all(`SELECT COUNT(*) AS n FROM packages p WHERE ${clause}`, params);
  const rows =
    limit === 0
      ? []
      : await s.all(`SELECT p.* FROM packages p WHERE ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`, [
          ...params,
          ...ordering,
          limit,
          offset,
        ]);
  const result: SearchResult<Dataset> = { count: num(total?.n ?? 0), results: await datasets(rows) };
  if (query.facets)
    result.facets = await facetCounts(s, query, `SELECT p.id FROM packages p WHERE ${clause}`, params);
  return result;
}
