// The CKAN package fields beyond name, title and notes, read from a create, update or patch as
// CKAN's default schema validates them: author … license_id as text (e-mails and the URL
// checked), tags as [{name}] or tag_string, extras as [{key, value}]. Each refusal names the field.
import { invalid } from '../../process/errors.ts';
import { METADATA_TEXT, type DatasetMetadata } from '../model.ts';
import { kindOf, list, optional, type Params } from './params.ts';
import { webLink } from './resources.ts';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
/** CKAN's tag_name_validator and tag_length_validator (2 to 100 characters). */
const TAG = /^[\p{L}\p{N}_\-. ]{2,100}$/u;
const MAX_ITEMS = 200;
/** Package fields an extra may not shadow (CKAN: "There is a schema field with the same name"). */
const CORE = new Set([
  'id',
  'name',
  'title',
  'notes',
  'private',
  'groups',
  'resources',
  'tags',
  'extras',
  'state',
  'type',
  ...METADATA_TEXT,
]);

function tagsOf(params: Params): string[] | undefined {
  const given = list(params, 'tags');
  const tagString = optional(params, 'tag_string');
  if (given === undefined && tagString === undefined) return params.tags === undefined ? undefined : [];
  const names =
    given?.map((tag, i) => {
      if (typeof tag === 'string') return tag;
      const t = tag as { name?: unknown; vocabulary_id?: unknown } | null;
      if (typeof t?.name !== 'string')
        throw invalid(`tag ${i + 1}: needs a name (got ${kindOf(tag)})`, 'tags');
      if (t.vocabulary_id != null && t.vocabulary_id !== '') {
        throw invalid('labld keeps free tags only, not tags of a vocabulary', 'tags');
      }
      return t.name;
    }) ?? tagString!.split(',');
  const tags = names.map((n) => n.trim()).filter((n) => n !== '');
  if (tags.length > MAX_ITEMS) throw invalid(`more than ${MAX_ITEMS} tags`, 'tags');
  for (const tag of tags) {
    if (!TAG.test(tag)) {
      throw invalid(
        `Tag "${tag.slice(0, 100)}" must be 2 to 100 characters of letters, digits, spaces and -_.`,
        'tags',
      );
    }
  }
  return [...new Set(tags)].sort();
}

function extrasOf(params: Params): DatasetMetadata['extras'] | undefined {
  const given = list(params, 'extras');
  if (given === undefined) return params.extras === undefined ? undefined : [];
  if (given.length > MAX_ITEMS) throw invalid(`more than ${MAX_ITEMS} extras`, 'extras');
  const seen = new Set<string>();
  const extras = given.flatMap((extra, i) => {
    const e = extra as { key?: unknown; value?: unknown; deleted?: unknown } | null;
    if (typeof e?.key !== 'string' || e.key === '' || e.key.length > 100) {
      throw invalid(`extra ${i + 1}: needs a key of 1 to 100 characters (got ${kindOf(extra)})`, 'extras');
    }
    if (CORE.has(e.key)) throw invalid(`There is a schema field with the same name: ${e.key}`, 'extras');
    if (seen.has(e.key)) throw invalid(`There is a duplicate key: ${e.key}`, 'extras');
    seen.add(e.key);
    // CKAN's form marks an extra to drop with `deleted`.
    if (e.deleted === true || e.deleted === 'on') return [];
    const value = typeof e.value === 'number' ? String(e.value) : e.value;
    if (typeof value !== 'string') throw invalid(`extra ${e.key}: the value must be text`, 'extras');
    return [{ key: e.key, value }];
  });
  return extras.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The metadata fields a create, update or patch gives (only those present). */
export function metadataOf(params: Params): Partial<DatasetMetadata> {
  const given: Partial<DatasetMetadata> = {};
  for (const key of METADATA_TEXT) {
    const value = optional(params, key);
    if (value !== undefined) given[key] = value;
    else if (params[key] === '' || params[key] === null) given[key] = '';
  }
  for (const key of ['author_email', 'maintainer_email'] as const) {
    const email = given[key];
    if (email && !EMAIL.test(email))
      throw invalid(`Email ${JSON.stringify(email.slice(0, 100))} is not a valid format`, key);
  }
  // Shown as a link on the dataset's page.
  if (given.url) webLink(given.url, 'url');
  const tags = tagsOf(params);
  if (tags !== undefined) given.tags = tags;
  const extras = extrasOf(params);
  if (extras !== undefined) given.extras = extras;
  return given;
}
