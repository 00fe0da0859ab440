// A dataset endpoint's SPARQL 1.1 Service Description (https://www.w3.org/TR/sparql11-service-description/),
// what the endpoint answers a GET without a query: the endpoint, the languages and result
// formats it speaks, that its default graph is the union of its named graphs, and those graphs.
import { DataFactory, type Quad } from 'n3';

const { namedNode, blankNode, quad } = DataFactory;

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const FORMATS = 'http://www.w3.org/ns/formats/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** The result formats of lib/triplestore/results.ts, by their W3C format IRIs. */
const RESULT_FORMATS = [
  'SPARQL_Results_JSON',
  'SPARQL_Results_XML',
  'SPARQL_Results_CSV',
  'SPARQL_Results_TSV',
  'Turtle',
  'N-Triples',
  'JSON-LD',
  'RDF_XML',
];

export const SD_PREFIXES = { sd: SD, formats: FORMATS };

/** The description of the endpoint at `endpoint` whose dataset holds `graphs`. */
export function serviceDescription(endpoint: string, graphs: readonly string[]): Quad[] {
  const sd = (local: string) => namedNode(`${SD}${local}`);
  const a = namedNode(RDF_TYPE);
  const service = blankNode('service');
  const dataset = blankNode('dataset');
  const defaultGraph = blankNode('defaultGraph');
  const quads: Quad[] = [
    quad(service, a, sd('Service')),
    quad(service, sd('endpoint'), namedNode(endpoint)),
    quad(service, sd('supportedLanguage'), sd('SPARQL11Query')),
    quad(service, sd('supportedLanguage'), sd('SPARQL11Update')),
    quad(service, sd('feature'), sd('UnionDefaultGraph')),
    ...RESULT_FORMATS.map((f) => quad(service, sd('resultFormat'), namedNode(`${FORMATS}${f}`))),
    quad(service, sd('defaultDataset'), dataset),
    quad(dataset, a, sd('Dataset')),
    quad(dataset, sd('defaultGraph'), defaultGraph),
    quad(defaultGraph, a, sd('Graph')),
  ];
  graphs.forEach((graph, i) => {
    const named = blankNode(`graph${i}`);
    quads.push(
      quad(dataset, sd('namedGraph'), named),
      quad(named, a, sd('NamedGraph')),
      quad(named, sd('name'), namedNode(graph)),
    );
  });
  return quads;
}
