// POST /api/rdf of the original annotator (CSVToCSVW v1.3.5, research §1.12): the descriptor
// as RDF plus the CSV rows it describes, in the original's shape — one csvw:Row per line, a
// qudt:QuantityValue per numeric cell, an rdf:List of IRIs per anyURI cell, an oa:Annotation
// with a TextualBody otherwise — and the provenance of the conversion. The table structure is
// read from the descriptor's graph, so any RDF format works, and the delimiter may be a real
// character or the original's regex form (`\t`).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { invalid } from '../process/errors.ts';
import { guessFormat, parse } from '../rdf/index.ts';
import { resolveUrl } from './common.ts';
import { describedDialect, numberStyle } from './column-format.ts';
import { descriptorRows, type DescriptorDialect } from './descriptor-rows.ts';
import { CSV_FIELD, METADATA_FIELD, loadResource, resourceText, type ResourceLoader } from './types.ts';
import { DC11, OA, QUDT, QUDT_UNIT, cellColumn, cellObject, type Column } from './descriptor-cells.ts';
import { expandTemplate } from './uri-template.ts';
import { CSVW, RDF_NS, RDFS, XSD } from './vocab.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;

const PROV = 'http://www.w3.org/ns/prov#';
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

/**
 * The agent the annotator's descriptors name, as the interface (v1.3.5) names it: one identity
 * for both endpoints (lib/annotator/descriptor.ts writes it into each descriptor).
 */
export const ORIGINAL_AGENT = Object.freeze({
  iri: 'https://github.com/Mat-O-Lab/CSVToCSVW/releases/tag/v1.3.5',
  label: 'CSVtoCSVWv1.3.5',
  source: 'https://github.com/Mat-O-Lab/CSVToCSVW',
});

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

async function loadDescriptor(url: string, load: ResourceLoader): Promise<RDF.Quad[]> {
  const resource = await loadResource(load, url, METADATA_FIELD);
  const text = await resourceText(resource);
  const format = guessFormat({ contentType: resource.contentType, name: url, text });
  return parse(text, format, { baseIRI: url, field: METADATA_FIELD });
}

/** The graph of /api/rdf, made as its CSV is read. */
export interface DescriptorGraph {
  /** The CSV read first (it names the download). */
  csvUrl: string;
  /**
   * Prefixes for writing it: the vocabularies the rows use and `csv:` for the names the
   * annotator minted below the CSV's URL (the original bound the same ones), so that rows
   * are not written with every IRI in full.
   */
  prefixes: Record<string, string>;
  /** The descriptor, the provenance, then each table's rows, in batches as the CSV is read. */
  batches: AsyncIterable<RDF.Quad[]>;
}

/** What a table's rows are made from, read once from the descriptor. */
export interface TableShape {
  table: RDF.Quad_Subject;
  csvUrl: string;
  dialect: DescriptorDialect;
  /** The table schema's aboutUrl template (the rows' subjects), or undefined: blank nodes. */
  aboutUrl: string | undefined;
  columns: Column[];
}

/** The descriptor read: its own quads and the provenance (`head`), and the shape of each table. */
export interface DescriptorParts {
  csvUrl: string;
  prefixes: Record<string, string>;
  head: RDF.Quad[];
  tables: TableShape[];
}

const VOCABULARIES = Object.freeze({
  csvw: CSVW,
  dc11: DC11,
  oa: OA,
  prov: PROV,
  qudt: QUDT,
  rdf: RDF_NS,
  rdfs: RDFS,
  unit: QUDT_UNIT,
  xsd: XSD,
});

// Quads are handed on in batches of about this many (one await per batch, not per quad).
const BATCH = 8192;

// Terms every row uses, made once.
const T = {
  type: TYPE,
  row: namedNode(CSVW + 'row'),
  rowClass: namedNode(CSVW + 'Row'),
  describes: namedNode(CSVW + 'describes'),
  url: namedNode(CSVW + 'url'),
};

/**
 * The descriptor at `metadataUrl` read (and refused) before any row: its quads, the
 * provenance of the conversion and each table's shape. Errors are DomainErrors naming
 * metadata_url.
 */
export async function descriptorParts(
  input: DescriptorInput,
  load: ResourceLoader,
  options: DescriptorOptions = {},
): Promise<DescriptorParts> {
  const descriptor = await loadDescriptor(input.metadataUrl, load);
  const graph = new Graph(descriptor);
  const tables = findTables(descriptor);
  if (tables.length === 0) {
    throw invalid(
      `${METADATA_FIELD}: metadata contains no table — the source CSV may have been classified as metadata-only`,
      METADATA_FIELD,
    );
  }
  const tableUrl = (table: RDF.Quad_Subject): string =>
    resolveUrl(graph.one(table, CSVW + 'url')?.value ?? '', input.metadataUrl);
  const first = tableUrl(tables[0] as RDF.Quad_Subject);
  const prefixes: Record<string, string> = { ...VOCABULARIES };
  if (/^[a-z][\w+.-]*:/i.test(first)) prefixes['csv'] = `${first}/`;
  const shapes = tables.map((table) => tableShape(table, input.csvUrl ?? tableUrl(table), graph));
  return {
    csvUrl: input.csvUrl ?? first,
    prefixes,
    head: [...descriptor, ...provenance(shapes, input.metadataUrl, options)],
    tables: shapes,
  };
}

/**
 * The descriptor at `metadataUrl` plus the rows of the CSV it describes, as the original's
 * /api/rdf returns them, made while the CSV streams. The descriptor is read (and refused)
 * before the first batch; the CSV's errors surface from the batches. Errors are
 * DomainErrors naming metadata_url or csv_url.
 */
export async function descriptorGraph(
  input: DescriptorInput,
  load: ResourceLoader,
  options: DescriptorOptions = {},
): Promise<DescriptorGraph> {
  const parts = await descriptorParts(input, load, options);
  return { csvUrl: parts.csvUrl, prefixes: parts.prefixes, batches: graphBatches(parts, load) };
}

async function* graphBatches(parts: DescriptorParts, load: ResourceLoader): AsyncGenerator<RDF.Quad[]> {
  const out: RDF.Quad[] = [...parts.head];
  for (const shape of parts.tables) {
    for await (const count of emitRows(shape, load, out)) {
      if (count >= BATCH) yield out.splice(0);
    }
  }
  if (out.length > 0) yield out;
}

/** The conversion's provenance: the activity, its agent and what each table was made from. */
function provenance(tables: TableShape[], metadataUrl: string, options: DescriptorOptions): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  const emit = (s: RDF.Quad_Subject, p: RDF.NamedNode, o: RDF.Quad_Object): void =>
    void out.push(quad(s, p, o));
  const agent = options.agent ?? ORIGINAL_AGENT;
  const activity = namedNode(options.activityUrl ?? 'urn:labld:activity:api-rdf');
  const agentNode = namedNode(agent.iri);
  const metadataNode = namedNode(metadataUrl);
  const usage = namedNode(PROV + 'Usage');
  const hadRole = namedNode(PROV + 'hadRole');
  const qualifiedUsage = namedNode(PROV + 'qualifiedUsage');
  emit(activity, TYPE, namedNode(PROV + 'Activity'));
  emit(activity, namedNode(PROV + 'wasAssociatedWith'), agentNode);
  emit(agentNode, TYPE, namedNode(PROV + 'SoftwareAgent'));
  emit(agentNode, namedNode(RDFS + 'label'), literal(agent.label));
  emit(agentNode, namedNode(PROV + 'hadPrimarySource'), namedNode(agent.source));
  emit(metadataNode, TYPE, usage);
  emit(metadataNode, hadRole, namedNode(CSVW + 'tabularMetadata'));
  const generatedAt = literal(options.generatedAt ?? new Date().toISOString(), namedNode(XSD + 'dateTime'));
  for (const { table, csvUrl } of tables) {
    const csvNode = namedNode(csvUrl);
    emit(table, TYPE, namedNode(CSVW + 'Table'));
    emit(table, namedNode(PROV + 'wasGeneratedBy'), activity);
    emit(table, namedNode(PROV + 'generatedAtTime'), generatedAt);
    emit(table, qualifiedUsage, csvNode);
    emit(table, qualifiedUsage, metadataNode);
    emit(csvNode, TYPE, usage);
    emit(csvNode, hadRole, namedNode(CSVW + 'csvEncodedTabularData'));
  }
  return out;
}

/**
 * The descriptor at `metadataUrl` plus the rows of the CSV it describes, all in memory (tests,
 * small graphs); `descriptorGraph` streams them.
 */
export async function descriptorToRdf(
  input: DescriptorInput,
  load: ResourceLoader,
  options: DescriptorOptions = {},
): Promise<RDF.Quad[]> {
  const all: RDF.Quad[] = [];
  for await (const batch of (await descriptorGraph(input, load, options)).batches) all.push(...batch);
  return all;
}

function columnsOf(schema: RDF.Term | undefined, graph: Graph): Column[] {
  if (!schema) return [];
  return graph
    .list(graph.one(schema, CSVW + 'column'))
    .filter((column) => graph.one(column, CSVW + 'suppressOutput')?.value !== 'true')
    .filter((column) => graph.one(column, CSVW + 'virtual')?.value !== 'true')
    .map((column) => {
      const datatype = graph.one(column, CSVW + 'datatype');
      const format = datatype && graph.one(datatype, CSVW + 'format');
      const property = (name: string) => (format ? graph.one(format, CSVW + name)?.value : undefined);
      return cellColumn(
        column.value,
        graph.one(column, CSVW + 'format')?.value ?? XSD + 'string',
        graph.one(column, QUDT + 'unit')?.value,
        graph.one(column, CSVW + 'aboutUrl')?.value,
        numberStyle(property('decimalChar'), property('groupChar')),
      );
    });
}

function tableShape(table: RDF.Quad_Subject, csvUrl: string, graph: Graph): TableShape {
  const dialectNode = graph.one(table, CSVW + 'dialect');
  const schema = graph.one(table, CSVW + 'tableSchema');
  const property = (name: string) => (dialectNode ? graph.one(dialectNode, CSVW + name)?.value : undefined);
  const dialect = describedDialect({
    skipRows: property('skipRows'),
    headerRowCount: property('headerRowCount'),
    header: property('header'),
    delimiter: property('delimiter'),
    encoding: property('encoding'),
  });
  const aboutUrl = schema ? graph.one(schema, CSVW + 'aboutUrl')?.value : undefined;
  return { table, csvUrl, dialect, aboutUrl, columns: columnsOf(schema, graph) };
}

/** Emits the rows of one table into `out`, yielding the length of `out` after each row. */
async function* emitRows(shape: TableShape, load: ResourceLoader, out: RDF.Quad[]): AsyncGenerator<number> {
  const { table, csvUrl, dialect, aboutUrl, columns } = shape;
  const resource = await loadResource(load, csvUrl, CSV_FIELD);
  const emit = (s: RDF.Quad_Subject, p: RDF.Quad_Predicate, o: RDF.Quad_Object): void =>
    void out.push(quad(s, p, o));
  // The objects' own triples follow the row's, so that a writer groups each subject's.
  const nested: RDF.Quad[] = [];
  const rowBase = `${csvUrl}/row=`;
  const firstRowNumber = dialect.skipRows + dialect.headerRowCount;
  const rows = descriptorRows(resource, csvUrl, dialect, columns.length);
  for await (const { index, cells } of rows) {
    const gid = String(index);
    const vars = (name: string): string | undefined => (name === 'GID' ? gid : undefined);
    const subject = aboutUrl ? namedNode(resolveUrl(expandTemplate(aboutUrl, vars), csvUrl)) : blankNode();
    const row = blankNode();
    emit(table, T.row, row);
    emit(row, T.type, T.rowClass);
    emit(row, T.describes, subject);
    emit(row, T.url, namedNode(rowBase + String(index + firstRowNumber)));
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i] as Column;
      const object = cellObject(cells[i] as string, column, nested);
      if (object === undefined) continue;
      const predicate =
        column.predicate ?? namedNode(resolveUrl(expandTemplate(column.aboutUrl as string, vars), csvUrl));
      emit(subject, predicate, object);
    }
    for (const q of nested) out.push(q);
    nested.length = 0;
    yield out.length;
  }
}
