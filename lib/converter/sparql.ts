// /api/yarrrmltosparql: a SELECT that reads back, from a graph the mapping produced (the
// engine's output or createrdf's joined graph), the values the mapping put there. The seed's
// branch rebuilt a JSON string from the first root mapping only and was empty for CSVW
// mappings (research §3.10); here every rule gets a UNION branch: its subject, one column per
// referenced value, one per link to another rule's subject. The query is built from the RML
// the parser makes, so every YARRRML shorthand is covered.
import { yarrrmlToMapping, type ExpressionMap, type TermMap, type TriplesMap } from '../rml/index.ts';
import { DomainError, invalid } from '../process/errors.ts';
import { readYarrrmlMapping, templatePrefix, type YarrrmlMapping } from './mapping.ts';
import { RDF_TYPE } from '../rdf/vocab.ts';

const iri = (value: string) =>
  `<${value.replace(/[<>"{}|^`\\\s]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}>`;
const string = (value: string) => JSON.stringify(value);
const variableName = (text: string) =>
  text.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'value';

/** The references an expression reads (`{x}` of templates, `x` of references), for column names. */
function references(map: ExpressionMap | undefined): string[] {
  if (!map) return [];
  const e = map.expression;
  if (e.kind === 'reference') return [e.reference];
  if (e.kind === 'template') return [...e.template.matchAll(/(?<!\\)\{([^}]*)\}/g)].map((m) => m[1]!);
  if (e.kind === 'function') return e.execution.inputs.flatMap((i) => references(i.value));
  return [];
}

/** A filter that keeps the subjects of `tm`: its template's constant start, if it has one. */
function subjectFilter(subject: TermMap, variable: string, base: string | undefined): string | undefined {
  const e = subject.expression;
  if (e.kind !== 'template') return undefined;
  const start = e.template.split(/(?<!\\)\{/)[0]!.replace(/\\([{}\\])/g, '$1');
  if (start === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(start)) return `FILTER(STRSTARTS(STR(${variable}), ${string(start)}))`;
  const absolute = base && /^[a-z][a-z0-9+.-]*:/i.test(base) ? base + start : undefined;
  return absolute
    ? `FILTER(STRSTARTS(STR(${variable}), ${string(absolute)}))`
    : `FILTER(CONTAINS(STR(${variable}), ${string(start)}))`;
}

interface Branch {
  columns: string[];
  lines: string[];
}

function branch(
  tm: TriplesMap,
  variables: Map<string, string>,
  mapping: YarrrmlMapping,
  templates: string[],
): Branch {
  const subject = `?${variables.get(tm.node)!}`;
  const columns = [subject];
  const used = new Set<string>(columns);
  const fresh = (name: string) => {
    let candidate = `?${variableName(`${variables.get(tm.node)}_${name}`)}`;
    for (let i = 2; used.has(candidate); i += 1)
      candidate = `?${variableName(`${variables.get(tm.node)}_${name}`)}_${i}`;
    used.add(candidate);
    return candidate;
  };
  const anchors: string[] = [];
  const optional: string[] = [];
  const predicates: string[] = [];
  for (const cls of tm.subjectMap.classes) anchors.push(`${subject} a ${iri(cls)} .`);
  for (const pom of tm.predicateObjectMaps) {
    for (const pm of pom.predicateMaps) {
      if (pm.expression.kind !== 'constant') continue; // a computed predicate: nothing fixed to ask for
      const p = pm.expression.term.value;
      const predicate = p === RDF_TYPE ? 'a' : iri(p);
      predicates.push(iri(p));
      for (const om of pom.objectMaps) {
        const e = om.expression;
        if (e.kind === 'constant' && e.term.termType === 'iri') {
          const template = templates.find((t) => e.term.value.startsWith(t));
          if (!template) {
            anchors.push(`${subject} ${predicate} ${iri(e.term.value)} .`);
            continue;
          }
          // createrdf writes template IRIs relative to its output (`<#Local>`): match either form.
          const target = fresh('template');
          columns.push(target);
          const local = `#${e.term.value.slice(template.length)}`;
          anchors.push(
            `${subject} ${predicate} ${target} .`,
            `FILTER(${target} = ${iri(e.term.value)} || STRENDS(STR(${target}), ${string(local)}))`,
          );
        } else if (e.kind === 'constant') {
          const constant = fresh('constant');
          anchors.push(
            `${subject} ${predicate} ${constant} .`,
            `FILTER(STR(${constant}) = ${string(e.term.value)})`,
          );
        } else {
          const value = fresh(references(om).join('_') || 'value');
          columns.push(value);
          optional.push(`OPTIONAL { ${subject} ${predicate} ${value} . }`);
        }
      }
      for (const rom of pom.refObjectMaps) {
        const target = variables.get(rom.parentTriplesMap);
        const value = fresh(target ?? 'link');
        columns.push(value);
        optional.push(`OPTIONAL { ${subject} ${predicate} ${value} . }`);
      }
    }
  }
  const lines = [`BIND(${string(tm.name)} AS ?rule)`];
  if (anchors.length === 0) {
    // No constant triple marks the rule's subjects: any of its predicates does.
    const [p, o] = [fresh('predicate'), fresh('object')];
    lines.push(`${subject} ${p} ${o} .`);
    if (predicates.length > 0) lines.push(`FILTER(${p} IN (${[...new Set(predicates)].join(', ')}))`);
  }
  lines.push(...anchors);
  const filter = subjectFilter(tm.subjectMap, subject, mapping.base);
  if (filter) lines.push(filter);
  lines.push(...optional);
  return { columns, lines };
}

/** The SELECT for a YARRRML mapping's text. */
export function yarrrmlToSparql(text: string, field = 'mapping_url'): string {
  const mapping = readYarrrmlMapping(text, field);
  let model;
  try {
    model = yarrrmlToMapping(mapping.document);
  } catch (error) {
    if (error instanceof DomainError) throw new DomainError(error.kind, `${field}: ${error.message}`, field);
    throw error;
  }
  if (model.triplesMaps.length === 0) throw invalid(`${field}: the mapping has no rules`, field);
  const variables = new Map<string, string>();
  const taken = new Set<string>();
  for (const tm of model.triplesMaps) {
    let name = variableName(tm.name);
    for (let i = 2; taken.has(name); i += 1) name = `${variableName(tm.name)}_${i}`;
    taken.add(name);
    variables.set(tm.node, name);
  }
  const template = templatePrefix(mapping);
  const templates = template ? [template.namespace] : [];
  const branches = model.triplesMaps.map((tm) => branch(tm, variables, mapping, templates));
  const columns = ['?rule', ...new Set(branches.flatMap((b) => b.columns))];
  const body = branches
    .map((b) => `  {\n${b.lines.map((l) => `    ${l}`).join('\n')}\n  }`)
    .join('\n  UNION\n');
  return [
    '# The values the mapping put into its output graph (the RML result or the createrdf joined',
    '# graph): one row per subject of each rule, ?rule naming the rule.',
    `SELECT DISTINCT ${columns.join(' ')}`,
    'WHERE {',
    body,
    '}',
    'ORDER BY ?rule',
    '',
  ].join('\n');
}
