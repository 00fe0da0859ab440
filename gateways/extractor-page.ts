// A record for browsers: one table per subject (its predicates and values), IRIs as links so
// that a reader can walk to the record's neighbours, which are served at their IRIs.
import { Parser, type Quad } from 'n3';
import { escapeHtml } from './kit/index.ts';

const SHORT: Record<string, string> = {
  'http://w3id.org/matolab/openbis/': 'obis:',
  'http://schema.org/': 'schema:',
  'http://www.w3.org/ns/dcat#': 'dcat:',
  'http://purl.org/dc/terms/': 'dcterms:',
  'http://purl.org/dc/elements/1.1/': 'dc:',
  'http://www.w3.org/ns/prov#': 'prov:',
  'http://xmlns.com/foaf/0.1/': 'foaf:',
  'http://qudt.org/schema/qudt/': 'qudt:',
  'http://www.w3.org/ns/oa#': 'oa:',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf:',
  'http://www.w3.org/2000/01/rdf-schema#': 'rdfs:',
  'http://www.w3.org/2002/07/owl#': 'owl:',
  'http://www.w3.org/2001/XMLSchema#': 'xsd:',
};

function short(iri: string): string {
  for (const [ns, prefix] of Object.entries(SHORT))
    if (iri.startsWith(ns)) return prefix + iri.slice(ns.length);
  return iri;
}

function cell(term: Quad['object']): string {
  if (term.termType === 'NamedNode') {
    const safe = /^(https?|mailto):/i.test(term.value);
    const text = escapeHtml(short(term.value));
    return safe ? `<a href="${escapeHtml(term.value)}">${text}</a>` : text;
  }
  if (term.termType === 'BlankNode')
    return `<a href="#${escapeHtml(term.value)}">_:${escapeHtml(term.value)}</a>`;
  if (term.termType === 'Literal') return escapeHtml(term.value);
  return '';
}

/** The page of a record given as N-Triples; `self` is the record's own IRI, shown first. */
export function recordPage(ntriples: string, self: string): string {
  const quads = new Parser({ format: 'N-Triples' }).parse(ntriples);
  const bySubject = new Map<string, Quad[]>();
  for (const q of quads) {
    const key = `${q.subject.termType}|${q.subject.value}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), q]);
  }
  const keys = [...bySubject.keys()].sort(
    (a, b) => Number(b.endsWith(`|${self}`)) - Number(a.endsWith(`|${self}`)),
  );
  const sections = keys.map((key) => {
    const rows = bySubject.get(key) ?? [];
    const subject = rows[0]!.subject;
    const anchor = subject.termType === 'BlankNode' ? ` id="${escapeHtml(subject.value)}"` : '';
    const body = rows
      .map((q) => `<tr><td>${escapeHtml(short(q.predicate.value))}</td><td>${cell(q.object)}</td></tr>`)
      .join('\n');
    return `<section${anchor}><h2>${cell(subject)}</h2>\n<table>\n${body}\n</table></section>`;
  });
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(short(self))}</title>`,
    '<style>body{font-family:sans-serif;margin:2em}td{padding:.2em .8em;vertical-align:top}h2{font-size:1.1em}</style>',
    '</head><body>',
    `<h1>${escapeHtml(self)}</h1>`,
    '<p>Also as <code>application/ld+json</code>, <code>text/turtle</code>, <code>application/n-triples</code>, ',
    '<code>application/rdf+xml</code> and <code>application/json</code> (openBIS) by the Accept header.</p>',
    ...sections,
    '</body></html>',
  ].join('\n');
}
