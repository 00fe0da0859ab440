// Content negotiation of records by the Accept header with real q-values (RFC 9110 §12.5.1):
// each offered media type takes the q of the most specific range that matches it, the highest
// q wins, ties go to the order below (JSON-LD first, so `*/*` and no header get JSON-LD). The
// original matched exact strings in a fixed order and knew no `text/turtle`; its
// `application/x-turtle` is still offered. A browser's `text/html` gets the page.
import type { Representation } from './representations.ts';

export type Offer = Representation | 'html';

export interface Negotiated {
  representation: Offer;
  /** The media type to answer with (the one the client named, for Turtle's two names). */
  mediaType: string;
}

const EXPANDED = 'http://www.w3.org/ns/json-ld#expanded';

/** In order of preference on ties. */
const OFFERS: readonly { type: string; representation: Offer }[] = [
  { type: 'application/ld+json', representation: 'jsonld' },
  { type: 'text/turtle', representation: 'turtle' },
  { type: 'application/x-turtle', representation: 'turtle' },
  { type: 'application/n-triples', representation: 'ntriples' },
  { type: 'application/rdf+xml', representation: 'rdfxml' },
  { type: 'application/json', representation: 'json' },
  { type: 'text/html', representation: 'html' },
];

interface Range {
  type: string;
  subtype: string;
  q: number;
  profile: string | undefined;
}

const MAX_RANGES = 64;

function ranges(accept: string): Range[] {
  const out: Range[] = [];
  for (const part of accept.split(',').slice(0, MAX_RANGES)) {
    const [media = '', ...params] = part.split(';').map((p) => p.trim());
    const [type, subtype] = media.toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    let profile: string | undefined;
    for (const param of params) {
      const [name = '', raw = ''] = param.split('=').map((p) => p.trim());
      const value = raw.replace(/^"|"$/g, '');
      if (name.toLowerCase() === 'q') {
        const parsed = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : NaN;
        q = Number.isNaN(parsed) ? 0 : parsed;
      } else if (name.toLowerCase() === 'profile') profile = value;
    }
    out.push({ type, subtype, q, profile });
  }
  return out;
}

/** How well a range matches a media type: 3 exact, 2 type/*, 1 *\/*, 0 not at all. */
function specificity(range: Range, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/** The representation for an Accept header; JSON-LD when it is absent or names nothing offered. */
export function negotiate(accept: string | undefined): Negotiated {
  const given = accept === undefined || accept.trim() === '' ? [] : ranges(accept);
  let best: { offer: (typeof OFFERS)[number]; q: number; range: Range | undefined } | undefined;
  for (const offer of OFFERS) {
    let match: Range | undefined;
    let level = 0;
    for (const range of given) {
      const s = specificity(range, offer.type);
      if (s > level) {
        level = s;
        match = range;
      }
    }
    const q = given.length === 0 ? 1 : (match?.q ?? 0);
    if (q > 0 && (best === undefined || q > best.q)) best = { offer, q, range: match };
  }
  if (best === undefined) return { representation: 'jsonld', mediaType: 'application/ld+json' };
  const profiles = best.range?.profile?.split(/\s+/) ?? [];
  if (best.offer.representation === 'jsonld' && profiles.includes(EXPANDED)) {
    return { representation: 'jsonld-expanded', mediaType: 'application/ld+json' };
  }
  return { representation: best.offer.representation, mediaType: best.offer.type };
}

/** Whether the client is a browser that should be sent to openBIS's login page (§3.2). */
export function wantsHtml(accept: string | undefined): boolean {
  return negotiate(accept).representation === 'html';
}
