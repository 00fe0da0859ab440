// POST /api/mapping's domain on the seed: MapToMethod's example request gives its golden
// example-map.yaml as YAML data (key order included), both `map` orientations give the same
// rules, an entry that resolves in neither is a 400 naming it, and the output is RML that
// labld's engine runs to the link triples the original converter wrote.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import yaml from 'js-yaml';
import { Parser, type Quad } from 'n3';
import { DomainError, type ErrorKind } from '../../lib/process/errors.ts';
import {
  findJsonSource,
  generateMapping,
  jsonSources,
  mappingFileName,
  readDocument,
  readMappingOptions,
  type MappingRequest,
} from '../../lib/mapper/index.ts';
import { isomorphic } from '../../lib/rdf/index.ts';
import {
  executeMapping,
  NQuadsCollector,
  readYarrrml,
  yarrrmlToMapping,
  yarrrmlToRmlQuads,
} from '../../lib/rml/index.ts';
import { readNQuads } from '../rml/support.ts';
import {
  DESCRIPTOR_PATH,
  EXPERIMENT_TIME_RULE,
  goldenMapping,
  read,
  seedDocuments,
  seedRequest,
} from './support.ts';

const refusedAs = (kind: ErrorKind, pattern: RegExp) => (e: unknown) =>
  e instanceof DomainError && e.kind === kind && pattern.test(e.message);

async function generate(request: MappingRequest) {
  const { data, template } = await seedDocuments();
  return generateMapping(readMappingOptions(request), data, template);
}

/** request.json without its misspelt entry, and with it corrected. */
function seedVariants() {
  const request = seedRequest();
  const without = structuredClone(request);
  delete without.map['ExperimentTimeInterval'];
  const corrected = structuredClone(request);
  corrected.map['ExperimentTimeInterval'] = 'table-1-Pruefzeit';
  return { request, without, corrected };
}

type Rules = Record<string, Record<string, unknown>>;

describe('the seed request', () => {
  test('request.json as it stands: 400 naming table-1-Prüfzeit with table-1-Pruefzeit as suggestion', async () => {
    await assert.rejects(
      generate(seedRequest()),
      refusedAs(
        'malformed',
        /^map: 1 of 8 entries do not resolve .*"ExperimentTimeInterval": "table-1-Prüfzeit" — .*closest: table-1-Pruefzeit/,
      ),
    );
  });

  test('without that entry: equal as YAML data to example-map.yaml, key order included', async () => {
    const out = await generate(seedVariants().without);
    const golden = goldenMapping();
    const ours = yaml.load(out.yaml) as Record<string, unknown>;
    assert.deepEqual(ours, golden);
    assert.deepEqual(Object.keys(ours), Object.keys(golden));
    assert.deepEqual(Object.keys(ours.prefixes as object), Object.keys(golden.prefixes as object));
    assert.deepEqual(Object.keys(ours.sources as object), ['annotations', 'columns']);
    assert.deepEqual(Object.keys(ours.mappings as object), Object.keys(golden.mappings as object));
    for (const [name, rule] of Object.entries(ours.mappings as Rules)) {
      assert.deepEqual(Object.keys(rule), Object.keys((golden.mappings as Rules)[name]!), name);
    }
    assert.equal(ours.use_template_rowwise, 'false');
    assert.equal(out.filename, 'example-map.yaml');
  });

  test('with the entry corrected: the eighth rule, ExperimentTimeInterval, in the same form', async () => {
    const out = await generate(seedVariants().corrected);
    const ours = yaml.load(out.yaml) as { mappings: Rules };
    const golden = goldenMapping() as { mappings: Rules };
    assert.deepEqual(ours, {
      ...golden,
      mappings: { ...golden.mappings, ExperimentTimeInterval: EXPERIMENT_TIME_RULE },
    });
    // The column rules keep request order after the annotation rules, as the original groups them.
    assert.deepEqual(Object.keys(ours.mappings).slice(-3), [
      'ForceMeasurement',
      'LengthMeasurement',
      'ExperimentTimeInterval',
    ]);
  });
});

describe('map orientation', () => {
  test("the spec's orientation {data entity: template individual IRI} gives the same mapping", async () => {
    const { without } = seedVariants();
    const base = `${without.template_url}/`;
    const flipped = Object.fromEntries(
      Object.entries(without.map).map(([individual, entity]) => [entity, `${base}${individual}`]),
    );
    const original = await generate(without);
    const spec = await generate({ ...without, map: flipped });
    assert.deepEqual(yaml.load(spec.yaml), yaml.load(original.yaml));
    assert.ok(spec.entries.every((e) => e.orientation === 'entity→individual'));
    assert.ok(original.entries.every((e) => e.orientation === 'individual→entity'));
  });

  test('each entry is read its own way: a map mixing both orientations, and individual names or template: CURIEs', async () => {
    const { without } = seedVariants();
    const mixed = {
      SpecimenID: 'AktuelleProbe0',
      ProbenbreiteB03: 'WidthMeasurement',
      ProbendickeA04: 'template:ThicknessMeasurement',
      'table-1-Standardkraft': `${without.template_url}/ForceMeasurement`,
      LengthMeasurement: 'table-1-Standardweg',
      CrossheadSpeedSetPointValue: 'Pruefgeschwindigkeit5',
      Vorkraft6: 'PreLoadSetPointValue',
    };
    const out = await generate({ ...without, map: mixed });
    assert.deepEqual(yaml.load(out.yaml), goldenMapping());
    // Entries come grouped as the rules are: annotation rules first, then column rules.
    assert.deepEqual(
      out.entries.map((e) => `${e.individual} ${e.orientation}`),
      [
        'SpecimenID individual→entity',
        'WidthMeasurement entity→individual',
        'ThicknessMeasurement entity→individual',
        'CrossheadSpeedSetPointValue individual→entity',
        'PreLoadSetPointValue entity→individual',
        'ForceMeasurement entity→individual',
        'LengthMeasurement individual→entity',
      ],
    );
  });

  test('every unresolved entry is listed, each with what failed and the closest names', async () => {
    const { without } = seedVariants();
    const map = {
      ...without.map,
      ExperimentTimeInterval: 'table-1-Prüfzeit',
      SpecimenId: 'AktuelleProbe0',
      'table-1-Dehnung': 'StrainMeasurment',
      Nothing: 'Nowhere',
    };
    const error = await generate({ ...without, map }).then(
      () => assert.fail('expected a 400'),
      (e: unknown) => e as DomainError,
    );
    assert.equal(error.kind, 'malformed');
    assert.equal(error.field, 'map');
    assert.match(error.message, /^map: 4 of 11 entries do not resolve/);
    assert.match(
      error.message,
      /"ExperimentTimeInterval": "table-1-Prüfzeit" — ExperimentTimeInterval is a template individual, but there is no data entity table-1-Prüfzeit \(closest: table-1-Pruefzeit\)/,
    );
    assert.match(
      error.message,
      /"SpecimenId": "AktuelleProbe0" — AktuelleProbe0 is a data entity, but there is no template individual SpecimenId \(closest: SpecimenID/,
    );
    assert.match(
      error.message,
      /"table-1-Dehnung": "StrainMeasurment" — table-1-Dehnung is a data entity, but there is no template individual StrainMeasurment/,
    );
    assert.match(error.message, /"Nothing": "Nowhere" — neither is a template individual or a data entity/);
  });
});

describe('request fields', () => {
  const { without } = seedVariants();

  test('use_template_rowwise true is written as the string true', async () => {
    const out = await generate({ ...without, use_template_rowwise: true });
    assert.equal((yaml.load(out.yaml) as { use_template_rowwise: unknown }).use_template_rowwise, 'true');
    assert.match(out.yaml, /^use_template_rowwise: 'true'$/m);
  });

  test('predicate: full IRIs and known prefix:name forms; the rest is a 400', async () => {
    const po = async (predicate: string) => {
      const out = await generate({ ...without, predicate });
      return ((yaml.load(out.yaml) as { mappings: Rules }).mappings.SpecimenID!.po as string[][])[0]![0];
    };
    assert.equal(await po('https://example.org/relatesTo'), 'https://example.org/relatesTo');
    assert.equal(await po('bfo:RO_0000087'), 'http://purl.obolibrary.org/obo/RO_0000087');
    for (const bad of ['RO_0010002', 'zz:relatesTo', 'http://a b', '<http://x>', 'urn:ex:relatesTo']) {
      await assert.rejects(
        generate({ ...without, predicate: bad }),
        refusedAs('malformed', /^predicate: /),
        bad,
      );
    }
  });

  test('data_types choose the entities: columns only leaves the annotation entries unresolved', async () => {
    await assert.rejects(
      generate({ ...without, data_types: ['csvw:Column'] }),
      refusedAs('malformed', /^map: 5 of 7 entries do not resolve/),
    );
    const onlyColumns = { ForceMeasurement: 'table-1-Standardkraft' };
    const out = await generate({
      ...without,
      map: onlyColumns,
      data_types: ['http://www.w3.org/ns/csvw#Column'],
    });
    assert.deepEqual(Object.keys((yaml.load(out.yaml) as { sources: object }).sources), ['columns']);
  });

  test('template_types add slots besides owl:NamedIndividual', async () => {
    const turtle = [
      '@prefix : <https://h/t.ttl/> .',
      '@prefix ex: <https://h/vocab#> .',
      ':Slot a ex:Measurement .',
    ].join('\n');
    const { data } = await seedDocuments();
    const template = await readDocument('https://h/t.ttl', turtle, { field: 'template_url' });
    const request = {
      data_url: data.url,
      template_url: template.url,
      map: { Slot: 'table-1-Standardkraft' },
    };
    assert.throws(
      () => generateMapping(readMappingOptions(request), data, template),
      refusedAs('malformed', /^template_url: the template has no owl:NamedIndividual/),
    );
    const out = generateMapping(
      readMappingOptions({ ...request, template_types: ['https://h/vocab#Measurement'] }),
      data,
      template,
    );
    assert.match(out.yaml, /template:Slot~iri/);
  });

  test('an individual outside the template namespace is written as a full IRI', async () => {
    const turtle = '<https://other/ns#Slot> a <http://www.w3.org/2002/07/owl#NamedIndividual> .';
    const { data } = await seedDocuments();
    const template = await readDocument('https://h/t.ttl', turtle, { field: 'template_url' });
    const out = generateMapping(
      readMappingOptions({ map: { Slot: 'table-1-Standardkraft' } }),
      data,
      template,
    );
    assert.match(out.yaml, /https:\/\/other\/ns#Slot~iri/);
  });

  test('an empty map is a 400; a map that is not an object of strings a 422', () => {
    assert.throws(() => readMappingOptions({ map: {} }), refusedAs('malformed', /^map: is empty/));
    assert.throws(() => readMappingOptions({ map: ['a'] }), refusedAs('invalid', /^map: must be an object/));
    assert.throws(
      () => readMappingOptions({ map: { a: 1 } }),
      refusedAs('invalid', /^map: the value of "a" must be a string/),
    );
    assert.throws(
      () => readMappingOptions({ map: { a: 'b' }, use_template_rowwise: 'yes' }),
      refusedAs('invalid', /^use_template_rowwise: /),
    );
  });

  test('a descriptor with no columns or annotations is a 400 naming data_url', async () => {
    const { template } = await seedDocuments();
    const data = await readDocument(
      'https://h/d.json',
      '{"@context": "http://www.w3.org/ns/csvw", "@type": "TableGroup", "@id": "https://h/d"}',
      {
        field: 'data_url',
      },
    );
    assert.throws(
      () => generateMapping(readMappingOptions({ map: { SpecimenID: 'X' } }), data, template),
      refusedAs(
        'malformed',
        /^data_url: the document has no entities of the types http:\/\/www\.w3\.org\/ns\/oa#Annotation, http:\/\/www\.w3\.org\/ns\/csvw#Column/,
      ),
    );
  });

  test('a descriptor that is not JSON cannot be iterated with JSONPath: 422 naming data_url', async () => {
    const { data, template } = await seedDocuments();
    const { serialize } = await import('../../lib/rdf/index.ts');
    const turtle = await readDocument(data.url, await serialize(data.quads, 'turtle'), { field: 'data_url' });
    assert.throws(
      () => generateMapping(readMappingOptions(seedVariants().without), turtle, template),
      refusedAs('invalid', /^data_url: the mapping reads the descriptor with JSONPath, so it must be JSON/),
    );
  });
});

test('download names as the original makes them', () => {
  assert.equal(mappingFileName('https://h/examples/example-metadata.json'), 'example-map.yaml');
  assert.equal(mappingFileName('https://h/Batch.json'), 'Batch-map.yaml');
  assert.equal(mappingFileName('https://h/my-data-file.json'), 'my-data-map.yaml');
  assert.equal(mappingFileName('https://ckan/dataset/x/resource/y/download/upload'), 'upload-map.yaml');
  assert.equal(mappingFileName('https://h/'), 'data-map.yaml');
});

describe('the generated mapping runs', () => {
  const LINK = 'http://purl.obolibrary.org/obo/RO_0010002';
  const DOC = 'http://labld.test/output';

  const linkLines = (quads: Quad[]) =>
    quads
      .filter((q) => q.predicate.value === LINK)
      .map((q) => `${q.subject.value} ${q.object.value}`)
      .sort();

  async function run(request: MappingRequest) {
    const out = await generate(request);
    const sink = new NQuadsCollector();
    const result = await executeMapping(yarrrmlToMapping(readYarrrml(out.yaml)), sink, {
      sources: { [seedRequest().data_url]: read(DESCRIPTOR_PATH) },
    });
    return { out, result, quads: readNQuads(sink.text()) as Quad[] };
  }

  test("labld's engine yields exactly the 7 link triples the original converter wrote for this mapping", async () => {
    const { quads, result } = await run(seedVariants().without);
    const template = `${seedRequest().template_url}/`;
    // The original converter made template IRIs relative to its output document (csvw-template-map.rdf).
    const ours = linkLines(quads).map((line) => line.replace(template, `${DOC}#`));
    const expected = linkLines(
      new Parser({ baseIRI: DOC }).parse(read('rdfconverter/csvw-template-map.rdf')),
    );
    assert.equal(expected.length, 7);
    assert.deepEqual(ours, expected);
    assert.ok(result.statistics.every((s) => s.passed === 1 && s.triples === 1));
  });

  test('the corrected request adds the eighth link, table-1-Pruefzeit → ExperimentTimeInterval', async () => {
    const { quads } = await run(seedVariants().corrected);
    const lines = linkLines(quads);
    assert.equal(lines.length, 8);
    assert.ok(
      lines.includes(
        'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/example.csv/table-1-Pruefzeit ' +
          'https://github.com/Mat-O-Lab/MSEO/raw/main/methods/DIN_EN_ISO_527-3.drawio.ttl/ExperimentTimeInterval',
      ),
    );
  });

  test('@rmlio/yarrrml-parser reading the YAML text with its own YAML reader gives the same RML', async () => {
    const out = await generate(seedVariants().corrected);
    const require = createRequire(import.meta.url);
    const Generator = require('@rmlio/yarrrml-parser/lib/rml-generator') as new (options: object) => {
      convert(y: string): Quad[];
    };
    // As lib/rml calls it: without the parser's void metadata block.
    const stock = new Generator({ includeMetadata: false }).convert(out.yaml);
    const ours = yarrrmlToRmlQuads(out.document).quads;
    assert.ok(stock.length > 100);
    assert.ok(await isomorphic(stock, ours));
  });
});

describe('JSON sources (the original’s iterator search)', () => {
  test('the first array, depth first in key order, whose first element has the property', () => {
    const doc = {
      '@context': ['http://www.w3.org/ns/csvw', { label: 'x' }],
      notes: [{ label: 'a', 'oa:hasBody': [{ name: 'not this one: notes come first' }] }],
      tables: [{ tableSchema: { columns: [{ name: 'c' }] } }],
    };
    assert.deepEqual(findJsonSource(doc, 'label'), { name: 'annotations', iterator: '$.notes[*]' });
    // A nested array is named after its own key, lower-cased.
    assert.deepEqual(findJsonSource(doc, 'name'), {
      name: 'oa:hasbody',
      iterator: "$.notes[*]['oa:hasBody'][*]",
    });
    assert.deepEqual(findJsonSource({ Items: [{ name: 1 }] }, 'name'), {
      name: 'items',
      iterator: '$.Items[*]',
    });
    assert.deepEqual(findJsonSource({ myTables: [{ name: 1 }] }, 'name'), {
      name: 'tables',
      iterator: '$.myTables[*]',
    });
    assert.deepEqual(findJsonSource([{ name: 1 }], 'name'), { name: 'name_source', iterator: '$[*]' });
    assert.equal(findJsonSource({ notes: [1, { label: 'second element only' }] }, 'label'), undefined);
  });

  test('two properties in arrays of the same name get two sources; a property without an array is a 422', () => {
    const text = JSON.stringify({ columns: [{ name: 'n', label: 'l' }] });
    assert.deepEqual(
      [...jsonSources(text, ['name', 'label'], 'data_url').values()].map((s) => s.name),
      ['columns', 'columns_label'],
    );
    assert.throws(
      () => jsonSources(text, ['title'], 'data_url'),
      refusedAs('invalid', /^data_url: no array of objects with a "title" key/),
    );
  });

  test('deep nesting is walked without recursion', () => {
    let deep: unknown = [{ label: 'x' }];
    for (let i = 0; i < 20000; i++) deep = { a: deep };
    assert.equal(
      findJsonSource(deep, 'label')?.iterator.length,
      '$'.length + 20000 * '.a'.length + '[*]'.length,
    );
  });
});

describe('labels the YARRRML parser would misread', () => {
  const descriptorWith = (label: string) =>
    JSON.stringify({
      '@context': [
        'http://www.w3.org/ns/csvw',
        { oa: 'http://www.w3.org/ns/oa#', label: 'http://www.w3.org/2000/01/rdf-schema#label' },
      ],
      notes: [{ '@id': 'https://h/x.csv/Zeit0', '@type': 'oa:Annotation', label }],
    });

  test('a label with colons (read as prefix:name by the parser, as the original wrote it) still matches', async () => {
    const { template } = await seedDocuments();
    for (const label of ['Zeit [hh:mm]', 'data:x', 'Start: 12:30, see http://h/x']) {
      const text = descriptorWith(label);
      const data = await readDocument('https://h/x-metadata.json', text, { field: 'data_url' });
      const out = generateMapping(readMappingOptions({ map: { SpecimenID: 'Zeit0' } }), data, template);
      const sink = new NQuadsCollector();
      const result = await executeMapping(yarrrmlToMapping(readYarrrml(out.yaml)), sink, {
        sources: { 'https://h/x-metadata.json': text },
      });
      assert.deepEqual(
        result.statistics.map((s) => [s.name, s.passed, s.triples]),
        [['SpecimenID', 1, 1]],
        label,
      );
    }
  });

  test('a label the parser reads as a template ($( or a backslash) is a 422 naming the entity', async () => {
    const { template } = await seedDocuments();
    for (const label of ['Kraft $(N)', 'C:\\Daten']) {
      const data = await readDocument('https://h/x-metadata.json', descriptorWith(label), {
        field: 'data_url',
      });
      assert.throws(
        () => generateMapping(readMappingOptions({ map: { SpecimenID: 'Zeit0' } }), data, template),
        refusedAs('invalid', /^map: the label of Zeit0 \(.*\) holds "\$\(" or a backslash/),
        label,
      );
    }
  });
});

test('an individual outside the template namespace without an http(s) IRI is a 422 naming it', async () => {
  const { data } = await seedDocuments();
  const turtle = '<urn:x:Slot> a <http://www.w3.org/2002/07/owl#NamedIndividual> .';
  const template = await readDocument('https://h/t.ttl', turtle, { field: 'template_url' });
  assert.throws(
    () => generateMapping(readMappingOptions({ map: { Slot: 'table-1-Standardkraft' } }), data, template),
    refusedAs('invalid', /^map: the template individual urn:x:Slot lies outside/),
  );
});

test('a map with thousands of unresolved entries: a bounded 400 that still counts them all', async () => {
  const map = Object.fromEntries(
    Array.from({ length: 5000 }, (_, i) => [`Nothing${i}`, `table-1-Missing${i}`]),
  );
  const error = await generate({ map }).then(
    () => assert.fail('expected a 400'),
    (e: unknown) => e as DomainError,
  );
  assert.equal(error.kind, 'malformed');
  assert.match(error.message, /^map: 5000 of 5000 entries do not resolve/);
  assert.match(error.message, /; and 4900 more$/);
  assert.ok(error.message.length < 64 * 1024, `${error.message.length} characters`);
});
