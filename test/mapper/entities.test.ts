// Types and entities of the seed documents, against the outputs of MapToMethod's own query
// functions (fixtures maptomethod/simulated/): same names, records, types and base namespace.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_DATA_TYPES,
  DEFAULT_TEMPLATE_TYPES,
  OWL_NAMED_INDIVIDUAL,
  checkTypesNotCut,
  listEntities,
  listTypes,
  localName,
  readDocument,
  readTypes,
} from '../../lib/mapper/index.ts';
import { serialize } from '../../lib/rdf/index.ts';
import { DomainError, type ErrorKind } from '../../lib/process/errors.ts';
import { read, readJson, seedDocuments } from './support.ts';

const rejects = (fn: () => unknown, kind: ErrorKind, pattern: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof DomainError && e.kind === kind && pattern.test(e.message));

describe('types', () => {
  test('the descriptor: the 10 sorted type IRIs of the original', async () => {
    const { data } = await seedDocuments();
    assert.deepEqual(listTypes(data), readJson('maptomethod/simulated/types-example-metadata.json'));
  });

  test('the template: the 22 sorted type IRIs of the original', async () => {
    const { template } = await seedDocuments();
    assert.deepEqual(listTypes(template), readJson('maptomethod/simulated/types-DIN_EN_ISO_527-3.json'));
  });

  test('the template read from RDF/XML and N-Triples gives the same types (format from the content)', async () => {
    const { template } = await seedDocuments();
    for (const format of ['xml', 'nt'] as const) {
      const text = await serialize(template.quads, format);
      const again = await readDocument(template.url, text, { field: 'url', fileName: 'template' });
      assert.deepEqual(listTypes(again), listTypes(template), format);
    }
  });
});

describe('entities', () => {
  test('the descriptor with the default types: 16 annotations and 6 columns, as the original', async () => {
    const { data } = await seedDocuments();
    const expected = readJson('maptomethod/simulated/entities-example-metadata.json');
    // Key order is not part of the comparison: the original's was its store's iteration order.
    assert.deepEqual(listEntities(data, DEFAULT_DATA_TYPES), expected);
  });

  test('entities come in document order (notes by row, then columns), as the original listed them here', async () => {
    const { data, template } = await seedDocuments();
    const keys = (path: string) => Object.keys(readJson<{ entities: object }>(path).entities);
    assert.deepEqual(
      Object.keys(listEntities(data, DEFAULT_DATA_TYPES).entities),
      keys('maptomethod/simulated/entities-example-metadata.json'),
    );
    assert.deepEqual(
      Object.keys(listEntities(template, [OWL_NAMED_INDIVIDUAL]).entities),
      keys('maptomethod/simulated/entities-DIN_EN_ISO_527-3-namedindividual.json'),
    );
  });

  test('the template with owl:NamedIndividual: 35 individuals with uri and type only', async () => {
    const { template } = await seedDocuments();
    const expected = readJson('maptomethod/simulated/entities-DIN_EN_ISO_527-3-namedindividual.json');
    assert.deepEqual(listEntities(template, [OWL_NAMED_INDIVIDUAL]), expected);
  });

  test('the template with the original template types: exact type matching finds 1', async () => {
    const { template } = await seedDocuments();
    const expected = readJson('maptomethod/simulated/entities-DIN_EN_ISO_527-3-defaulttypes.json');
    assert.deepEqual(listEntities(template, DEFAULT_TEMPLATE_TYPES), expected);
  });

  test('a `base` prefix gives the base namespace; otherwise it is <url>/', async () => {
    const turtle =
      '@prefix base: <https://purl.example/m/> .\nbase:X a <http://www.w3.org/2002/07/owl#NamedIndividual> .';
    const withBase = await readDocument('https://h/t.ttl', turtle, { field: 'url' });
    assert.equal(listEntities(withBase, [OWL_NAMED_INDIVIDUAL]).base_namespace, 'https://purl.example/m/');
    const plain = await readDocument('https://h/t.ttl', turtle.replaceAll('base:', 'b:'), { field: 'url' });
    assert.equal(listEntities(plain, [OWL_NAMED_INDIVIDUAL]).base_namespace, 'https://h/t.ttl/');
  });

  test('the entity name is what follows the last /, # or :', () => {
    assert.equal(localName('https://h/example.csv/table-1-Standardkraft'), 'table-1-Standardkraft');
    assert.equal(localName('http://www.w3.org/2002/07/owl#Thing'), 'Thing');
    assert.equal(localName('urn:x:y'), 'y');
  });

  test('an entity named __proto__ is an ordinary key', async () => {
    const doc = await readDocument('https://h/d.ttl', '<https://h/__proto__> a <https://h/T> .', {
      field: 'url',
    });
    const { entities } = listEntities(doc, ['https://h/T']);
    assert.deepEqual(Object.keys(entities), ['__proto__']);
    assert.equal(entities['__proto__']?.uri, 'https://h/__proto__');
  });
});

describe('the types parameter', () => {
  test('comma-separated IRIs, prefix:name forms, blanks dropped, nothing means the default', () => {
    assert.deepEqual(readTypes(' csvw:Column , ,owl:NamedIndividual', 'types', DEFAULT_DATA_TYPES), [
      'http://www.w3.org/ns/csvw#Column',
      OWL_NAMED_INDIVIDUAL,
    ]);
    assert.deepEqual(readTypes(undefined, 'types', DEFAULT_DATA_TYPES), DEFAULT_DATA_TYPES);
    assert.deepEqual(readTypes('', 'types', DEFAULT_DATA_TYPES), DEFAULT_DATA_TYPES);
    assert.deepEqual(readTypes(['https://h/T'], 'data_types', []), ['https://h/T']);
  });

  test('bad entries are 400s naming the field', () => {
    rejects(() => readTypes('Column', 'types', []), 'malformed', /^types: "Column" is not an IRI/);
    rejects(
      () => readTypes('zz:Column', 'types', []),
      'malformed',
      /^types: .*unknown prefix or scheme "zz"/,
    );
    rejects(() => readTypes('http://a b', 'types', []), 'malformed', /^types: .*not an IRI/);
    rejects(() => readTypes([1], 'data_types', []), 'invalid', /^data_types: /);
  });

  test("a type cut at an unencoded '#' is a 400 saying to write %23", async () => {
    const { template } = await seedDocuments();
    rejects(
      () => checkTypesNotCut(['http://www.w3.org/2002/07/owl'], template, 'types'),
      'malformed',
      /^types: http:\/\/www\.w3\.org\/2002\/07\/owl is not a type of the document, but .*owl#NamedIndividual.*%23/,
    );
    checkTypesNotCut([OWL_NAMED_INDIVIDUAL, 'https://h/Absent'], template, 'types');
  });
});

describe('reading documents', () => {
  test('a document that is not RDF, or holds nothing, is a 422 naming the field', async () => {
    await assert.rejects(
      readDocument('https://h/x.csv', 'a;b\n1;2\n', { field: 'url', contentType: 'text/csv' }),
      (e: unknown) =>
        e instanceof DomainError && e.kind === 'invalid' && /^url: could not parse/.test(e.message),
    );
    await assert.rejects(
      readDocument('https://h/x', '<!DOCTYPE html><html><body>hi</body></html>', { field: 'template_url' }),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid' && /^template_url: /.test(e.message),
    );
    await assert.rejects(
      readDocument('https://h/x.ttl', '  \n', { field: 'url' }),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid' && /no RDF statements/.test(e.message),
    );
  });

  test('Turtle served under a JSON content type is still read (the content decides)', async () => {
    const doc = await readDocument('https://h/t', read('maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl'), {
      field: 'url',
      contentType: 'application/json',
    });
    assert.notEqual(doc.format, 'json-ld');
    assert.deepEqual(listTypes(doc), readJson('maptomethod/simulated/types-DIN_EN_ISO_527-3.json'));
  });
});
