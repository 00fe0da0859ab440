// Reads a logical source node: where the data is (relative path, legacy string, CSVW table),
// how to read it (reference formulation, iterator, CSV dialect, encoding, null values).
import type { Term } from 'n3';
import { DEFAULT_DIALECT, type CsvDialect } from './csv.ts';
import { mappingError } from './errors.ts';
import { describe, nodeId, type MappingGraph } from './graph.ts';
import type { LogicalSource, ReferenceFormulation, SourceAccess } from './model.ts';
import { readView } from './read-view.ts';
import { CSVW, RDF_TYPE, RML } from './vocab.ts';

const FORMULATIONS: Record<string, ReferenceFormulation> = {
  [`${RML}JSONPath`]: 'jsonpath',
  [`${RML}CSV`]: 'csv',
  [`${RML}XPath`]: 'xpath',
  [`${RML}XPathReferenceFormulation`]: 'xpath',
};

const ENCODINGS: Record<string, string> = { [`${RML}UTF-8`]: 'utf-8', [`${RML}UTF-16`]: 'utf-16le' };

export function readLogicalSource(graph: MappingGraph, id: string, seen = new Set<string>()): LogicalSource {
  if (graph.has(id, `${RML}viewOn`) || graph.has(id, `${RML}field`)) {
    const view = readView(graph, id, seen, readLogicalSource);
    return {
      node: id,
      access: { kind: 'location', location: describe(id) },
      formulation: 'view',
      formulationIri: `${RML}LogicalView`,
      dialect: { ...DEFAULT_DIALECT },
      nullValues: [],
      encoding: 'utf-8',
      key: JSON.stringify(['view', id]),
      lenient: false,
      view,
    };
  }
  const source = graph.one(id, `${RML}source`, 'sources');
  if (!source) throw mappingError(`${describe(id)} (a logical source) has no rml:source`);
  const access = readAccess(graph, source);
  const sourceId = nodeId(source);
  const tableId = graph.objects(sourceId, `${CSVW}url`).length > 0 ? sourceId : undefined;

  const formulationTerm = graph.one(id, `${RML}referenceFormulation`, 'reference formulations');
  // A described formulation: a node typed rml:XPathReferenceFormulation, with namespaces.
  const formulationNode =
    formulationTerm && formulationTerm.termType !== 'Literal' ? nodeId(formulationTerm) : '';
  const formulationType = formulationNode
    ? graph.objects(formulationNode, RDF_TYPE).find((t) => FORMULATIONS[t.value])
    : undefined;
  let formulation: ReferenceFormulation;
  if (formulationType) formulation = FORMULATIONS[formulationType.value]!;
  else if (formulationTerm) formulation = FORMULATIONS[formulationTerm.value] ?? 'unknown';
  else if (tableId) formulation = 'csv';
  else formulation = guessFormulation(access);
  const formulationIri = formulationType?.value ?? formulationTerm?.value ?? formulation;
  const namespaces = formulationNode ? readNamespaces(graph, formulationNode) : undefined;
  if (formulation === 'unknown') {
    throw mappingError(
      `${describe(id)} uses the reference formulation <${formulationIri}>, which is not supported`,
    );
  }
  const iterator = graph.one(id, `${RML}iterator`, 'iterators')?.value;

  const nullValues = [
    ...graph.objects(sourceId, `${RML}null`),
    ...(tableId ? graph.objects(tableId, `${CSVW}null`) : []),
  ].map((t) => t.value);

  const dialect = tableId ? readDialect(graph, tableId) : { ...DEFAULT_DIALECT };
  const encodingTerm =
    graph.objects(sourceId, `${RML}encoding`)[0] ??
    (tableId ? dialectValue(graph, tableId, 'encoding') : undefined);
  const encoding = encodingTerm ? (ENCODINGS[encodingTerm.value] ?? encodingTerm.value) : 'utf-8';

  const compressionTerm = graph.objects(sourceId, `${RML}compression`)[0];
  const compression =
    compressionTerm && compressionTerm.value !== `${RML}none`
      ? compressionTerm.value.replace(RML, '')
      : undefined;

  const where = access.kind === 'path' ? `${access.root}:${access.path}` : access.location;
  const key = JSON.stringify([
    where,
    formulation,
    iterator ?? '',
    dialect,
    nullValues,
    encoding,
    compression,
    namespaces,
  ]);
  return {
    node: id,
    access,
    formulation,
    formulationIri,
    iterator,
    dialect,
    nullValues,
    encoding,
    key,
    lenient: graph.legacy,
    compression,
    ...(namespaces ? { namespaces } : {}),
  };
}

function readNamespaces(graph: MappingGraph, formulationNode: string): Record<string, string> {
  const namespaces: Record<string, string> = {};
  for (const ns of graph.objects(formulationNode, `${RML}namespace`)) {
    const prefix = graph.objects(nodeId(ns), `${RML}namespacePrefix`)[0]?.value;
    const url = graph.objects(nodeId(ns), `${RML}namespaceURL`)[0]?.value;
    if (prefix === undefined || url === undefined)
      throw mappingError(
        `${describe(nodeId(ns))} (a namespace) needs rml:namespacePrefix and rml:namespaceURL`,
      );
    namespaces[prefix] = url;
  }
  return namespaces;
}

function readAccess(graph: MappingGraph, source: Term): SourceAccess {
  if (source.termType === 'Literal') return { kind: 'location', location: source.value };
  const id = nodeId(source);
  const path = graph.objects(id, `${RML}path`)[0] ?? graph.objects(id, `${CSVW}url`)[0];
  if (path) {
    const root = graph.objects(id, `${RML}root`)[0]?.value;
    return {
      kind: 'path',
      path: path.value,
      root: root === `${RML}CurrentWorkingDirectory` ? 'cwd' : 'mapping',
    };
  }
  if (source.termType === 'NamedNode') return { kind: 'location', location: source.value };
  throw mappingError(`${describe(id)} (a source) has no rml:path; only file sources are supported`);
}

function guessFormulation(access: SourceAccess): ReferenceFormulation {
  const name = (access.kind === 'path' ? access.path : access.location).toLowerCase().replace(/[?#].*$/, '');
  if (/\.(csv|tsv)$/.test(name)) return 'csv';
  if (/\.json$/.test(name)) return 'jsonpath';
  if (/\.xml$/.test(name)) return 'xpath';
  return 'unknown';
}

function dialectValue(graph: MappingGraph, tableId: string, name: string): Term | undefined {
  const dialect = graph.objects(tableId, `${CSVW}dialect`)[0];
  return (
    (dialect && graph.objects(nodeId(dialect), `${CSVW}${name}`)[0]) ??
    graph.objects(tableId, `${CSVW}${name}`)[0]
  );
}

function readDialect(graph: MappingGraph, tableId: string): CsvDialect {
  const value = (name: string) => dialectValue(graph, tableId, name)?.value;
  const trim = value('trim');
  return {
    // The YARRRML parser passes `delimiter: '\t'` on as backslash-t; no CSV means that literally.
    delimiter: (value('delimiter') ?? DEFAULT_DIALECT.delimiter).replace(/^\\t$/, '\t'),
    quote: value('quoteChar') ?? DEFAULT_DIALECT.quote,
    commentPrefix: value('commentPrefix'),
    trim: trim === 'true' || trim === 'both' || trim === 'start' || trim === 'end',
    skipBlankRows: value('skipBlankRows') !== 'false',
  };
}
