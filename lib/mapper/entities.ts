// What a document offers for mapping (MapToMethod's /api/types and /api/entities): the types
// it uses, and the subjects of chosen types keyed by their local name, with the label or
// column name a mapping rule matches on.
import { malformed, invalid } from '../process/errors.ts';
import type { RdfDocument } from './document.ts';
import { expandIri, localName } from './iri.ts';
import { CSVW_NAME, KNOWN_PREFIXES, RDF_TYPE, RDFS_LABEL } from './vocab.ts';

/** Spec "Entity record"; `property`/`text` only when the subject has an rdfs:label or csvw:name. */
export interface Entity {
  uri: string;
  property?: 'label' | 'name';
  text?: string;
  type: string;
}

export interface EntityList {
  entities: Record<string, Entity>;
  base_namespace: string;
}

/** Every IRI used as an rdf:type object, sorted (blank nodes and literals are not types). */
export function listTypes(document: RdfDocument): string[] {
  const types = new Set<string>();
  for (const q of document.quads) {
    if (q.predicate.value === RDF_TYPE && q.object.termType === 'NamedNode') types.add(q.object.value);
  }
  return [...types].sort();
}

/** A `base` prefix the document declares, else `<url>/` (MapToMethod's rule). */
export function baseNamespace(document: RdfDocument): string {
  return document.prefixes['base'] ?? `${document.url}/`;
}

const NAMING: Record<string, 'label' | 'name'> = { [RDFS_LABEL]: 'label', [CSVW_NAME]: 'name' };

/**
 * Subjects typed exactly (no subclass reasoning) with one of `types`, in document order. As in
 * the original, the last matching type triple gives `type`, and of two subjects with the same
 * local name the later one is kept.
 */
export function listEntities(document: RdfDocument, types: readonly string[]): EntityList {
  const wanted = new Set(types);
  const typeOf = new Map<string, string>();
  for (const q of document.quads) {
    if (
      q.predicate.value === RDF_TYPE &&
      q.subject.termType === 'NamedNode' &&
      q.object.termType === 'NamedNode' &&
      wanted.has(q.object.value)
    ) {
      typeOf.set(q.subject.value, q.object.value);
    }
  }
  const naming = new Map<string, { property: 'label' | 'name'; text: string }>();
  for (const q of document.quads) {
    const property = NAMING[q.predicate.value];
    if (
      property &&
      q.object.termType === 'Literal' &&
      typeOf.has(q.subject.value) &&
      !naming.has(q.subject.value)
    ) {
      naming.set(q.subject.value, { property, text: q.object.value });
    }
  }
  // A Map, then fromEntries: a name such as `__proto__` stays an ordinary key.
  const entities = new Map<string, Entity>();
  for (const [uri, type] of inTextOrder(document, typeOf)) {
    const named = naming.get(uri);
    entities.set(
      localName(uri),
      named ? { uri, property: named.property, text: named.text, type } : { uri, type },
    );
  }
  return { entities: Object.fromEntries(entities), base_namespace: baseNamespace(document) };
}

/**
 * The entries in the order a reader of the document meets them. Turtle and RDF/XML are parsed
 * in that order already; JSON-LD comes out of jsonld sorted by subject, so there the position
 * of each `@id` in the JSON decides (ids not found keep their place after the others).
 */
function inTextOrder(document: RdfDocument, typeOf: Map<string, string>): [string, string][] {
  const entries = [...typeOf];
  if (document.format !== 'json-ld') return entries;
  const position = new Map<string, number>();
  const expand = (id: string) => {
    const colon = id.indexOf(':');
    const namespace = colon > 0 ? document.prefixes[id.slice(0, colon)] : undefined;
    return namespace !== undefined && !id.startsWith('//', colon + 1) ? namespace + id.slice(colon + 1) : id;
  };
  // Iterative, in key order: JSON may nest deeply.
  const stack: unknown[] = [JSON.parse(document.text)];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const id = (node as Record<string, unknown>)['@id'];
    if (typeof id === 'string' && !position.has(expand(id))) position.set(expand(id), position.size);
    const children = Array.isArray(node) ? node : Object.values(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  const at = (uri: string) => position.get(uri) ?? Number.MAX_SAFE_INTEGER;
  return entries.sort(([a], [b]) => at(a) - at(b));
}

/**
 * The type IRIs a request asks for: a comma-separated string (query) or a list (body); full
 * IRIs or `prefix:name`. Nothing given means `fallback`.
 */
export function readTypes(value: unknown, field: string, fallback: readonly string[]): string[] {
  if (value === undefined || value === null) return [...fallback];
  // A list: a body field, or a repeated query parameter.
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (!items || items.some((item) => typeof item !== 'string')) {
    throw invalid(`${field}: must be a comma-separated string or a list of type IRIs`, field);
  }
  const given = (items as string[]).map((item) => item.trim()).filter((item) => item !== '');
  if (given.length === 0) return [...fallback];
  return given.map((item) => expandIri(item, field, KNOWN_PREFIXES));
}

/**
 * An unencoded `#` starts the URL fragment, which never reaches the server: `…/owl#NamedIndividual`
 * arrives as `…/owl`. When a requested type is no type of the document but cut there, say so
 * instead of answering an empty list.
 */
export function checkTypesNotCut(types: readonly string[], document: RdfDocument, field: string): void {
  const present = listTypes(document);
  for (const type of types) {
    if (type.includes('#') || present.includes(type)) continue;
    const cut = present.filter((t) => t.startsWith(`${type}#`));
    if (cut.length > 0) {
      throw malformed(
        `${field}: ${type} is not a type of the document, but ${cut.slice(0, 3).join(', ')} ${cut.length > 1 ? 'are' : 'is'}: ` +
          `write '#' as %23 in the query string (a bare '#' starts the URL fragment, which is not sent)`,
        field,
      );
    }
  }
}
