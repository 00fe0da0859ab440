// Records built from the openBIS test double's answers: the spec's contract, the original's
// obis terms and IRIs, the hierarchy both ways, every format read back to the same graph, and
// each defect of the original (research §3.10) fixed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type * as RDF from '@rdfjs/types';
import { OpenbisClient } from '../../lib/extractor/openbis/client.ts';
import { extract, type Extracted, type RecordRequest } from '../../lib/extractor/extract.ts';
import { render, type Representation } from '../../lib/extractor/render.ts';
import { RecordIris } from '../../lib/extractor/records/iris.ts';
import { RecordGraph } from '../../lib/extractor/records/graph.ts';
import { propertyValue } from '../../lib/extractor/records/values.ts';
import { isomorphic, parse } from '../../lib/rdf/index.ts';
import { startOpenbisDouble, type OpenbisDouble } from '../support/openbis-double.ts';
import { madeUpBytes } from '../support/openbis-double-data.ts';

const NS = 'http://labld.test/extractor/';
const OBJECT = '20230531140916169-35';
const DATASET = '20240904142300681-40';
const SAMPLE_OF_DATASET = '20240904142235538-33';
const OBIS = 'http://w3id.org/matolab/openbis/';
const SCHEMA = 'http://schema.org/';
const DCAT = 'http://www.w3.org/ns/dcat#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

const objects = (quads: readonly RDF.Quad[], s: string, p: string): RDF.Term[] =>
  quads.filter((q) => q.subject.value === s && q.predicate.value === p).map((q) => q.object);
const values = (quads: readonly RDF.Quad[], s: string, p: string): string[] =>
  objects(quads, s, p).map((o) => o.value);

describe('extractor records', () => {
  let double: OpenbisDouble;
  let client: OpenbisClient;
  let token: string;
  const iris = new RecordIris('http://labld.test/extractor');
  const record = (request: RecordRequest): Promise<Extracted> => extract(client, token, iris, request);

  before(async () => {
    double = await startOpenbisDouble();
    client = new OpenbisClient({ url: double.origin });
    token = (await client.login('admin', 'changeit')) ?? '';
  });
  after(() => double.close());

  it('an object carries schema.org identity, obis terms, its type class and generation', async () => {
    const { graph } = await record({ kind: 'object', id: OBJECT });
    const s = `${NS}object/${OBJECT}`;
    const q = graph.quads;
    assert.deepEqual(
      values(q, s, RDF_TYPE).sort(),
      [`${OBIS}Object`, `${NS}class/EMODUL_INGREDIENT`, `${SCHEMA}Dataset`].sort(),
    );
    assert.deepEqual(values(q, s, `${SCHEMA}identifier`), [OBJECT]);
    assert.deepEqual(values(q, s, `${SCHEMA}name`), ['admixture'], 'the $NAME property names the object');
    assert.deepEqual(values(q, s, `${OBIS}code`), ['EMODUL_ING9']);
    assert.deepEqual(values(q, s, 'http://www.w3.org/ns/prov#wasGeneratedBy'), [
      'http://labld.test/extractor',
    ]);
    assert.deepEqual(values(q, s, 'http://purl.org/dc/elements/1.1/creator'), [`${NS}user/admin`]);
    assert.deepEqual(values(q, s, `${OBIS}has_child`), [`${NS}object/20230531140918056-37`]);
  });

  it('links the hierarchy both ways: collection ⊃ object, object ⊃ data set ⊃ file', async () => {
    const object = (await record({ kind: 'object', id: OBJECT })).graph.quads;
    const collection = `${NS}collection/20230531140903847-26`;
    assert.ok(values(object, `${NS}object/${OBJECT}`, `${SCHEMA}isPartOf`).includes(collection));
    assert.ok(values(object, collection, `${SCHEMA}hasPart`).includes(`${NS}object/${OBJECT}`));
    assert.ok(values(object, collection, `${OBIS}relates_to`).includes(`${NS}object/${OBJECT}`));
    const dataset = (await record({ kind: 'dataset', id: DATASET })).graph.quads;
    const d = `${NS}dataset/${DATASET}`;
    // §3.10: the original never linked a data set to its sample.
    assert.deepEqual(values(dataset, d, `${SCHEMA}isPartOf`), [`${NS}object/${SAMPLE_OF_DATASET}`]);
    assert.ok(values(dataset, `${NS}object/${SAMPLE_OF_DATASET}`, `${SCHEMA}hasPart`).includes(d));
    const space = (await record({ kind: 'space', id: 'EMODUL' })).graph.quads;
    assert.ok(
      values(space, `${NS}space/EMODUL`, `${SCHEMA}hasPart`).includes(`${NS}project/20230531140903039-23`),
    );
    assert.ok(
      values(space, `${NS}space/EMODUL`, `${OBIS}relates_to`).includes(`${NS}project/20230531140903039-23`),
    );
  });

  it('a data set lists its files as DCAT distributions with download URL, typed size and format', async () => {
    const q = (await record({ kind: 'dataset', id: DATASET })).graph.quads;
    const d = `${NS}dataset/${DATASET}`;
    const file = `${NS}distribution/${DATASET}/original/markdown_demo.md`;
    assert.deepEqual(values(q, d, `${DCAT}distribution`), [file], 'directories are not distributions');
    const [size] = objects(q, file, `${DCAT}byteSize`) as RDF.Literal[];
    assert.equal(size?.value, '4566');
    assert.equal(
      size?.datatype.value,
      `${XSD}nonNegativeInteger`,
      '§3.10: the original wrote an untyped string',
    );
    assert.deepEqual(values(q, file, `${DCAT}downloadURL`), [`${file}?download=1`]);
    assert.deepEqual(values(q, file, `${SCHEMA}encodingFormat`), ['text/markdown']);
    assert.ok(!values(q, d, `${OBIS}relates_to`).includes(d), '§3.10: a data set does not relate to itself');
  });

  it('writes timestamps in UTC as xsd:dateTime (§3.10: local naive xsd:dateTimeStamp)', async () => {
    const q = (await record({ kind: 'object', id: OBJECT })).graph.quads;
    const [created] = objects(
      q,
      `${NS}object/${OBJECT}`,
      'http://purl.org/dc/terms/created',
    ) as RDF.Literal[];
    assert.equal(created?.value, '2023-05-31T14:09:16.169Z');
    assert.equal(created?.datatype.value, `${XSD}dateTime`);
  });

  it('a property record has the IRI objects use as predicate (§3.10), and no temporary IRIs', async () => {
    const property = (await record({ kind: 'object_property', id: 'NAME' })).graph.quads;
    const object = (await record({ kind: 'object', id: OBJECT })).graph.quads;
    const predicate = `${NS}object_property/NAME`;
    assert.ok(object.some((q) => q.predicate.value === predicate));
    assert.ok(values(property, predicate, RDF_TYPE).includes('http://www.w3.org/2002/07/owl#ObjectProperty'));
    assert.deepEqual(values(property, predicate, `${OBIS}code`), ['$NAME']);
    for (const q of [...property, ...object])
      assert.doesNotMatch(q.object.value, /^https:\/\/example\.com\//);
  });

  it('scopes file identifiers by data set, so two data sets with one path do not share a node (§3.10)', async () => {
    const second = '20240904150000000-99';
    double.data.addDataSetLike(DATASET, second, [
      { path: 'original/markdown_demo.md', bytes: madeUpBytes('x', 10) },
    ]);
    const a = (await record({ kind: 'distribution', id: DATASET, path: 'original/markdown_demo.md' })).graph
      .quads;
    const b = (await record({ kind: 'distribution', id: second, path: 'original/markdown_demo.md' })).graph
      .quads;
    const idA = values(a, `${NS}distribution/${DATASET}/original/markdown_demo.md`, `${OBIS}has_identifier`);
    const idB = values(b, `${NS}distribution/${second}/original/markdown_demo.md`, `${OBIS}has_identifier`);
    assert.equal(idA.length, 1);
    assert.notDeepEqual(idA, idB);
  });

  it('attaches date, boolean and number values to the node the property points to (§3.10)', () => {
    const cases: [string, string, string][] = [
      ['2023-05-31', 'date', '2023-05-31'],
      ['2023-05-31 14:09:16 +0200', 'dateTime', '2023-05-31T14:09:16+02:00'],
      ['true', 'boolean', 'true'],
      ['FALSE', 'boolean', 'false'],
      ['42', 'integer', '42'],
      ['1,5', 'double', '1.5'],
    ];
    for (const [raw, type, lexical] of cases) {
      const graph = new RecordGraph();
      const node = propertyValue(graph, raw);
      assert.ok(node, raw);
      const [value] = objects(graph.quads, node.value, 'http://qudt.org/schema/qudt/value') as RDF.Literal[];
      assert.equal(value?.value, lexical, raw);
      assert.equal(value?.datatype.value, `${XSD}${type}`, raw);
    }
    const graph = new RecordGraph();
    assert.equal(propertyValue(graph, '   '), undefined, 'an empty value makes no node');
    const text = propertyValue(graph, '2014_08_05');
    assert.ok(text);
    assert.deepEqual(values(graph.quads, text.value, 'http://www.w3.org/ns/oa#hasLiteralBody'), [
      '2014_08_05',
    ]);
  });

  it('answers unknown ids of every kind with not-found naming the field', async () => {
    for (const request of [
      { kind: 'object', id: 'NOPE-1' },
      { kind: 'dataset', id: 'NOPE-1' },
      { kind: 'collection', id: 'NOPE-1' },
      { kind: 'project', id: 'NOPE-1' },
      { kind: 'space', id: 'NOPE' },
      { kind: 'user', id: 'nobody' },
      { kind: 'class', id: 'NOPE' },
      { kind: 'object_property', id: 'NOPE' },
      { kind: 'distribution', id: DATASET, path: 'original/none.txt' },
    ] as RecordRequest[]) {
      await assert.rejects(record(request), { kind: 'not-found' }, request.kind);
    }
    await assert.rejects(record({ kind: 'distribution', id: DATASET, path: '../etc/passwd' }), {
      kind: 'invalid',
      field: 'path',
    });
  });

  it('reads back the same graph from every RDF representation', async () => {
    const { graph } = await record({ kind: 'dataset', id: DATASET });
    const formats: [Representation, 'json-ld' | 'turtle' | 'nt' | 'xml'][] = [
      ['jsonld', 'json-ld'],
      ['jsonld-expanded', 'json-ld'],
      ['turtle', 'turtle'],
      ['ntriples', 'nt'],
      ['rdfxml', 'xml'],
    ];
    for (const [representation, format] of formats) {
      const out = await render({ graph, raw: null }, representation);
      const back = await parse(out.body, format);
      assert.ok(await isomorphic(back, graph.quads), representation);
    }
    const compacted = JSON.parse((await render({ graph, raw: null }, 'jsonld')).body) as Record<
      string,
      unknown
    >;
    assert.equal(
      (compacted['@context'] as Record<string, string>)['schema'],
      SCHEMA,
      'compacted with a local context',
    );
    const expanded = JSON.parse((await render({ graph, raw: null }, 'jsonld-expanded')).body) as unknown;
    assert.ok(Array.isArray(expanded), 'expanded JSON-LD is an array of nodes, as the original');
  });

  it('search lists its hits and carries their records; the instance lists every space', async () => {
    const q = (await record({ kind: 'search', query: 'admixture' })).graph.quads;
    const node = `${NS}search/?query=admixture`;
    assert.ok(values(q, node, `${SCHEMA}result`).includes(`${NS}object/${OBJECT}`));
    assert.deepEqual(values(q, `${NS}object/${OBJECT}`, `${OBIS}code`), ['EMODUL_ING9']);
    const instance = (await record({ kind: 'instance' })).graph.quads;
    assert.ok(values(instance, `${NS}instance/`, `${SCHEMA}hasPart`).includes(`${NS}space/EMODUL`));
    assert.ok(
      instance.some((x) => x.subject.value === `${NS}space/EMODUL` && x.object.value === `${OBIS}Space`),
    );
  });
});
