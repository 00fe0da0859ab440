// POST /api/rdf of the original annotator (CSVToCSVW v1.3.5, research §1.12): the descriptor
// as RDF plus the CSV rows it describes, in the original's shape — one csvw:Row per line, a
// qudt:QuantityValue per numeric cell, an rdf:List of IRIs per anyURI cell, an oa:Annotation
// with a TextualBody otherwise — and the provenance of the conversion. The table structure is
// read from the descriptor's graph, so any RDF format works, and the delimiter may be a real
// character or the original's regex form (`\t`).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { AGENT } from '../annotator/descriptor.ts';
import { ClientError } from '../errors.ts';
import { maxColumns } from '../limits.ts';
import { guessFormat, parse } from '../rdf/index.ts';
import { resolveUrl } from './common.ts';
import { csvEvents } from './csv-reader.ts';
import { DEFAULT_DIALECT, originalDelimiter, type Dialect } from './dialect.ts';
import { CSV_FIELD, METADATA_FIELD, loadResource, resourceText, textChunks, type Loader } from './types.ts';
import { expandTemplate } from './uri-template.ts';
import { CSVW, RDF_NS, RDFS, XSD } from './vocab.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;

const PROV = 'http://www.w3.org/ns/prov#';
const QUDT = 'http://qudt.org/schema/qudt/';
const OA = 'http://www.w3.org/ns/oa#';
const DC11 = 'http://purl.org/dc/elements/1.1/';
const TYPE = namedNode(RDF_NS + 'type');

export interface DescriptorInput {
  metadataUrl: string;
  /** Overrides the CSV location the descriptor gives. */
  csvUrl?: string;
}

export interface DescriptorOptions {
  /** The activity that converts (prov:wasGeneratedBy): the /api/rdf request URL. */
  activityUrl?: string;
  /** prov:generatedAtTime (xsd:dateTime lexical form); default now, in UTC. */
  generatedAt?: string;
  /** The software agent of the activity; default the interface the spec names (CSVToCSVW v1.3.5). */
  agent?: { iri: string; label: string; source: string };
}

/** The agent the annotator's descriptors name (one identity for both endpoints). */
export const ORIGINAL_AGENT = Object.freeze({
  iri: AGENT['@id'],
  label: AGENT['rdfs:label'],
  source: AGENT['prov:hadPrimarySource'],
});

const NUMERIC = new Set(
  [
    'integer',
    'double',
    'decimal',
    'float',
    'long',
    'int',
    'short',
    'byte',
    'nonNegativeInteger',
    'positiveInteger',
    'unsignedLong',
    'unsignedInt',
    'unsignedShort',
    'unsignedByte',
    'nonPositiveInteger',
    'negativeInteger',
  ].map((name) => XSD + name),
);
const INTEGRAL = new Set([...NUMERIC].filter((iri) => !/#(double|decimal|float)$/.test(iri)));

/** Subject → predicate → objects, for reading the descriptor's structure. */
class Graph {
  private readonly index = new Map<string, Map<string, RDF.Term[]>>();

  constructor(quads: RDF.Quad[]) {
    for (const q of quads) {
      const key = q.subject.termType + q.subject.value;
      const bySubject = this.index.get(key) ?? new Map<string, RDF.Term[]>();
      this.index.set(key, bySubject);
      bySubject.set(q.predicate.value, [...(bySubject.get(q.predicate.value) ?? []), q.object]);
    }
  }

  all(subject: RDF.Term, predicate: string): RDF.Term[] {
    return this.index.get(subject.termType + subject.value)?.get(predicate) ?? [];
  }

  one(subject: RDF.Term, predicate: string): RDF.Term | undefined {
    return this.all(subject, predicate)[0];
  }

  list(head: RDF.Term | undefined): RDF.Term[] {
    const items: RDF.Term[] = [];
    for (
      let node = head;
      node && node.value !== RDF_NS + 'nil' && items.length < 100_000;
      node = this.one(node, RDF_NS + 'rest')
    ) {
      const first = this.one(node, RDF_NS + 'first');
      if (!first) break;
      items.push(first);
    }
    return items;
  }
}

interface ColumnInfo {
  iri: RDF.NamedNode | RDF.BlankNode;
  format: string;
  unit: string | undefined;
  aboutUrl: string | undefined;
}

/** The tables of the descriptor: subjects with csvw:url (objects of csvw:table first). */
function findTables(quads: RDF.Quad[]): RDF.Quad_Subject[] {
  const tables: RDF.Quad_Subject[] = [];
  const seen = new Set<string>();
  const add = (term: RDF.Term): void => {
    const key = term.termType + term.value;
    if (seen.has(key) || (term.termType !== 'NamedNode' && term.termType !== 'BlankNode')) return;
    seen.add(key);
    tables.push(term);
  };
  for (const q of quads) if (q.predicate.value === CSVW + 'table') add(q.object);
  for (const q of quads)
    if (q.predicate.value === CSVW + 'url' && !seen.has(q.subject.termType + q.subject.value)) add(q.subject);
  const withUrl = new Set(
    quads.filter((q) => q.predicate.value === CSVW + 'url').map((q) => q.subject.termType + q.subject.value),
  );
  return tables.filter((table) => withUrl.has(table.termType + table.value));
}

function number(term: RDF.Term | undefined, fallback: number): number {
  const value = term ? Number(term.value) : NaN;
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** xsd:double in its canonical form (1.9E2). */
function doubleLexical(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'INF' : '-INF';
  const [mantissa = '0', exponent = '0'] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** A numeric cell as the original reads it (German decimals repaired), or undefined. */
function numericLiteral(text: string, format: string): RDF.Literal | undefined {
  const trimmed = text.trim();
  let value = Number(trimmed);
  if (trimmed === '' || Number.isNaN(value))
    value = Number(trimmed.replace(/\./g, '').replace(/,(?=[^,]*$)/, '.'));
  if (trimmed === '' || Number.isNaN(value)) return undefined;
  if (INTEGRAL.has(format)) {
    return Number.isInteger(value) ? literal(BigInt(value).toString(), namedNode(format)) : undefined;
  }
  const lexical = format === XSD + 'decimal' ? String(value) : doubleLexical(value);
  return literal(lexical, namedNode(format));
}

async function loadDescriptor(url: string, load: Loader): Promise<RDF.Quad[]> {
  const resource = await loadResource(load, url, METADATA_FIELD);
  const text = await resourceText(resource);
  const format = guessFormat({ contentType: resource.contentType, name: url, text });
  return parse(text, format, { baseIRI: url, field: METADATA_FIELD });
}

/**
 * The descriptor at `metadataUrl` plus the rows of the CSV it describes, as the original's
 * /api/rdf returns them. Errors are ClientErrors naming metadata_url or csv_url.
 */
export async function descriptorToRdf(
  input: DescriptorInput,
  load: Loader,
  options: DescriptorOptions = {},
): Promise<RDF.Quad[]> {
  const descriptor = await loadDescriptor(input.metadataUrl, load);
  const out: RDF.Quad[] = [...descriptor];
  const emit = (s: RDF.Quad_Subject, p: string, o: RDF.Quad_Object): void =>
    void out.push(quad(s, namedNode(p), o));
  const graph = new Graph(descriptor);
  const tables = findTables(descriptor);
  if (tables.length === 0) {
    throw new ClientError(
      422,
      `${METADATA_FIELD}: metadata contains no table — the source CSV may have been classified as metadata-only`,
      METADATA_FIELD,
    );
  }
  const agent = options.agent ?? ORIGINAL_AGENT;
  const activity = namedNode(options.activityUrl ?? 'urn:labld:activity:api-rdf');
  const metadataNode = namedNode(input.metadataUrl);
  emit(activity, TYPE.value, namedNode(PROV + 'Activity'));
  emit(activity, PROV + 'wasAssociatedWith', namedNode(agent.iri));
  emit(namedNode(agent.iri), TYPE.value, namedNode(PROV + 'SoftwareAgent'));
  emit(namedNode(agent.iri), RDFS + 'label', literal(agent.label));
  emit(namedNode(agent.iri), PROV + 'hadPrimarySource', namedNode(agent.source));
  emit(metadataNode, TYPE.value, namedNode(PROV + 'Usage'));
  emit(metadataNode, PROV + 'hadRole', namedNode(CSVW + 'tabularMetadata'));
  const generatedAt = literal(options.generatedAt ?? new Date().toISOString(), namedNode(XSD + 'dateTime'));

  for (const table of tables) {
    const tableUrl = graph.one(table, CSVW + 'url')?.value ?? '';
    const csvUrl = input.csvUrl ?? resolveUrl(tableUrl, input.metadataUrl);
    emit(table, TYPE.value, namedNode(CSVW + 'Table'));
    emit(table, PROV + 'wasGeneratedBy', activity);
    emit(table, PROV + 'generatedAtTime', generatedAt);
    emit(table, PROV + 'qualifiedUsage', namedNode(csvUrl));
    emit(table, PROV + 'qualifiedUsage', metadataNode);
    emit(namedNode(csvUrl), TYPE.value, namedNode(PROV + 'Usage'));
    emit(namedNode(csvUrl), PROV + 'hadRole', namedNode(CSVW + 'csvEncodedTabularData'));
    await emitRows(table, csvUrl, graph, load, emit);
  }
  return out;
}

/** The CSV a /api/rdf graph read first (its prov:Usage in the role csvEncodedTabularData). */
export function convertedCsvUrl(quads: readonly RDF.Quad[]): string | undefined {
  return quads.find(
    (q) => q.predicate.value === PROV + 'hadRole' && q.object.value === CSVW + 'csvEncodedTabularData',
  )?.subject.value;
}

function columnsOf(schema: RDF.Term | undefined, graph: Graph): ColumnInfo[] {
  if (!schema) return [];
  return graph
    .list(graph.one(schema, CSVW + 'column'))
    .filter((column) => graph.one(column, CSVW + 'suppressOutput')?.value !== 'true')
    .filter((column) => graph.one(column, CSVW + 'virtual')?.value !== 'true')
    .map((column) => ({
      iri: column as RDF.NamedNode | RDF.BlankNode,
      format: graph.one(column, CSVW + 'format')?.value ?? XSD + 'string',
      unit: graph.one(column, QUDT + 'unit')?.value,
      aboutUrl: graph.one(column, CSVW + 'aboutUrl')?.value,
    }));
}

async function emitRows(
  table: RDF.Quad_Subject,
  csvUrl: string,
  graph: Graph,
  load: Loader,
  emit: (s: RDF.Quad_Subject, p: string, o: RDF.Quad_Object) => void,
): Promise<void> {
  const dialectNode = graph.one(table, CSVW + 'dialect');
  const schema = graph.one(table, CSVW + 'tableSchema');
  const skipRows = dialectNode ? number(graph.one(dialectNode, CSVW + 'skipRows'), 0) : 0;
  const headerRowCount = dialectNode ? number(graph.one(dialectNode, CSVW + 'headerRowCount'), 1) : 1;
  const delimiter = originalDelimiter(
    (dialectNode && graph.one(dialectNode, CSVW + 'delimiter')?.value) || ',',
  );
  const encoding = (dialectNode && graph.one(dialectNode, CSVW + 'encoding')?.value) || 'utf-8';
  const aboutUrl = schema ? graph.one(schema, CSVW + 'aboutUrl')?.value : undefined;
  const columns = columnsOf(schema, graph);
  const dialect: Dialect = {
    ...DEFAULT_DIALECT,
    delimiter: typeof delimiter === 'string' ? delimiter : ',',
    lineTerminators: ['\r\n', '\n', '\r'],
    skipRows: skipRows + headerRowCount,
    headerRowCount: 0,
    trim: 'false',
    encoding,
  };
  const resource = await loadResource(load, csvUrl, CSV_FIELD);
  let index = 0;
  const limits = { field: CSV_FIELD, url: csvUrl, maxColumns: maxColumns() };
  for await (const event of csvEvents(textChunks(resource, encoding), dialect, delimiter, limits)) {
    if (event.kind !== 'row') continue;
    if (event.cells.every((cell) => cell.trim() === '')) break; // the table ends at its first blank row
    const extra = event.cells.slice(columns.length);
    if (event.cells.length < columns.length || extra.some((cell) => cell.trim() !== '')) {
      throw new ClientError(
        422,
        `${CSV_FIELD}: line ${event.sourceNumber} of ${csvUrl} has ${event.cells.length} fields; the descriptor describes ${columns.length} columns`,
        CSV_FIELD,
      );
    }
    const gid = String(index);
    const vars = (name: string): string | undefined => (name === 'GID' ? gid : undefined);
    const subject = aboutUrl ? namedNode(resolveUrl(expandTemplate(aboutUrl, vars), csvUrl)) : blankNode();
    const row = blankNode();
    emit(table, CSVW + 'row', row);
    emit(row, TYPE.value, namedNode(CSVW + 'Row'));
    emit(row, CSVW + 'describes', subject);
    emit(row, CSVW + 'url', namedNode(`${csvUrl}/row=${index + skipRows + headerRowCount}`));
    columns.forEach((column, i) => {
      const predicate = column.aboutUrl
        ? resolveUrl(expandTemplate(column.aboutUrl, vars), csvUrl)
        : column.iri.value;
      const object = cellObject(event.cells[i] ?? '', column, emit);
      if (object) emit(subject, predicate, object);
    });
    index += 1;
  }
}

function cellObject(
  text: string,
  column: ColumnInfo,
  emit: (s: RDF.Quad_Subject, p: string, o: RDF.Quad_Object) => void,
): RDF.Quad_Object | undefined {
  if (text.trim() === '') return undefined;
  if (NUMERIC.has(column.format)) {
    const value = numericLiteral(text, column.format);
    if (value) {
      const node = blankNode();
      emit(node, TYPE.value, namedNode(QUDT + 'QuantityValue'));
      emit(node, QUDT + 'value', value);
      if (column.unit) emit(node, QUDT + 'unit', namedNode(column.unit));
      return node;
    }
  }
  if (column.format === XSD + 'anyURI') {
    let head: RDF.Quad_Object = namedNode(RDF_NS + 'nil');
    for (const iri of text.trim().split(/\s+/).toReversed()) {
      const node = blankNode();
      emit(node, RDF_NS + 'first', namedNode(iri));
      emit(node, RDF_NS + 'rest', head);
      head = node;
    }
    return head;
  }
  const annotation = blankNode();
  const body = blankNode();
  emit(annotation, TYPE.value, namedNode(OA + 'Annotation'));
  emit(annotation, OA + 'hasBody', body);
  emit(body, TYPE.value, namedNode(OA + 'TextualBody'));
  emit(body, DC11 + 'format', literal('text/plain'));
  const format = NUMERIC.has(column.format) ? XSD + 'string' : column.format;
  emit(body, RDF_NS + 'value', literal(text, namedNode(format)));
  return annotation;
}
