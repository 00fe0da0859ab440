// Turtle RML mapping → normalized model (`model.ts`). Accepts legacy RML (rr:, semweb rml:,
// ql:, old FnML) and new RML (w3id.org/rml, new FnML) in the same document.
import { mappingError } from './errors.ts';
import { describe, MappingGraph, nodeId } from './graph.ts';
import type {
  ExpressionMap,
  JoinCondition,
  Mapping,
  PredicateObjectMap,
  RefObjectMap,
  SubjectMap,
  TriplesMap,
} from './model.ts';
import { readLogicalSource } from './read-source.ts';
import { TermReader } from './read-terms.ts';
import { FNML, IDLAB_NAMESPACES, RML, RML_LEGACY } from './vocab.ts';

const PARENT_TERM_MAP = `${RML_LEGACY}parentTermMap`;

const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

export interface ParseMappingOptions {
  /** Base IRI for relative IRIs in the Turtle text (defaults to a file URL or `http://example.com/`). */
  baseIri?: string;
}

/** Parses an RML mapping written in Turtle. */
export function parseMapping(turtle: string, options: ParseMappingOptions = {}): Mapping {
  return readRmlMapping(MappingGraph.parse(turtle, options.baseIri ?? 'http://example.com/'));
}

export function readRmlMapping(graph: MappingGraph): Mapping {
  const reader = new TermReader(graph);
  // Old FnML function values look like triples maps (logical source + POMs) but are not.
  const functionValues = new Set(
    graph
      .subjectsWith(`${FNML}functionValue`)
      .flatMap((s) => graph.objects(s, `${FNML}functionValue`).map(nodeId)),
  );
  const candidates = new Set([
    ...graph.subjectsOfType(`${RML}TriplesMap`),
    ...graph.subjectsWith(`${RML}subjectMap`),
    ...graph.subjectsWith(`${RML}subject`),
    ...graph.subjectsWith(`${RML}logicalSource`).filter((s) => !functionValues.has(s)),
  ]);
  const triplesMaps = [...candidates].map((id) => readTriplesMap(graph, reader, id));
  const known = new Set(triplesMaps.map((tm) => tm.node));
  for (const tm of triplesMaps) {
    for (const pom of tm.predicateObjectMaps) {
      for (const rom of pom.refObjectMaps) {
        if (!known.has(rom.parentTriplesMap)) {
          throw mappingError(
            `${describe(rom.node)} refers to ${describe(rom.parentTriplesMap)}, which is no triples map`,
          );
        }
      }
    }
  }
  // Logical views no triples map uses are still checked (cycles are errors, RML-LV).
  for (const view of graph.subjectsOfType(`${RML}LogicalView`)) readLogicalSource(graph, view);
  return { triplesMaps, legacy: graph.legacy, documentBase: graph.documentBase };
}

function readTriplesMap(graph: MappingGraph, reader: TermReader, id: string): TriplesMap {
  const sourceNode = graph.one(id, `${RML}logicalSource`, 'logical sources');
  if (!sourceNode) throw mappingError(`${describe(id)} (a triples map) has no rml:logicalSource`);
  const logicalSource = readLogicalSource(graph, nodeId(sourceNode));

  const subjectMaps = reader.termMaps(id, 'subjectMap', 'subject', 'subject');
  if (subjectMaps.length !== 1) {
    throw mappingError(
      `${describe(id)} (a triples map) has ${subjectMaps.length} subject maps; exactly one is required`,
    );
  }
  const subject = subjectMaps[0]!;
  const subjectMap: SubjectMap = {
    ...subject,
    classes: graph.objects(subject.node, `${RML}class`).map((c) => {
      if (c.termType !== 'NamedNode')
        throw mappingError(`${describe(subject.node)}: rml:class must be an IRI`);
      return c.value;
    }),
    graphMaps: subject.node === id ? [] : reader.termMaps(subject.node, 'graphMap', 'graph', 'graph'),
  };

  const predicateObjectMaps = graph
    .objects(id, `${RML}predicateObjectMap`)
    .map((pom) => readPredicateObjectMap(graph, reader, nodeId(pom)));
  const baseIri = graph.one(id, `${RML}baseIRI`, 'base IRIs')?.value;
  const label = graph.objects(id, RDFS_LABEL)[0]?.value;
  const name = label ?? (id.startsWith('_:') ? id : id.replace(/^.*[#/]/, '') || id);
  const legacy = graph.isLegacyNode(id);
  return { node: id, name, logicalSource, subjectMap, predicateObjectMaps, baseIri, legacy };
}

function readPredicateObjectMap(graph: MappingGraph, reader: TermReader, id: string): PredicateObjectMap {
  const predicateMaps = reader.termMaps(id, 'predicateMap', 'predicate', 'predicate');
  if (predicateMaps.length === 0)
    throw mappingError(`${describe(id)} (a predicate-object map) has no predicate`);
  const objectMaps = [];
  const refObjectMaps: RefObjectMap[] = [];
  for (const objectMap of graph.objects(id, `${RML}objectMap`)) {
    const omId = nodeId(objectMap);
    const parent = graph.one(omId, `${RML}parentTriplesMap`, 'parent triples maps');
    if (parent)
      refObjectMaps.push({
        node: omId,
        parentTriplesMap: nodeId(parent),
        joinConditions: joins(graph, reader, omId),
      });
    else objectMaps.push(reader.termMap(objectMap, 'object'));
  }
  objectMaps.push(...reader.shortcuts(id, 'object', 'object'));
  if (objectMaps.length + refObjectMaps.length === 0) {
    throw mappingError(`${describe(id)} (a predicate-object map) has no object`);
  }
  const graphMaps = reader.termMaps(id, 'graphMap', 'graph', 'graph');
  return { node: id, predicateMaps, objectMaps, refObjectMaps, graphMaps };
}

function joins(graph: MappingGraph, reader: TermReader, id: string): JoinCondition[] {
  return graph.objects(id, `${RML}joinCondition`).map((condition) => {
    const cid = nodeId(condition);
    const fn = graph.one(cid, `${FNML}functionValue`, 'function values');
    if (fn) return functionJoin(graph, reader, nodeId(fn));
    const side = (name: 'child' | 'parent') => {
      const reference = graph.one(cid, `${RML}${name}`, `${name} references`);
      if (reference)
        return { node: cid, expression: { kind: 'reference' as const, reference: reference.value } };
      const map = graph.one(cid, `${RML}${name}Map`, `${name} maps`);
      if (!map) throw mappingError(`${describe(cid)} (a join condition) has no rml:${name}`);
      return reader.termMap(map, 'join');
    };
    return { child: side('child'), parent: side('parent') };
  });
}

const EQUAL = new Set(IDLAB_NAMESPACES.map((ns) => `${ns}equal`));
const CONTAINS = new Set(IDLAB_NAMESPACES.map((ns) => `${ns}listContainsElement`));

/**
 * RMLMapper's function join condition (old FnML with `rml:parentTermMap`): idlab-fn:equal of
 * a child and a parent value, or listContainsElement of a child list and a parent value —
 * both are ordinary (hash) join conditions.
 */
function functionJoin(graph: MappingGraph, reader: TermReader, id: string): JoinCondition {
  let fn: string | undefined;
  const sides: { child?: ExpressionMap; parent?: ExpressionMap } = {};
  for (const pom of graph.objects(id, `${RML}predicateObjectMap`)) {
    const pomId = nodeId(pom);
    const predicate = reader.termMaps(pomId, 'predicateMap', 'predicate', 'predicate')[0]?.expression;
    const objectMap = graph.objects(pomId, `${RML}objectMap`)[0];
    if (predicate?.kind !== 'constant' || !objectMap) continue;
    const objectId = nodeId(objectMap);
    if (/[#/]executes$/.test(predicate.term.value)) {
      fn = graph.objects(objectId, `${RML}constant`)[0]?.value;
      continue;
    }
    const parent = graph.objects(objectId, PARENT_TERM_MAP)[0];
    if (parent) sides.parent = reader.termMap(parent, 'join');
    else sides.child = reader.termMap(objectMap, 'join');
  }
  if (!fn || !(EQUAL.has(fn) || CONTAINS.has(fn)) || !sides.child || !sides.parent) {
    throw mappingError(
      `${describe(id)}: function join conditions are supported for idlab-fn:equal and listContainsElement of a child and a parent value only`,
    );
  }
  return { child: sides.child, parent: sides.parent, childList: CONTAINS.has(fn) };
}
