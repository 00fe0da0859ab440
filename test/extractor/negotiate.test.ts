// Content negotiation of records: q-values, specificity, the original's media types, and any
// Accept header at all (property) answered with one of the offered representations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { negotiate } from '../../lib/extractor/negotiate.ts';
import { REPRESENTATIONS } from '../../lib/extractor/representations.ts';

describe('record negotiation', () => {
  it('follows q-values, the most specific range, and the server order on ties', () => {
    const cases: [string | undefined, string, string][] = [
      [undefined, 'jsonld', 'application/ld+json'],
      ['', 'jsonld', 'application/ld+json'],
      ['*/*', 'jsonld', 'application/ld+json'],
      ['text/turtle', 'turtle', 'text/turtle'],
      ['application/x-turtle', 'turtle', 'application/x-turtle'],
      [' application/x-turtle', 'turtle', 'application/x-turtle'], // the original failed on the space
      ['text/turtle;q=0.2, application/rdf+xml;q=0.8', 'rdfxml', 'application/rdf+xml'],
      ['text/*;q=0.9, application/n-triples;q=0.5', 'turtle', 'text/turtle'],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html', 'text/html'],
      ['application/ld+json;q=0, */*;q=0.1', 'turtle', 'text/turtle'],
      ['application/json', 'json', 'application/json'],
      [
        'application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"',
        'jsonld-expanded',
        'application/ld+json',
      ],
      ['image/png', 'jsonld', 'application/ld+json'],
      ['text/turtle;q=abc', 'jsonld', 'application/ld+json'],
    ];
    for (const [accept, representation, mediaType] of cases) {
      assert.deepEqual(negotiate(accept), { representation, mediaType }, String(accept));
    }
  });

  it('answers any Accept header with an offered representation (property)', () => {
    const offered = new Set<string>([...REPRESENTATIONS, 'html']);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (accept) => {
        const chosen = negotiate(accept);
        assert.ok(offered.has(chosen.representation));
        assert.match(chosen.mediaType, /^[a-z]+\/[a-z+.-]+$/);
      }),
    );
  });
});
