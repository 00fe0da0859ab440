// What a YARRRML mapping maps, in a few lines for the mapping library's page: the template it
// joins, the sources its rules read, and the classes, predicates and IRIs (the template's
// individuals) its rules produce. Read from the YAML as the converter reads it (mapping.ts);
// values built from the data (`$(…)`) are not IRIs the mapping names and are left out.
import { isObject } from '../json.ts';
import { ruleOf, templatePrefix, type YarrrmlMapping } from './mapping.ts';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

export interface MappingSummary {
  /** The template graph's URL (the `template:` or `method:` prefix without its closing slash). */
  template?: string;
  /** Each declared source: its name and iterator. */
  sources: { name: string; iterator?: string }[];
  /** How many rules the mapping has. */
  rules: number;
  /** Classes its rules give (`a`, rdf:type), predicates they use, IRIs they link to; each once, sorted. */
  classes: string[];
  predicates: string[];
  targets: string[];
}

/** `prefix:local` expanded with the mapping's prefixes, `~iri` dropped; undefined for a data reference. */
function iri(value: unknown, prefixes: Record<string, string>): string | undefined {
  if (typeof value !== 'string' || value.includes('$(')) return undefined;
  const term = value.replace(/~(iri|lang)$/, '');
  if (term === 'a') return RDF_TYPE;
  const colon = term.indexOf(':');
  const namespace = colon > 0 ? prefixes[term.slice(0, colon)] : undefined;
  if (namespace !== undefined) return namespace + term.slice(colon + 1);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(term) ? term : undefined;
}

/** A po entry's predicates and objects: `[p, o]`, `[p, o, datatype]`, or `{p|predicates, o|objects}`. */
function predicateObjects(entry: unknown): { p: unknown[]; o: unknown[] } {
  const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  if (Array.isArray(entry)) return { p: list(entry[0]), o: list(entry[1]) };
  if (!isObject(entry)) return { p: [], o: [] };
  const objects = list(entry.o ?? entry.objects).map((o) => (isObject(o) ? (o.value ?? o.mapping) : o));
  return { p: list(entry.p ?? entry.predicates), o: objects };
}

const sorted = (set: Set<string>) => [...set].sort();

export function mappingSummary(mapping: YarrrmlMapping): MappingSummary {
  const classes = new Set<string>();
  const predicates = new Set<string>();
  const targets = new Set<string>();
  for (const name of mapping.rules) {
    const rule = ruleOf(mapping, name);
    const entries = rule.po ?? rule.predicateobjects;
    for (const entry of Array.isArray(entries) ? entries : []) {
      const { p, o } = predicateObjects(entry);
      const named = p.map((v) => iri(v, mapping.prefixes)).filter((v) => v !== undefined);
      const objects = o.map((v) => iri(v, mapping.prefixes)).filter((v) => v !== undefined);
      for (const predicate of named) {
        if (predicate === RDF_TYPE) objects.forEach((c) => classes.add(c));
        else {
          predicates.add(predicate);
          objects.forEach((t) => targets.add(t));
        }
      }
    }
  }
  const template = templatePrefix(mapping)?.namespace.replace(/\/+$/, '');
  return {
    ...(template ? { template } : {}),
    sources: mapping.sources.map((s) => ({
      name: s.name ?? '(unnamed)',
      ...(s.iterator ? { iterator: s.iterator } : {}),
    })),
    rules: mapping.rules.length,
    classes: sorted(classes),
    predicates: sorted(predicates),
    targets: sorted(targets),
  };
}
