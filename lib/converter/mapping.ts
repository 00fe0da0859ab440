// A YARRRML mapping as the converter reads it (research seed-services §3.4 steps 1–4): the
// YAML document, its rules, sources and prefixes, the data_url override and the template the
// mapping joins. The RML engine does the translation and execution; this module only reads
// what the converter's own steps need from the YAML.
import { Parser } from 'n3';
import { DomainError, invalid } from '../process/errors.ts';
import { parseMapping, readYarrrml, type Mapping } from '../rml/index.ts';
import { isObject } from '../json.ts';

/** The iterator the original refuses: it matches every value at every depth (ambiguous). */
export const UNSUPPORTED_ITERATOR = '$..[*]';

/** How many nodes the YAML may expand to once aliases are followed (a billion-laughs guard). */
export const MAX_EXPANDED_NODES = 200_000;

export interface SourceDeclaration {
  name: string | undefined;
  access: string | undefined;
  iterator: string | undefined;
}

export interface YarrrmlMapping {
  /** The YAML text as fetched (after the data_url override). */
  text: string;
  document: Record<string, unknown>;
  /** Rule names: the keys under `mappings`, in order. */
  rules: string[];
  prefixes: Record<string, string>;
  /** The declared sources (`sources:` block), in order. */
  sources: SourceDeclaration[];
  base: string | undefined;
  /** The mapping was RML Turtle (not YARRRML): its model, run as it is. */
  rml?: Mapping;
}

/**
 * Counts the nodes of `value` as a JSON serialisation would write them, following shared
 * references (YAML aliases) each time they occur; stops past `limit`. js-yaml keeps an alias
 * as a reference to one object, so a small file can stand for an exponential tree that every
 * later JSON.stringify would write out.
 */
function expandedSize(value: unknown, limit: number): number {
  const sizes = new Map<object, number>();
  const visit = (node: unknown, depth: number): number => {
    if (typeof node !== 'object' || node === null) return 1;
    if (depth > 1000) return Infinity;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    sizes.set(node, Infinity); // a cycle (`&a [*a]`) is infinite
    let total = 1;
    for (const child of Object.values(node)) {
      total += visit(child, depth + 1);
      if (total > limit) break;
    }
    sizes.set(node, total);
    return total;
  };
  return visit(value, 0);
}

function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/** Reads `access` and `iterator` from a YARRRML source: an object, or `file~jsonpath` with an iterator. */
export function sourceDeclaration(name: string | undefined, value: unknown): SourceDeclaration {
  if (isObject(value)) {
    return {
      name,
      access: typeof value.access === 'string' ? value.access : undefined,
      iterator: typeof value.iterator === 'string' ? value.iterator : undefined,
    };
  }
  if (Array.isArray(value)) {
    const [access, iterator] = value as unknown[];
    return {
      name,
      access: typeof access === 'string' ? access.replace(/~[a-z]+$/i, '') : undefined,
      iterator: typeof iterator === 'string' ? iterator : undefined,
    };
  }
  if (typeof value === 'string') return { name, access: value.replace(/~[a-z]+$/i, ''), iterator: undefined };
  return { name, access: undefined, iterator: undefined };
}

/** Parses YARRRML text into the converter's view; non-YAML, non-YARRRML and alias bombs are 422. */
export function readYarrrmlMapping(text: string, field = 'mapping_url'): YarrrmlMapping {
  let document: Record<string, unknown>;
  try {
    document = readYarrrml(text, field);
  } catch (error) {
    if (error instanceof DomainError && error.field === field) throw error;
    throw invalid(`${field}: ${(error as Error).message}`, field);
  }
  if (expandedSize(document, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES) {
    throw invalid(
      `${field}: the YAML expands to more than ${MAX_EXPANDED_NODES} nodes through its aliases; refused`,
      field,
    );
  }
  const mappings = document.mappings ?? document.mapping;
  if (!isObject(mappings) || Object.keys(mappings).length === 0) {
    throw invalid(`${field}: not a YARRRML mapping: it has no "mappings" block with rules`, field);
  }
  const sources = isObject(document.sources)
    ? Object.entries(document.sources).map(([name, value]) => sourceDeclaration(name, value))
    : [];
  return {
    text,
    document,
    rules: Object.keys(mappings),
    prefixes: stringMap(document.prefixes),
    sources,
    base: typeof document.base === 'string' ? document.base : undefined,
  };
}

/** Whether the text is Turtle rather than YAML: RML mappings start with prefixes or a base. */
function looksLikeTurtle(text: string): boolean {
  return /^\s*(?:#[^\n]*\n\s*)*(?:@prefix|@base|PREFIX|BASE)\b/i.test(text);
}

/**
 * createrdf's mapping: YARRRML, or RML Turtle (the engine reads RML already). An RML mapping
 * gets the same view: rules are its triples maps, sources their string `rml:source`s,
 * prefixes and base the document's.
 */
export function readConverterMapping(text: string, field = 'mapping_url'): YarrrmlMapping {
  if (!looksLikeTurtle(text)) return readYarrrmlMapping(text, field);
  let rml: Mapping;
  const prefixes: Record<string, string> = {};
  try {
    rml = parseMapping(text);
    new Parser().parse(text, null, (prefix, iri) => (prefixes[prefix] = iri.value));
  } catch (error) {
    throw invalid(`${field}: ${(error as Error).message}`, field);
  }
  if (rml.triplesMaps.length === 0) throw invalid(`${field}: the RML mapping has no triples maps`, field);
  const rules = [...new Set(rml.triplesMaps.map((tm) => tm.name))];
  const sources = rml.triplesMaps.map((tm) => ({
    name: tm.name,
    access: tm.logicalSource.access.kind === 'location' ? tm.logicalSource.access.location : undefined,
    iterator: tm.logicalSource.iterator,
  }));
  return {
    text,
    document: { mappings: Object.fromEntries(rules.map((rule) => [rule, {}])) },
    rules,
    prefixes,
    sources,
    base: rml.documentBase,
    rml,
  };
}

export function ruleOf(mapping: YarrrmlMapping, name: string): Record<string, unknown> {
  const rules = (mapping.document.mappings ?? mapping.document.mapping) as Record<string, unknown>;
  const rule = rules[name];
  return isObject(rule) ? rule : {};
}

/** Every iterator the mapping uses: declared sources, and the strings of inline ones in rules. */
function iterators(mapping: YarrrmlMapping): string[] {
  const found = mapping.sources.map((s) => s.iterator);
  const walk = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) found.push(sourceDeclaration(undefined, value).iterator);
  };
  for (const name of mapping.rules) {
    const rule = ruleOf(mapping, name);
    walk(rule.sources ?? rule.source);
  }
  return found.filter((i): i is string => i !== undefined);
}

export function hasUnsupportedIterator(mapping: YarrrmlMapping): boolean {
  return iterators(mapping).some((i) => i.trim() === UNSUPPORTED_ITERATOR);
}

/** createrdf refuses `$..[*]` (research §3.4 step 3); checkmapping counts it as all skipped. */
export function refuseUnsupportedIterator(mapping: YarrrmlMapping, field = 'mapping_url'): void {
  if (hasUnsupportedIterator(mapping)) {
    throw invalid(
      `${field}: the iterator ${UNSUPPORTED_ITERATOR} is not supported: it matches every value at every ` +
        'depth of the document, so a rule cannot tell records from their fields; name the array to ' +
        'iterate (e.g. $.tables[*].tableSchema.columns[*] or $.notes[*])',
      field,
    );
  }
}

/** Whether the mapping asks for the template block once per data row (the mapper writes a string). */
export function isRowwise(mapping: YarrrmlMapping): boolean {
  const value = mapping.document.use_template_rowwise;
  return value === true || value === 'true';
}

/** The first declared source's access: the data the mapping was written for. */
export function firstAccess(mapping: YarrrmlMapping): string | undefined {
  return mapping.sources.find((s) => s.access)?.access;
}

const strip = (url: string) => url.replace(/\/+$/, '');

/**
 * The original's data_url override (research §3.4 step 4): every textual occurrence of the
 * first source's access is replaced by data_url, and `base` becomes `<data_url>#`. Text, not
 * structure, because mappings repeat the URL in prefixes (`data:`) and several sources.
 */
export function overrideData(mapping: YarrrmlMapping, dataUrl: string): YarrrmlMapping {
  const access = firstAccess(mapping);
  const text = access ? mapping.text.split(strip(access)).join(strip(dataUrl)) : mapping.text;
  if (mapping.rml) return readConverterMapping(text);
  const replaced = readYarrrmlMapping(text);
  replaced.document.base = `${strip(dataUrl)}#`;
  replaced.base = replaced.document.base as string;
  return replaced;
}

/** The template graph the mapping joins: the `template:` prefix, or `method:` (spec). */
export function templatePrefix(mapping: YarrrmlMapping): { name: string; namespace: string } | undefined {
  for (const name of ['template', 'method']) {
    const namespace = mapping.prefixes[name];
    if (namespace) return { name, namespace };
  }
  return undefined;
}
