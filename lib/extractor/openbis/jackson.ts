// openBIS's v3 JSON is Jackson's: every DTO carries `@type` (its Java class) and `@id` (a
// number unique within one answer), and a later occurrence of the same DTO may be sent as that
// bare number. Decoding puts the objects back; encoding (used by the test double) writes them
// so, the same object twice becoming a back-reference.
import { isObject as isJsonObject } from '../../json.ts';

/** Keys whose value is a DTO or a list of DTOs, so that a bare number there is a back-reference. */
const REFERENCE_KEYS: ReadonlySet<string> = new Set([
  'permId',
  'identifier',
  'id',
  'dataSetId',
  'dataSetPermId',
  'dataStore',
  'dataSet',
  'dataSets',
  'registrator',
  'modifier',
  'owner',
  'leader',
  'person',
  'space',
  'spaces',
  'project',
  'projects',
  'experiment',
  'experiments',
  'sample',
  'samples',
  'parents',
  'children',
  'container',
  'containers',
  'components',
  'tags',
  'type',
  'physicalData',
  'linkedData',
  'attachments',
  'roleAssignments',
  'authorizationGroup',
  'vocabulary',
  'materialType',
  'sampleType',
  'propertyType',
  'propertyAssignments',
  'semanticAnnotations',
  'entityType',
  'objects',
  'files',
]);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> => isJsonObject<Json>(value);

/**
 * Replaces back-references (a bare `@id` number under a DTO-valued key) with the object they
 * name. Objects are shared, not copied, so one person as registrator and modifier is one value.
 * A number naming no earlier object is left as it is.
 */
export function decodeJackson(value: Json): Json {
  const byId = new Map<number, Json>();
  const walk = (node: Json, referenceSlot: boolean): Json => {
    if (typeof node === 'number' && referenceSlot) return byId.get(node) ?? node;
    if (Array.isArray(node)) return node.map((item) => walk(item, referenceSlot));
    if (!isObject(node)) return node;
    const id = node['@id'];
    if (typeof id === 'number') {
      // A full object met again (Jackson repeats it across separately fetched parts) is the first one.
      const seen = byId.get(id);
      if (seen !== undefined && isObject(seen) && seen['@type'] === node['@type']) return seen;
      byId.set(id, node);
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '@id' || key === '@type') continue;
      node[key] = walk(child, REFERENCE_KEYS.has(key));
    }
    return node;
  };
  return walk(value, false);
}

/**
 * Writes DTOs as Jackson does: numbered `@id`s from 1, and an object met a second time (the
 * same JavaScript object) as its number, where the key holds DTOs.
 */
export function encodeJackson(value: Json): Json {
  const ids = new Map<object, number>();
  const open = new Set<object>();
  const walk = (node: Json, referenceSlot: boolean): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, referenceSlot));
    if (!isObject(node)) return node;
    const typed = typeof node['@type'] === 'string';
    const known = ids.get(node);
    // Inside itself (a cycle) an object can only be a number, whatever the key.
    if (typed && known !== undefined && (referenceSlot || open.has(node))) return known;
    const out: Record<string, Json> = {};
    if (typed) {
      const id = ids.size + 1;
      ids.set(node, id);
      out['@type'] = node['@type'] ?? null;
      out['@id'] = id;
    }
    open.add(node);
    for (const [key, child] of Object.entries(node)) {
      if (key === '@id' || key === '@type') continue;
      out[key] = walk(child, REFERENCE_KEYS.has(key));
    }
    open.delete(node);
    return out;
  };
  return walk(value, false);
}
