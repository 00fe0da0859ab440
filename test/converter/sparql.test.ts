// yarrrmltosparql: the query is run, in the embedded SPARQL store (oxigraph), against the
// mapping's own output — the engine's result and createrdf's joined graph — and must give back
// the values of the data (read here from the data files themselves).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Store, type Term } from 'oxigraph';
import { createRdf } from '../../lib/converter/index.ts';
import { yarrrmlToSparql } from '../../lib/converter/sparql.ts';
import { executeMapping, NQuadsCollector, readYarrrml, yarrrmlToMapping } from '../../lib/rml/index.ts';
import {
  BATCH_MAPPING_URL,
  BATCH_URL,
  CSVW_MAPPING_URL,
  DESCRIPTOR_URL,
  readSeed,
  seedLoader,
} from './support.ts';

type Row = Map<string, Term>;

function run(query: string, load: (store: Store) => void): Row[] {
  const store = new Store();
  load(store);
  return store.query(query) as Row[];
}

const value = (row: Row, name: string) => row.get(name)?.value;

async function engineOutput(file: string, url: string, data: string, baseIri?: string): Promise<string> {
  const sink = new NQuadsCollector();
  await executeMapping(yarrrmlToMapping(readYarrrml(readSeed(file))), sink, {
    sources: { [url]: readSeed(data) },
    ...(baseIri ? { baseIri } : {}),
  });
  return sink.text();
}

test('Catena-X: every rule has its row, with the values of Batch.json', async () => {
  const query = yarrrmlToSparql(readSeed('rdfconverter/catenax-batch-map.yaml'));
  const batch = JSON.parse(readSeed('rdfconverter/Batch.json')) as {
    catenaXId: string;
    localIdentifiers: { key: string; value: string }[];
    manufacturingInformation: {
      date: string;
      country: string;
      sites: { catenaXsiteId: string; function: string }[];
    };
    partTypeInformation: { manufacturerPartId: string; partClassification: { classificationID: string }[] };
  };
  const nquads = await engineOutput(
    'rdfconverter/catenax-batch-map.yaml',
    BATCH_URL,
    'rdfconverter/Batch.json',
    'http://labld.test/out#',
  );
  const joined = await createRdf(
    { mappingUrl: BATCH_MAPPING_URL, activity: 'http://labld.test/api' },
    seedLoader(),
  );
  for (const rows of [
    run(query, (s) => s.load(nquads, { format: 'application/n-quads' })),
    run(query, (s) => s.load(joined.graph, { format: 'text/turtle' })),
  ]) {
    const rule = (name: string) => rows.filter((r) => value(r, 'rule') === name);
    assert.deepEqual([...new Set(rows.map((r) => value(r, 'rule')))].sort(), [
      'batch',
      'identifiers_list',
      'manuinfo',
      'partClassification',
      'parttypeinfo',
      'sites',
    ]);
    assert.equal(value(rule('batch')[0]!, 'batch_catenaXId'), batch.catenaXId);
    assert.equal(value(rule('identifiers_list')[0]!, 'identifiers_list_key'), batch.localIdentifiers[0]!.key);
    assert.equal(
      value(rule('identifiers_list')[0]!, 'identifiers_list_value'),
      batch.localIdentifiers[0]!.value,
    );
    const manu = rule('manuinfo')[0]!;
    assert.equal(value(manu, 'manuinfo__manufacturingInformation_date'), batch.manufacturingInformation.date);
    assert.equal(
      value(manu, 'manuinfo__manufacturingInformation_country'),
      batch.manufacturingInformation.country,
    );
    assert.equal(
      value(rule('sites')[0]!, 'sites_function'),
      batch.manufacturingInformation.sites[0]!.function,
    );
    assert.equal(
      value(rule('partClassification')[0]!, 'partClassification_classificationID'),
      batch.partTypeInformation.partClassification[0]!.classificationID,
    );
    // Links: the batch row names the subjects of the rules it links to.
    assert.equal(value(rule('batch')[0]!, 'batch_manuinfo'), value(manu, 'manuinfo'));
    assert.equal(value(manu, 'manuinfo_sites'), value(rule('sites')[0]!, 'sites'));
  }
});

test('CSVW mapping: one row per rule, the matched entity and its template individual', async () => {
  const yaml = readSeed('rdfconverter/csvw-template-map.yaml');
  const query = yarrrmlToSparql(yaml);
  const descriptor = JSON.parse(readSeed('csvtocsvw/example-metadata.json')) as {
    notes: { '@id': string; label: string }[];
    tables: { tableSchema: { columns: { '@id': string; name: string }[] } }[];
  };
  const entities = [
    ...descriptor.notes.map((n) => [n.label, n['@id']]),
    ...descriptor.tables.flatMap((t) => t.tableSchema.columns.map((c) => [c.name, c['@id']])),
  ];
  const document = readYarrrml(yaml) as {
    mappings: Record<string, { condition: { parameters: string[][] } }>;
  };
  const expected = Object.entries(document.mappings)
    .map(([rule, r]) => [rule, entities.find(([name]) => name === r.condition.parameters[1]![1])![1]])
    .sort();
  const nquads = await engineOutput(
    'rdfconverter/csvw-template-map.yaml',
    DESCRIPTOR_URL,
    'csvtocsvw/example-metadata.json',
  );
  const joined = await createRdf(
    { mappingUrl: CSVW_MAPPING_URL, activity: 'http://labld.test/api' },
    seedLoader(),
  );
  for (const rows of [
    run(query, (s) => s.load(nquads, { format: 'application/n-quads' })),
    run(query, (s) => s.load(joined.graph, { format: 'text/turtle' })),
  ]) {
    const got = rows.map((r) => [value(r, 'rule')!, value(r, value(r, 'rule')!)!]).sort();
    assert.deepEqual(got, expected);
    for (const row of rows) {
      const rule = value(row, 'rule')!;
      assert.match(value(row, `${rule}_template`)!, new RegExp(`[/#]${rule}$`));
    }
  }
});

test('a mapping the translator refuses is a 422 naming mapping_url', () => {
  assert.throws(
    () => yarrrmlToSparql('mappings:\n  m:\n    sources: [nowhere]\n    s: x\n'),
    (error: Error & { kind?: string }) => error.kind === 'invalid' && /mapping_url/.test(error.message),
  );
});
