// renderDescriptor: all eight return types, with the original's download names and correct
// content types; every non-JSON-LD output reads back to the descriptor's own graph.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderDescriptor } from '../../lib/annotator/index.ts';
import { isomorphic, parse, RETURN_TYPES } from '../../lib/rdf/index.ts';
import { annotateFile, csvtocsvw, EXAMPLES } from './support.ts';

const EXPECTED: Record<string, [string, string]> = {
  'json-ld': ['application/ld+json', 'example5-metadata.json'],
  turtle: ['text/turtle', 'example5-metadata.ttl'],
  longturtle: ['text/turtle', 'example5-metadata.ttl'],
  xml: ['application/rdf+xml', 'example5-metadata.xml'],
  n3: ['text/n3', 'example5-metadata.n3'],
  nt: ['application/n-triples', 'example5-metadata.nt'],
  trig: ['application/trig', 'example5-metadata.trig'],
  hext: ['application/hex+x-ndjson', 'example5-metadata.hext'],
};

describe('renderDescriptor', async () => {
  const { descriptor, metadataFileName } = await annotateFile(
    csvtocsvw('example5.csv'),
    `${EXAMPLES}example5.csv`,
    {
      provenance: { activity: 'http://localhost:5001/api/annotate', time: new Date('2026-01-01T00:00:00Z') },
    },
  );
  const graph = await parse(JSON.stringify(descriptor), 'json-ld', { baseIRI: descriptor['@id'] });

  it('covers the eight return types', () => {
    assert.deepEqual(Object.keys(EXPECTED).sort(), [...RETURN_TYPES].sort());
    assert.equal(metadataFileName, 'example5-metadata.json');
  });

  for (const returnType of RETURN_TYPES) {
    it(`${returnType}: content type, file name, same graph`, async () => {
      const rendered = await renderDescriptor(descriptor, returnType, { metadataFileName });
      const [contentType, filename] = EXPECTED[returnType] as [string, string];
      assert.equal(rendered.contentType, contentType);
      assert.equal(rendered.filename, filename);
      const format = returnType === 'longturtle' ? 'turtle' : returnType;
      const back = await parse(rendered.body, format, { baseIRI: descriptor['@id'] });
      assert.ok(isomorphic(back, graph), `${returnType} reads back to the descriptor's graph`);
    });
  }

  it('json-ld is the descriptor itself, indented and ASCII-escaped like the original', async () => {
    const rendered = await renderDescriptor(descriptor, 'json-ld');
    assert.deepEqual(JSON.parse(rendered.body), JSON.parse(JSON.stringify(descriptor)));
    assert.match(rendered.body, /^\{\n {4}"@context": \[/);
    assert.ok(!/[^\x20-\x7e\n]/.test(rendered.body), 'only printable ASCII');
  });

  it('keeps the provenance in every format (the original dropped it outside json-ld)', async () => {
    const turtle = await renderDescriptor(descriptor, 'turtle');
    assert.match(turtle.body, /prov:wasGeneratedBy <http:\/\/localhost:5001\/api\/annotate>/);
  });

  it('rejects an unknown return type with 422 naming return_type', async () => {
    await assert.rejects(renderDescriptor(descriptor, 'csv'), { kind: 'invalid', field: 'return_type' });
  });
});
