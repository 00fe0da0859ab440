// A JSON array of values where RDF is read: `[` also opens a Turtle blank node, so the text is
// read as TriG; the answer says it found a JSON array, not the Turtle parser's complaint. And
// the other way round: converter data that starts with `[` but is Turtle is read as RDF.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readData } from '../../lib/converter/index.ts';
import { validateRdf } from '../../lib/converter/rdfvalidator.ts';
import { seedLoader } from './support.ts';

const SHAPES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
<http://x/S> a sh:NodeShape; sh:targetClass <http://x/T> .`;

test('rdfvalidator: a JSON array as rdf_url or shapes_url is a 422 saying so', async () => {
  const load = seedLoader({
    'http://x/array.json': '[1, 2, 3]',
    'http://x/mixed': '[["a"], "b"]',
    'http://x/shapes.ttl': SHAPES,
    'http://x/data.ttl': '[] a <http://x/T> .',
  });
  await assert.rejects(
    validateRdf({ shapesUrl: 'http://x/shapes.ttl', rdfUrl: 'http://x/array.json' }, load),
    {
      kind: 'invalid',
      field: 'rdf_url',
      message:
        'rdf_url: found a JSON array of numbers, not TriG or JSON-LD: a JSON-LD document is an object or an array of objects',
    },
  );
  await assert.rejects(validateRdf({ shapesUrl: 'http://x/mixed', rdfUrl: 'http://x/data.ttl' }, load), {
    kind: 'invalid',
    field: 'shapes_url',
    message: /^shapes_url: found a JSON array of arrays and strings, not TriG or JSON-LD/,
  });
  // Turtle that starts with `[` is still Turtle.
  const answer = await validateRdf({ shapesUrl: 'http://x/shapes.ttl', rdfUrl: 'http://x/data.ttl' }, load);
  assert.equal(answer.conforms, true);
});

test('converter data starting with `[` that is not JSON is read as RDF; neither is a 422 naming both', async () => {
  const loaded = (text: string) => ({ url: 'http://x/d', text, fileName: 'd' });
  const turtle = await readData(loaded('[] a <http://x/T> .'), 'data_url');
  assert.equal(turtle.fromRdf, true);
  assert.deepEqual(
    (await turtle.quads()).map((q) => q.object.value),
    ['http://x/T'],
  );
  await assert.rejects(readData(loaded('[1, 2,'), 'data_url'), {
    kind: 'invalid',
    field: 'data_url',
    message: /^data_url: could not access or parse the data source: neither JSON \(.+\) nor RDF \(.+\)$/,
  });
});
