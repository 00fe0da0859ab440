// POST /api/mapping: a descriptor, a template and a `map` → a YARRRML mapping, the same YAML
// data as MapToMethod 1.1.5 writes (key order included; byte layout is js-yaml's).
import yaml from 'js-yaml';
import { malformed, invalid } from '../process/errors.ts';
import type { RdfDocument } from './document.ts';
import { baseNamespace, checkTypesNotCut, listEntities, readTypes } from './entities.ts';
import { expandIri } from './iri.ts';
import { jsonSources } from './iterator.ts';
import { readMap, resolveEntries, type ResolvedEntry } from './resolve.ts';
import {
  DEFAULT_DATA_TYPES,
  DEFAULT_PREDICATE,
  DEFAULT_TEMPLATE_TYPES,
  MAPPING_BASE,
  MAPPING_PREFIXES,
  OWL_NAMED_INDIVIDUAL,
} from './vocab.ts';

/** The body of POST /api/mapping (spec "Mapping generation service"), as received. */
export interface MappingRequest {
  data_url?: unknown;
  template_url?: unknown;
  map?: unknown;
  predicate?: unknown;
  use_template_rowwise?: unknown;
  data_types?: unknown;
  template_types?: unknown;
}

/** The checked request fields that do not need the documents. */
export interface MappingOptions {
  entries: [string, string][];
  predicate: string;
  rowwise: boolean;
  dataTypes: string[];
  templateTypes: string[];
}

export interface GeneratedMapping {
  /** The YARRRML document as data. */
  document: Record<string, unknown>;
  /** The same as YAML text. */
  yaml: string;
  /** MapToMethod's download name, e.g. `example-map.yaml`. */
  filename: string;
  entries: ResolvedEntry[];
}

function readRowwise(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  throw invalid('use_template_rowwise: must be true or false', 'use_template_rowwise');
}

function readPredicate(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid('predicate: must be an IRI string', 'predicate');
  }
  const predicate = expandIri(value.trim(), 'predicate');
  // The YARRRML parser takes any other scheme (`urn:x`) for a prefix it does not know.
  if (!/^https?:\/\//.test(predicate)) {
    throw malformed(
      `predicate: ${predicate} is not an http(s) IRI, which the YARRRML parser needs`,
      'predicate',
    );
  }
  return predicate;
}

/** Checks the fields that need no document; throws the 4xx naming the first bad field. */
export function readMappingOptions(request: MappingRequest): MappingOptions {
  return {
    entries: readMap(request.map),
    predicate: readPredicate(request.predicate ?? DEFAULT_PREDICATE),
    rowwise: readRowwise(request.use_template_rowwise),
    dataTypes: readTypes(request.data_types, 'data_types', DEFAULT_DATA_TYPES),
    templateTypes: readTypes(request.template_types, 'template_types', DEFAULT_TEMPLATE_TYPES),
  };
}

/** `<last path segment without .ext and without its last -suffix>-map.yaml`, as the original names it. */
export function mappingFileName(dataUrl: string): string {
  let segment = '';
  try {
    segment = new URL(dataUrl).pathname.split('/').pop() ?? '';
    segment = decodeURIComponent(segment);
  } catch {
    segment = dataUrl.split(/[?#]/)[0]?.split('/').pop() ?? '';
  }
  const stem = segment.replace(/\.[^.]*$/, '').replace(/-[^-]*$/, '');
  return `${stem || 'data'}-map.yaml`;
}

// The YARRRML parser reads a constant with a `:` as prefix:name (an error, or another IRI when
// the prefix exists) unless the colon is written `\:`; it leaves text holding `http://`,
// `https://` or `file://` alone. The original wrote labels as they are, so `Zeit [hh:mm]` broke.
const LEFT_ALONE = /https?:\/\/|file:\/\//;

/** `text` as a YARRRML constant that the parser turns back into exactly `text`. */
export function yarrrmlConstant(text: string): string {
  return LEFT_ALONE.test(text) ? text : text.replaceAll(':', '\\:');
}

/**
 * A text the parser reads as a template (`$(…)`, backslashes) cannot be matched as it is: its
 * rule would never fire. Such entries are named rather than turned into dead rules.
 */
function checkConstants(entries: ResolvedEntry[]): void {
  const bad = entries.filter((entry) => entry.text.includes('$(') || entry.text.includes('\\'));
  if (bad.length === 0) return;
  const listed = bad.map((entry) => `${entry.entity} (${JSON.stringify(entry.text)})`).join(', ');
  throw invalid(
    `map: the ${bad[0]!.property} of ${listed} holds "$(" or a backslash, which a YARRRML condition cannot compare literally`,
    'map',
  );
}

function ruleNames(entries: ResolvedEntry[]): string[] {
  // Two entities mapped to one individual (possible in the spec's orientation) need two rules.
  const used = new Map<string, number>();
  return entries.map((entry) => {
    const n = (used.get(entry.individual) ?? 0) + 1;
    used.set(entry.individual, n);
    return n === 1 ? entry.individual : `${entry.individual}_${n}`;
  });
}

/** Builds the mapping from the two parsed documents. */
export function generateMapping(
  options: MappingOptions,
  data: RdfDocument,
  template: RdfDocument,
): GeneratedMapping {
  checkTypesNotCut(options.dataTypes, data, 'data_types');
  checkTypesNotCut(options.templateTypes, template, 'template_types');
  const dataEntities = listEntities(data, options.dataTypes);
  if (Object.keys(dataEntities.entities).length === 0) {
    throw malformed(
      `data_url: the document has no entities of the types ${options.dataTypes.join(', ')} (no columns or annotations to map)`,
      'data_url',
    );
  }
  const slotTypes = [OWL_NAMED_INDIVIDUAL, ...options.templateTypes];
  const slots = listEntities(template, slotTypes);
  if (Object.keys(slots.entities).length === 0) {
    throw malformed(
      `template_url: the template has no owl:NamedIndividual (nor entity of ${options.templateTypes.join(', ')}) to map onto`,
      'template_url',
    );
  }
  const resolved = resolveEntries(options.entries, dataEntities, slots);
  checkConstants(resolved);

  // Rules are grouped by the property they match on, groups in order of first use (as the original).
  const properties = [...new Set(resolved.map((entry) => entry.property))];
  const ordered = properties.flatMap((property) => resolved.filter((entry) => entry.property === property));
  const sourceOf = jsonSources(data.text, properties, 'data_url');

  const templateBase = baseNamespace(template);
  // The converter rebases the template's `base` or empty-prefix namespace onto <template_url>/
  // (research seed-services §3, step 10), so individuals there are `template:<name>`, even when
  // the template is served from another place than its IRIs name; others keep their full IRI.
  const ownNamespaces = [templateBase, template.prefixes['base'], template.prefixes['']].filter(
    (ns): ns is string => ns !== undefined,
  );
  const prefixes = Object.fromEntries(
    Object.entries({ ...MAPPING_PREFIXES, data: dataEntities.base_namespace, template: templateBase }).sort(
      ([a], [b]) => (a < b ? -1 : a > b ? 1 : 0),
    ),
  );
  const sources = Object.fromEntries(
    properties.map((property) => {
      const source = sourceOf.get(property)!;
      return [source.name, { access: data.url, iterator: source.iterator, referenceFormulation: 'jsonpath' }];
    }),
  );
  const objectOf = (entry: ResolvedEntry) =>
    ownNamespaces.some((ns) => entry.individualIri === `${ns}${entry.individual}`)
      ? `template:${entry.individual}~iri`
      : `${entry.individualIri}~iri`;
  // As for the predicate: the parser reads any IRI but an http(s) one as prefix:name.
  const unwritable = ordered.filter((entry) => !/^(template:|https?:\/\/)/.test(objectOf(entry)));
  if (unwritable.length > 0) {
    throw invalid(
      `map: the template individual ${unwritable.map((e) => e.individualIri).join(', ')} lies outside the template's namespace and has no http(s) IRI, which the YARRRML parser needs`,
      'map',
    );
  }
  const names = ruleNames(ordered);
  const mappings = Object.fromEntries(
    ordered.map((entry, i) => {
      const object = objectOf(entry);
      return [
        names[i]!,
        {
          sources: [sourceOf.get(entry.property)!.name],
          s: '$(@id)',
          condition: {
            function: 'equal',
            parameters: [
              ['str1', `$(${entry.property})`],
              ['str2', yarrrmlConstant(entry.text)],
            ],
          },
          po: [[options.predicate, object]],
        },
      ];
    }),
  );
  const document = {
    prefixes,
    base: MAPPING_BASE,
    sources,
    use_template_rowwise: options.rowwise ? 'true' : 'false',
    mappings,
  };
  return { document, yaml: renderMapping(document), filename: mappingFileName(data.url), entries: ordered };
}

/**
 * Whether some string in `value` needs quoting that js-yaml does not choose by itself: one with
 * whitespace at an edge (Unicode's, not only YAML's), or with a flow indicator, `#` or `\`
 * (js-yaml writes `\:{` plain inside a flow list, which no reader accepts).
 */
function needsQuotes(value: unknown): boolean {
  if (typeof value === 'string') return /^\s|\s$|[[\]{},#\\]/u.test(value);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(needsQuotes);
  return false;
}

/**
 * YAML text. Lists of lists are written in flow style (`- [str1, $(label)]`), as PyYAML wrote
 * them: the block form `- - str1` is what the YARRRML parser's own YAML reader (yamljs) drops.
 * That reader also trims Unicode spaces (U+3000, U+1680, …) off plain scalars, which YAML
 * keeps: when some text needs it (needsQuotes), every string is quoted.
 */
export function renderMapping(document: Record<string, unknown>): string {
  return yaml.dump(document, {
    flowLevel: 4,
    lineWidth: -1,
    noRefs: true,
    sortKeys: false,
    // The rules are where texts sit in flow lists; iterators (`$.notes[*]`) are block scalars.
    forceQuotes: needsQuotes(document.mappings),
  });
}
