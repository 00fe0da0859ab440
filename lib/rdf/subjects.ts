// A graph file as a table of its subjects: each subject with its types and its properties, named
// by their rdfs:label or skos:prefLabel where the graph gives one. The file is read as a stream
// (the Turtle family by n3's streaming parser) and only up to SUBJECT_TABLE_TRIPLES triples;
// JSON-LD and RDF/XML, which have no streaming reader here, only up to SUBJECT_TABLE_WHOLE_BYTES.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import type * as RDF from '@rdfjs/types';
import { StreamParser } from 'n3';
import { formatFromFileName, type RdfFormat } from './formats.ts';
import { parse } from './parse.ts';
import { DEFAULT_PREFIXES } from './serialize.ts';
import { RDF_TYPE, RDFS } from './vocab.ts';

/** Triples read for the table; past it, the table says it shows only the first ones. */
export const SUBJECT_TABLE_TRIPLES = 20_000;
/** A JSON-LD or RDF/XML file is parsed whole, so only up to this size. */
export const SUBJECT_TABLE_WHOLE_BYTES = 4 * 1024 * 1024;
export const SUBJECTS_PER_PAGE = 100;

/** Prefixes that name IRIs where the graph declares none for them. */
const WELL_KNOWN = { ...DEFAULT_PREFIXES, csvw: 'http://www.w3.org/ns/csvw#' };
const LABELS = [`${RDFS}label`, 'http://www.w3.org/2004/02/skos/core#prefLabel'];
const STREAMED: Partial<Record<RdfFormat, string>> = {
  turtle: 'text/turtle',
  nt: 'application/n-triples',
  nquads: 'application/n-quads',
  trig: 'application/trig',
  n3: 'text/n3',
};

export interface TermView {
  kind: 'iri' | 'blank' | 'literal';
  /** The IRI, the blank node's label, or the literal's text. */
  value: string;
  /** An IRI's or blank node's label in the graph; an IRI's prefixed name when it has none. */
  label?: string;
  /** A literal's datatype (other than xsd:string) or language. */
  datatype?: string;
  language?: string;
  /** A subject of the table: on which page, under which anchor. */
  row?: { page: number; anchor: string };
}

export interface SubjectRow {
  subject: TermView & { row: { page: number; anchor: string } };
  types: TermView[];
  properties: { predicate: TermView; objects: TermView[] }[];
}

export interface SubjectTable {
  rows: SubjectRow[];
  page: number;
  perPage: number;
  /** Subjects in what was read. */
  total: number;
  triples: number;
  /** Why not all of the file was read (a limit), in words; undefined when it was read whole. */
  partial?: string;
}

/** Whether a file of that name is a graph the table can read. */
export function isGraphFile(fileName: string): boolean {
  const format = formatFromFileName(fileName);
  return format !== undefined && format !== 'hext';
}

export interface ReadGraph {
  quads: RDF.Quad[];
  prefixes: Record<string, string>;
  /** Why not all of the file was read, in words. */
  partial?: string;
}

/** The triples of a graph file, at most SUBJECT_TABLE_TRIPLES (streamed where the format allows). */
export async function readGraphFile(path: string, fileName: string, baseIRI: string): Promise<ReadGraph> {
  const format = formatFromFileName(fileName) ?? 'trig';
  const quads: RDF.Quad[] = [];
  const prefixes: Record<string, string> = {};
  let partial: string | undefined;
  const streamed = STREAMED[format === 'longturtle' ? 'turtle' : format];
  if (streamed) {
    const parser = new StreamParser({ format: streamed, baseIRI });
    parser.on('prefix', (prefix: string, iri: RDF.NamedNode) => (prefixes[prefix] = iri.value));
    const source = createReadStream(path);
    source.pipe(parser);
    try {
      for await (const quad of parser as AsyncIterable<RDF.Quad>) {
        if (quads.length >= SUBJECT_TABLE_TRIPLES) {
          partial = `only the first ${SUBJECT_TABLE_TRIPLES} triples are shown (the file has more)`;
          break;
        }
        quads.push(quad);
      }
    } finally {
      source.destroy();
    }
    return { quads, prefixes, partial };
  }
  const size = (await stat(path)).size;
  if (size > SUBJECT_TABLE_WHOLE_BYTES) {
    return {
      quads,
      prefixes,
      partial: `the file (${size} bytes) is larger than the ${SUBJECT_TABLE_WHOLE_BYTES} bytes read for this table`,
    };
  }
  const text = await readFile(path, 'utf8');
  const read = await parse(text, format, { baseIRI, onPrefix: (p, iri) => (prefixes[p] = iri) });
  if (read.length > SUBJECT_TABLE_TRIPLES) {
    partial = `only the first ${SUBJECT_TABLE_TRIPLES} triples are shown (the file has more)`;
  }
  return { quads: read.slice(0, SUBJECT_TABLE_TRIPLES), prefixes, partial };
}

function key(term: RDF.Term): string {
  return `${term.termType === 'BlankNode' ? '_:' : ''}${term.value}`;
}

/** `prefix:local` for an IRI under one of the file's prefixes (the longest namespace). */
function prefixed(iri: string, prefixes: Record<string, string>): string | undefined {
  let best: [string, string] | undefined;
  for (const [prefix, namespace] of Object.entries(prefixes)) {
    if (namespace && iri.startsWith(namespace) && (!best || namespace.length > best[1].length))
      best = [prefix, namespace];
  }
  const local = best && iri.slice(best[1].length);
  return best && local !== undefined && /^[\w.-]*$/u.test(local) ? `${best[0]}:${local}` : undefined;
}

/** The page `page` of the table of the graph in the file (parsed against `baseIRI`). */
export async function subjectTable(
  path: string,
  fileName: string,
  baseIRI: string,
  page: number,
  perPage = SUBJECTS_PER_PAGE,
): Promise<SubjectTable> {
  const read = await readGraphFile(path, fileName, baseIRI);
  const table = tableOf(read, baseIRI, page, perPage);
  if (read.partial) table.partial = read.partial;
  return table;
}

/**
 * The subjects of `quads` as a table's page; with `first`, that subject leads (the thing a page
 * describes, before the blank nodes of its values).
 */
export function tableOf(
  { quads, prefixes: declared }: ReadGraph,
  baseIRI: string,
  page: number,
  perPage = SUBJECTS_PER_PAGE,
  first?: string,
): SubjectTable {
  const prefixes = { ...WELL_KNOWN, ...declared };
  const labels = new Map<string, string>();
  const bySubject = new Map<string, RDF.Quad[]>();
  for (const quad of quads) {
    if (LABELS.includes(quad.predicate.value) && quad.object.termType === 'Literal') {
      const k = key(quad.subject);
      if (!labels.has(k) || quad.object.language === 'en') labels.set(k, quad.object.value);
    }
    const k = key(quad.subject);
    const list = bySubject.get(k);
    if (list) list.push(quad);
    else bySubject.set(k, [quad]);
  }
  const origin = URL.parse(baseIRI)?.origin;
  // A thing of the file's own site without a label is called by its last part (`#Specimen`).
  const own = (iri: string): string | undefined =>
    origin && URL.parse(iri)?.origin === origin ? /[#/]([^#/]+)$/.exec(iri)?.[1] : undefined;
  const name = (term: RDF.Term): string =>
    labels.get(key(term)) ??
    prefixed(term.value, prefixes) ??
    (term.termType === 'BlankNode' ? `_:${term.value}` : (own(term.value) ?? term.value));
  // The file's own things first (IRIs on its site: the individuals a mapping made), then other
  // named things (the vocabulary), then blank nodes (values, lists); each group by name.
  const group = (term: RDF.Term): number =>
    term.termType === 'BlankNode' ? 2 : origin && URL.parse(term.value)?.origin === origin ? 0 : 1;
  const lead = (term: RDF.Term): number => (term.termType === 'NamedNode' && term.value === first ? 0 : 1);
  const order = [...bySubject.values()].sort(
    (a, b) =>
      lead(a[0]!.subject) - lead(b[0]!.subject) ||
      group(a[0]!.subject) - group(b[0]!.subject) ||
      name(a[0]!.subject).localeCompare(name(b[0]!.subject)),
  );
  const rows = new Map<string, { page: number; anchor: string }>();
  const anchors = new Set<string>();
  order.forEach((list, index) => {
    const subject = list[0]!.subject;
    const hash = subject.termType === 'NamedNode' ? /#(.+)$/.exec(subject.value)?.[1] : undefined;
    // A hash IRI's fragment is its anchor, so that `…#Specimen` lands on its row.
    const anchor = hash && !anchors.has(hash) && !/^s-\d+$/.test(hash) ? hash : `s-${index + 1}`;
    anchors.add(anchor);
    rows.set(key(subject), { page: Math.floor(index / perPage) + 1, anchor });
  });
  const view = (term: RDF.Term): TermView => {
    if (term.termType === 'Literal') {
      const t: TermView = { kind: 'literal', value: term.value };
      if (term.language) t.language = term.language;
      else if (term.datatype.value !== 'http://www.w3.org/2001/XMLSchema#string')
        t.datatype = prefixed(term.datatype.value, prefixes) ?? term.datatype.value;
      return t;
    }
    const t: TermView = { kind: term.termType === 'BlankNode' ? 'blank' : 'iri', value: term.value };
    const shown = name(term);
    if (shown !== term.value) t.label = shown;
    const row = rows.get(key(term));
    if (row) t.row = row;
    return t;
  };
  const shown = order.slice((page - 1) * perPage, page * perPage).map((list): SubjectRow => {
    const types: TermView[] = [];
    const properties = new Map<string, { predicate: TermView; objects: TermView[] }>();
    for (const quad of list) {
      if (quad.predicate.value === RDF_TYPE) {
        types.push(view(quad.object));
        continue;
      }
      const entry = properties.get(quad.predicate.value) ?? { predicate: view(quad.predicate), objects: [] };
      entry.objects.push(view(quad.object));
      properties.set(quad.predicate.value, entry);
    }
    return {
      subject: view(list[0]!.subject) as SubjectRow['subject'],
      types,
      properties: [...properties.values()],
    };
  });
  return { rows: shown, page, perPage, total: order.length, triples: quads.length };
}

/**
 * What `quads` say of `iri`: its triples, those of the blank nodes among its values (their
 * own values, as a concise bounded description), and the labels of every IRI they use.
 */
export function describedIn(quads: readonly RDF.Quad[], iri: string): RDF.Quad[] {
  const bySubject = new Map<string, RDF.Quad[]>();
  for (const quad of quads) {
    const list = bySubject.get(key(quad.subject));
    if (list) list.push(quad);
    else bySubject.set(key(quad.subject), [quad]);
  }
  const found: RDF.Quad[] = [];
  const seen = new Set<string>();
  const queue = [iri];
  while (queue.length > 0) {
    const k = queue.shift()!;
    if (seen.has(k)) continue;
    seen.add(k);
    for (const quad of bySubject.get(k) ?? []) {
      found.push(quad);
      if (quad.object.termType === 'BlankNode') queue.push(key(quad.object));
    }
  }
  if (found.length === 0) return found;
  const used = new Set(found.flatMap((q) => [q.predicate.value, q.object.value]));
  const labels = quads.filter(
    (q) =>
      q.subject.termType === 'NamedNode' && used.has(q.subject.value) && LABELS.includes(q.predicate.value),
  );
  return [...found, ...labels.filter((q) => q.subject.value !== iri)];
}
