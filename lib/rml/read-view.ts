// Reads RML-LV logical views: the source viewed, its fields (expression fields and iterable
// fields with nested fields) and its joins with other views. Cycles and name collisions are
// mapping errors.
import { mappingError } from './errors.ts';
import { describe, nodeId, type MappingGraph } from './graph.ts';
import type { Expression, LogicalSource, ViewField, ViewJoin } from './model.ts';
import { RDF_TYPE, RML } from './vocab.ts';

type ReadSource = (graph: MappingGraph, id: string, seen: Set<string>) => LogicalSource;

function expressionOf(graph: MappingGraph, id: string, what: string): Expression | undefined {
  const one = (p: string) => graph.one(id, `${RML}${p}`, p);
  const reference = one('reference');
  if (reference) return { kind: 'reference', reference: reference.value };
  const template = one('template');
  if (template) return { kind: 'template', template: template.value };
  const constant = one('constant');
  if (constant) return { kind: 'constant', term: { termType: 'literal', value: constant.value } };
  if (what)
    throw mappingError(`${describe(id)} (${what}) has no rml:reference, rml:template or rml:constant`);
  return undefined;
}

function readFields(
  graph: MappingGraph,
  owner: string,
  prefix: string,
  names: Set<string>,
  within: ReadonlySet<string> = new Set(),
): ViewField[] {
  return graph.objects(owner, `${RML}field`).map((term) => {
    const id = nodeId(term);
    if (within.has(id)) throw mappingError(`${describe(id)} is part of a cycle of nested fields`);
    const fieldName = graph.one(id, `${RML}fieldName`, 'field names')?.value;
    if (fieldName === undefined) throw mappingError(`${describe(id)} (a field) has no rml:fieldName`);
    const name = `${prefix}${fieldName}`;
    if (names.has(name)) throw mappingError(`The logical view has two fields named "${name}"`);
    names.add(name);
    const iterator = graph.one(id, `${RML}iterator`, 'iterators')?.value;
    const formulation = graph.one(id, `${RML}referenceFormulation`, 'reference formulations')?.value;
    if (formulation && formulation !== `${RML}JSONPath` && formulation !== `${RML}CSV`)
      throw mappingError(`${describe(id)}: iterable fields read JSONPath or CSV, not <${formulation}>`);
    const fields = readFields(graph, id, `${name}.`, names, new Set([...within, id]));
    const typed = graph.objects(id, RDF_TYPE).some((t) => t.value === `${RML}IterableField`);
    if (iterator !== undefined || formulation !== undefined || typed) {
      const csv = formulation === `${RML}CSV`;
      return { name, iterable: { formulation: csv ? 'csv' : 'jsonpath', iterator }, fields };
    }
    return { name, expression: expressionOf(graph, id, 'an expression field'), fields };
  });
}

export function readView(graph: MappingGraph, id: string, seen: Set<string>, readSource: ReadSource) {
  if (seen.has(id)) throw mappingError(`${describe(id)} is part of a cycle of logical views`);
  const within = new Set([...seen, id]);
  const on = graph.one(id, `${RML}viewOn`, 'viewOn');
  if (!on) throw mappingError(`${describe(id)} (a logical view) has no rml:viewOn`);
  const names = new Set<string>();
  const fields = readFields(graph, id, '', names);
  const joins: ViewJoin[] = [];
  for (const [property, inner] of [
    ['leftJoin', false],
    ['innerJoin', true],
  ] as const) {
    for (const term of graph.objects(id, `${RML}${property}`)) {
      const join = nodeId(term);
      const parent = graph.one(join, `${RML}parentLogicalView`, 'parent logical views');
      if (!parent) throw mappingError(`${describe(join)} (a join) has no rml:parentLogicalView`);
      const conditions = graph.objects(join, `${RML}joinCondition`).map((c) => {
        const condition = nodeId(c);
        const child = graph.one(condition, `${RML}child`, 'child')?.value;
        const parentRef = graph.one(condition, `${RML}parent`, 'parent')?.value;
        const childMap = graph.one(condition, `${RML}childMap`, 'childMap');
        const parentMap = graph.one(condition, `${RML}parentMap`, 'parentMap');
        const side = (ref: string | undefined, map: typeof childMap, what: string): Expression => {
          if (ref !== undefined) return { kind: 'reference', reference: ref };
          if (map) return expressionOf(graph, nodeId(map), what)!;
          throw mappingError(`${describe(condition)} (a join condition) has no ${what}`);
        };
        return { child: side(child, childMap, 'child'), parent: side(parentRef, parentMap, 'parent') };
      });
      joins.push({
        node: join,
        inner,
        parent: readSource(graph, nodeId(parent), within),
        conditions,
        fields: readFields(graph, join, '', names),
      });
    }
  }
  return { on: readSource(graph, nodeId(on), within), fields, joins };
}
