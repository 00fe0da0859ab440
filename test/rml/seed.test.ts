// The seed RDFConverter examples: our engine, fed the parser's translation of the original
// YARRRML, must produce exactly the mapping triples of the original's committed outputs (the
// converter's post-processing — template IRIs made relative, prov — is left to that issue).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Parser } from 'n3';
import { executeMapping, NQuadsCollector } from '../../lib/rml/index.ts';
import { readYarrrml, yarrrmlToMapping } from '../../lib/rml/yarrrml.ts';
import { readNQuads } from './support.ts';
import { sharedDir } from '../support/shared.ts';

const SEED = `${sharedDir}fixtures/seed-examples/`;
const read = (path: string) => readFileSync(`${SEED}${path}`, 'utf8');
/** Stands in for the document the original wrote; its `<#x>` IRIs resolve against it. */
const DOC = 'http://labld.test/output';
const BFO_LINK = 'http://purl.obolibrary.org/obo/RO_0010002';

function lines(
  quads: {
    subject: { value: string };
    predicate: { value: string };
    object: { value: string; termType: string };
  }[],
) {
  return quads
    .map(
      (q) =>
        `${q.subject.value} ${q.predicate.value} ${q.object.termType === 'Literal' ? JSON.stringify(q.object.value) : q.object.value}`,
    )
    .sort();
}

test('csvw-template-map.yaml yields exactly the 7 link triples of csvw-template-map.rdf', async () => {
  const yarrrml = readYarrrml(read('rdfconverter/csvw-template-map.yaml'));
  const descriptorUrl = 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/example-metadata.json';
  const sink = new NQuadsCollector();
  const result = await executeMapping(yarrrmlToMapping(yarrrml), sink, {
    sources: { [descriptorUrl]: read('csvtocsvw/example-metadata.json') },
  });
  // The converter makes template IRIs relative to the output document (research §3.4 step 11).
  const template = (yarrrml.prefixes as Record<string, string>).template!;
  const ours = lines(readNQuads(sink.text().replaceAll(`<${template}`, `<${DOC}#`)));
  const expected = lines(
    new Parser({ baseIRI: DOC })
      .parse(read('rdfconverter/csvw-template-map.rdf'))
      .filter((q) => q.predicate.value === BFO_LINK),
  );
  assert.equal(expected.length, 7);
  assert.deepEqual(ours, expected);
  assert.deepEqual(
    result.statistics.map((s) => [s.name, s.passed, s.triples]),
    [
      ['SpecimenID', 1, 1],
      ['WidthMeasurement', 1, 1],
      ['ThicknessMeasurement', 1, 1],
      ['ForceMeasurement', 1, 1],
      ['LengthMeasurement', 1, 1],
      ['CrossheadSpeedSetPointValue', 1, 1],
      ['PreLoadSetPointValue', 1, 1],
    ],
  );
  const specimen = result.statistics[0]!;
  assert.ok(specimen.iterations > 1, 'every annotation is looked at');
  assert.equal(specimen.comparisons, specimen.iterations);
  assert.ok(specimen.compared.some((c) => c.left === 'aktuelle Probe' && c.result));
});

test("catenax-batch-map.yaml (base '#', joins across iterators) yields the mapping triples of catenax-batch-map.rdf", async () => {
  const yarrrml = readYarrrml(read('rdfconverter/catenax-batch-map.yaml'));
  const batchUrl =
    'https://raw.githubusercontent.com/eclipse-tractusx/sldt-semantic-models/refs/heads/main/io.catenax.batch/3.0.1/gen/Batch.json';
  const sink = new NQuadsCollector();
  const result = await executeMapping(yarrrmlToMapping(yarrrml), sink, {
    baseIri: `${DOC}#`,
    sources: { [batchUrl]: read('rdfconverter/Batch.json') },
  });
  const ours = lines(readNQuads(sink.text()));
  const expected = lines(
    new Parser({ baseIRI: DOC })
      .parse(read('rdfconverter/catenax-batch-map.rdf'))
      .filter((q) => q.subject.value.startsWith(`${DOC}#`)),
  );
  assert.equal(expected.length, 23);
  assert.deepEqual(ours, expected);
  assert.ok(result.statistics.every((s) => s.passed > 0 && s.triples > 0));
});

test('the legacy exyarrrml.yaml: multi-source rules, empty-string conditions, a \\xE4 escape', async () => {
  const url =
    'https://raw.githubusercontent.com/Mat-O-Lab/resources/main/mechanics/data/polymer_tensile/Zugversuch_eng_ETFE-Ref%2BGroesseneffekt2-metadata.json';
  const descriptor = {
    notes: [
      { '@id': 'n1', label: '' },
      { '@id': 'n2', label: 'Einspannlänge' },
    ],
    tableSchema: { columns: [{ '@id': 'c1', label: 'Probendicke a0' }] },
  };
  const mapping = yarrrmlToMapping(readYarrrml(read('rdfconverter/resources/exyarrrml.yaml')));
  const sink = new NQuadsCollector();
  const result = await executeMapping(mapping, sink, { sources: { [url]: JSON.stringify(descriptor) } });
  // Two sources per rule: one triples map each, with the rule's name.
  assert.equal(mapping.triplesMaps.length, 14);
  const fired = result.statistics.filter((s) => s.passed > 0).map((s) => `${s.name} ${s.iterations}`);
  // Three rules compare with '' (n1 matches), one with Einspannlänge (n2), one with Probendicke a0 (c1).
  assert.deepEqual(fired.sort(), [
    'ForceMeasurementInformation 2',
    'LenghtMeasurementInformation 2',
    'StartLenghtMeasurementInformation 2',
    'TestTimeInterval 2',
    'ThicknessMeasurementInformation 1',
  ]);
  const subjects = new Set(readNQuads(sink.text()).map((q) => q.subject.value.replace(/^.*\//, '')));
  assert.deepEqual([...subjects].sort(), ['c1', 'n1', 'n2']);
});
