// createrdf on the seed examples: the joined graph equals the original's golden output after
// the documented differences (research seed-services §3.4; DESIGN §5):
//  - labld adds `prov:wasDerivedFrom <data>` to each mapped entity (spec) and the entities'
//    qudt:QuantityValue bodies from the descriptor (spec), both removed before comparing;
//  - the timestamp carries a time zone (the golden's local time is replaced by ours).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, type Quad } from 'n3';
import { createRdf, joinedFileName } from '../../lib/converter/index.ts';
import { parse, serialize } from '../../lib/rdf/index.ts';
import { assertIsomorphic } from '../support/rdf.ts';
import {
  BATCH_MAPPING_URL,
  BATCH_URL,
  CSVW_MAPPING_URL,
  DESCRIPTOR_URL,
  readSeed,
  seedLoader,
  TEMPLATE_URL,
} from './support.ts';

const ACTIVITY = 'http://localhost:6003/api/createrdf';
const PROV = 'http://www.w3.org/ns/prov#';
const OA_HAS_BODY = 'http://www.w3.org/ns/oa#hasBody';
const GENERATED_AT = `${PROV}generatedAtTime`;
const NOW = new Date('2026-06-24T12:41:10.121Z');

/** The golden graph with its timestamp replaced by ours (the one documented literal difference). */
function golden(file: string, base: string): Quad[] {
  return new Parser({ baseIRI: base })
    .parse(readSeed(file))
    .map((q) =>
      q.predicate.value === GENERATED_AT
        ? DataFactory.quad(
            q.subject,
            q.predicate,
            DataFactory.literal(NOW.toISOString(), (q.object as RDF.Literal).datatype),
          )
        : q,
    );
}

/** Ours without labld's additions: per-entity wasDerivedFrom and quantity-value bodies. */
function withoutAdditions(quads: Quad[]): { rest: Quad[]; derived: Quad[]; bodies: Quad[] } {
  const bodyNodes = new Set(
    quads.filter((q) => q.predicate.value === OA_HAS_BODY).map((q) => q.object.value),
  );
  const derived = quads.filter(
    (q) => q.predicate.value === `${PROV}wasDerivedFrom` && q.subject.termType === 'NamedNode',
  );
  const bodies = quads.filter((q) => q.predicate.value === OA_HAS_BODY || bodyNodes.has(q.subject.value));
  const rest = quads.filter((q) => !derived.includes(q) && !bodies.includes(q));
  return { rest, derived, bodies };
}

test('csvw-template-map.yaml: the template, 7 link triples and prov, as csvw-template-map.rdf', async () => {
  const result = await createRdf(
    { mappingUrl: CSVW_MAPPING_URL, activity: ACTIVITY, now: NOW },
    seedLoader(),
  );
  assert.equal(result.filename, 'example-joined.ttl');
  assert.deepEqual([result.num_mappings_applied, result.num_mappings_skipped], [7, 0]);
  const document = 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/example-joined.ttl';
  const ours = await parse(result.graph, 'turtle');
  const { rest, derived, bodies } = withoutAdditions(ours);
  await assertIsomorphic(rest, golden('rdfconverter/csvw-template-map.rdf', document), 'joined graph');

  // The additions, checked against the descriptor itself.
  const descriptor = JSON.parse(readSeed('csvtocsvw/example-metadata.json')) as {
    notes: { '@id': string; 'oa:hasBody': { '@type': string }[] }[];
  };
  const linked = ours
    .filter((q) => q.predicate.value === 'http://purl.obolibrary.org/obo/RO_0010002')
    .map((q) => q.subject.value);
  assert.equal(linked.length, 7);
  assert.deepEqual(derived.map((q) => q.subject.value).sort(), [...linked].sort());
  assert.ok(derived.every((q) => q.object.value === DESCRIPTOR_URL));
  const withQuantity = descriptor.notes.filter(
    (n) => linked.includes(n['@id']) && n['oa:hasBody'].some((b) => b['@type'] === 'qudt:QuantityValue'),
  );
  assert.ok(withQuantity.length >= 4);
  const hasBody = bodies.filter((q) => q.predicate.value === OA_HAS_BODY);
  assert.deepEqual(hasBody.map((q) => q.subject.value).sort(), withQuantity.map((n) => n['@id']).sort());
  for (const body of hasBody) {
    const of = (p: string) => bodies.filter((q) => q.subject.equals(body.object) && q.predicate.value === p);
    assert.equal(
      of('http://www.w3.org/1999/02/22-rdf-syntax-ns#type')[0]?.object.value,
      'http://qudt.org/schema/qudt/QuantityValue',
    );
    assert.equal(of('http://qudt.org/schema/qudt/value').length, 1);
  }
  // Template IRIs are relative to the document: <#SpecimenID>, not under the template URL.
  assert.match(result.graph, /<#SpecimenID>/);
  assert.ok(!ours.some((q) => q.subject.value.startsWith(`${TEMPLATE_URL}/`)));
});

test('catenax-batch-map.yaml (JSON payload mode): Batch.json as catenax-batch-map.rdf', async () => {
  const result = await createRdf(
    { mappingUrl: BATCH_MAPPING_URL, activity: ACTIVITY, now: NOW },
    seedLoader(),
  );
  assert.equal(result.filename, 'Batch-joined.ttl');
  assert.deepEqual([result.num_mappings_applied, result.num_mappings_skipped], [6, 0]);
  const document = BATCH_URL.replace(/Batch\.json$/, 'Batch-joined.ttl');
  const ours = await parse(result.graph, 'turtle');
  const { rest, derived, bodies } = withoutAdditions(ours);
  assert.equal(bodies.length, 0, 'plain JSON has no quantity-value bodies');
  assert.equal(derived.length, 6, 'one wasDerivedFrom per minted entity');
  await assertIsomorphic(rest, golden('rdfconverter/catenax-batch-map.rdf', document), 'joined graph');
});

test('createrdfupload form: data_content named by data_url gives the same triples, file named after data_url', async () => {
  const dataUrl = 'urn:uuid:580d3adf-1981-44a0-a214-13d6ceed9379';
  const seen: string[] = [];
  const upload = await createRdf(
    {
      mappingUrl: BATCH_MAPPING_URL,
      dataUrl,
      dataContent: readSeed('rdfconverter/Batch.json'),
      activity: ACTIVITY,
      upload: true,
      returnType: 'json-ld',
    },
    seedLoader({}, seen),
  );
  assert.equal(upload.filename, `${dataUrl}.jsonld`);
  assert.ok(!seen.includes(BATCH_URL), 'the data is not fetched');
  assert.ok(upload.graph.includes(`${dataUrl}#Batch_`));
  const fetched = await createRdf({ mappingUrl: BATCH_MAPPING_URL, activity: ACTIVITY }, seedLoader());
  const strip = (quads: Quad[]) =>
    quads
      .filter((q) => !q.predicate.value.startsWith(PROV) && !q.object.value.startsWith(PROV))
      .map(
        (q) =>
          `${q.predicate.value} ${q.object.termType === 'Literal' ? q.object.value : q.object.value.replace(/^.*#/, '#')}`,
      )
      .sort();
  assert.deepEqual(strip(await parse(upload.graph, 'json-ld')), strip(await parse(fetched.graph, 'turtle')));
});

test('every return_type is honoured (the original always wrote Turtle)', async () => {
  for (const [returnType, format] of [
    ['nt', 'nt'],
    ['xml', 'xml'],
    ['trig', 'trig'],
    ['n3', 'n3'],
    ['hext', 'hext'],
    ['longturtle', 'turtle'],
  ] as const) {
    const result = await createRdf(
      { mappingUrl: BATCH_MAPPING_URL, activity: ACTIVITY, returnType },
      seedLoader(),
    );
    const quads = await parse(result.graph, format, { baseIRI: BATCH_URL });
    assert.equal(quads.length, result.tripleCount, returnType);
  }
});

test('a mapping whose condition names no entity of the data reports the rule skipped (original: always 0)', async () => {
  const mapping = readSeed('rdfconverter/csvw-template-map.yaml').replace(
    '[str2, Vorkraft]',
    '[str2, vorkraft]',
  );
  const url = 'https://example.org/lowercase-map.yaml';
  const result = await createRdf({ mappingUrl: url, activity: ACTIVITY }, seedLoader({ [url]: mapping }));
  assert.deepEqual([result.num_mappings_applied, result.num_mappings_skipped], [6, 1]);
  assert.deepEqual(
    result.rules.filter((r) => !r.applied).map((r) => r.rule),
    ['PreLoadSetPointValue'],
  );
});

test('the joined file name: descriptor suffixes dropped, not the last dash part (original bug §5.12)', () => {
  assert.equal(joinedFileName('https://x.org/a/example-metadata.json', '.ttl', false), 'example-joined.ttl');
  assert.equal(joinedFileName('https://x.org/a/example.csvw.json', '.ttl', false), 'example-joined.ttl');
  assert.equal(joinedFileName('https://x.org/a/my-data-file.json', '.nt', false), 'my-data-file-joined.nt');
  assert.equal(joinedFileName('urn:uuid:1234', '.ttl', true), 'urn:uuid:1234.ttl');
});

test('a hand-authored mapping with a method: prefix joins its template too (the original dropped it)', async () => {
  const url = 'https://example.org/method-map.yaml';
  const mapping = readSeed('rdfconverter/csvw-template-map.yaml')
    .replace('  template: ', '  method: ')
    .replaceAll("'template:", "'method:");
  const result = await createRdf({ mappingUrl: url, activity: ACTIVITY }, seedLoader({ [url]: mapping }));
  assert.deepEqual([result.num_mappings_applied, result.num_mappings_skipped], [7, 0]);
  const quads = await parse(result.graph, 'turtle');
  const document = 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/example-joined.ttl';
  assert.ok(
    quads.some((x) => x.subject.value === `${document}#Specimen`),
    'the template is in the graph',
  );
  assert.ok(
    quads.some((x) => x.object.value === `${document}#SpecimenID`),
    'links point at the relative template IRIs',
  );
});

test('a Turtle descriptor is read as RDF: its graph joins the output; CSVW iterators do not match it (as the original)', async () => {
  const descriptorTtl = 'https://example.org/example-metadata.ttl';
  const turtle = await serializeDescriptorAsTurtle();
  const result = await createRdf(
    { mappingUrl: CSVW_MAPPING_URL, dataUrl: descriptorTtl, activity: ACTIVITY },
    seedLoader({ [descriptorTtl]: turtle }),
  );
  assert.deepEqual([result.num_mappings_applied, result.num_mappings_skipped], [0, 7]);
  const quads = await parse(result.graph, 'turtle');
  assert.ok(
    quads.some(
      (x) =>
        x.predicate.value === 'http://www.w3.org/2000/01/rdf-schema#label' &&
        x.object.value === 'aktuelle Probe',
    ),
  );
});

async function serializeDescriptorAsTurtle(): Promise<string> {
  return serialize(
    await parse(readSeed('csvtocsvw/example-metadata.json'), 'json-ld', { baseIRI: DESCRIPTOR_URL }),
    'turtle',
  );
}
