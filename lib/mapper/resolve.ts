// Which way round a `map` entry is written. The spec says {data entity name: template
// individual IRI}; MapToMethod and every client of it write {template individual name: data
// entity name} (research seed-services D1). Each entry is read the way that resolves, the
// original's way first; an entry that resolves neither way is reported, never dropped (the
// original drops it silently, which is how its own example loses `table-1-Prüfzeit`).
import { malformed, invalid } from '../process/errors.ts';
import type { Entity, EntityList } from './entities.ts';
import { closestNames } from './suggest.ts';

export type Orientation = 'individual→entity' | 'entity→individual';

export interface ResolvedEntry {
  orientation: Orientation;
  /** Template individual: its name (the rule name) and IRI. */
  individual: string;
  individualIri: string;
  /** Data entity: its name and the label or column name a rule matches on. */
  entity: string;
  property: 'label' | 'name';
  text: string;
}

const MAX_LISTED = 100;

const shown = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

/** The `map` of a request as entries; 422 when it is not an object of strings, 400 when empty. */
export function readMap(value: unknown): [string, string][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('map: must be an object of names, e.g. {"SpecimenID": "AktuelleProbe0"}', 'map');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) throw malformed('map: is empty, so there is no rule to generate', 'map');
  for (const [key, name] of entries) {
    if (typeof name !== 'string') throw invalid(`map: the value of ${shown(key)} must be a string`, 'map');
  }
  return entries as [string, string][];
}

/** Looks names up among template individuals: by name, by IRI, or as `template:name`. */
function slotFinder(slots: EntityList): (reference: string) => { name: string; uri: string } | undefined {
  const byIri = new Map<string, string>();
  for (const [name, entity] of Object.entries(slots.entities)) byIri.set(entity.uri, name);
  return (reference) => {
    const name = Object.hasOwn(slots.entities, reference)
      ? reference
      : (byIri.get(reference) ??
        (reference.startsWith('template:') ? reference.slice('template:'.length) : undefined));
    if (name === undefined || !Object.hasOwn(slots.entities, name)) return undefined;
    return { name, uri: slots.entities[name]!.uri };
  };
}

const dataEntity = (data: EntityList, name: string): Entity | undefined =>
  Object.hasOwn(data.entities, name) ? data.entities[name] : undefined;

/** Every entry resolved, in request order; otherwise one 400 listing each unresolved entry. */
export function resolveEntries(
  entries: [string, string][],
  data: EntityList,
  slots: EntityList,
): ResolvedEntry[] {
  const slotOf = slotFinder(slots);
  const dataNames = Object.keys(data.entities);
  const slotNames = Object.keys(slots.entities);
  const didYouMean = (name: string, names: string[], label = 'closest') => {
    const close = closestNames(name, names);
    return close.length > 0 ? ` (${label}: ${close.join(', ')})` : '';
  };
  const resolved: ResolvedEntry[] = [];
  const unresolved: [string, string][] = [];
  for (const [key, value] of entries) {
    const attempts: [Orientation, ReturnType<typeof slotOf>, Entity | undefined, string][] = [
      ['individual→entity', slotOf(key), dataEntity(data, value), value],
      ['entity→individual', slotOf(value), dataEntity(data, key), key],
    ];
    const hit = attempts.find(([, slot, entity]) => slot && entity?.property !== undefined);
    if (hit) {
      const [orientation, slot, entity, name] = hit;
      resolved.push({
        orientation,
        individual: slot!.name,
        individualIri: slot!.uri,
        entity: name,
        property: entity!.property!,
        text: entity!.text ?? '',
      });
      continue;
    }
    unresolved.push([key, value]);
  }
  if (unresolved.length > 0) {
    // Every entry is listed up to a bound that keeps the answer (a bus message) small.
    const listed = unresolved
      .slice(0, MAX_LISTED)
      .map(([key, value]) => `${shown(key)}: ${shown(value)} — ${why(key, value)}`);
    const more = unresolved.length - listed.length;
    throw malformed(
      `map: ${unresolved.length} of ${entries.length} ${entries.length === 1 ? 'entry does' : 'entries do'} not resolve ` +
        `as {template individual: data entity} nor as {data entity: template individual}: ${listed.join('; ')}` +
        (more > 0 ? `; and ${more} more` : ''),
      'map',
    );
  }
  return resolved;

  function why(key: string, value: string): string {
    const unnamed = (name: string) =>
      `data entity ${name} has no rdfs:label or csvw:name for a rule to match on`;
    const keySlot = slotOf(key);
    const valueSlot = slotOf(value);
    const valueEntity = dataEntity(data, value);
    const keyEntity = dataEntity(data, key);
    if (keySlot && valueEntity) return unnamed(value);
    if (valueSlot && keyEntity) return unnamed(key);
    if (keySlot)
      return `${key} is a template individual, but there is no data entity ${value}${didYouMean(value, dataNames)}`;
    if (valueSlot)
      return `${value} is a template individual, but there is no data entity ${key}${didYouMean(key, dataNames)}`;
    if (valueEntity)
      return `${value} is a data entity, but there is no template individual ${key}${didYouMean(key, slotNames)}`;
    if (keyEntity)
      return `${key} is a data entity, but there is no template individual ${value}${didYouMean(value, slotNames)}`;
    return (
      `neither is a template individual or a data entity` +
      didYouMean(key, slotNames, `individuals close to ${key}`) +
      didYouMean(value, dataNames, `entities close to ${value}`)
    );
  }
}
