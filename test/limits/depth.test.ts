// Nesting-depth limit (LABLD_MAX_DEPTH) and DTD refusal at the domain level: deep JSON
// (objects and arrays), JSON-LD, RDF/XML, RML XML and JSON sources, YAML mappings and the claim
// check each give a 422 naming the field and the variable, fast; inputs at the limit still work.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { checkIn } from '../../lib/blobs/claim-check.ts';
import { readData, readYarrrmlMapping } from '../../lib/converter/index.ts';
import { csvwToRdf } from '../../lib/csvw/index.ts';
import { jsonSources } from '../../lib/mapper/index.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { checkJsonDepth, checkXml, maxDepth } from '../../lib/limits.ts';
import { parse } from '../../lib/rdf/index.ts';
import { readYarrrml, runRml } from '../../lib/rml/index.ts';
import { tempDir } from '../support/temp.ts';

const LIMIT = maxDepth();
const DEEP = 100_000;

/** A 422 whose detail names `field` (first), the limit and LABLD_MAX_DEPTH. */
function refusedDeep(field: string, limit = LIMIT) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, 'invalid');
    assert.equal(error.field, field);
    assert.equal(error.message, `${field}: nested deeper than ${limit} levels (LABLD_MAX_DEPTH)`);
    return true;
  };
}

/** `levels` nested JSON objects (`{"a": {"a": … 1}}`) or arrays. */
const jsonObjects = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const jsonArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

/** JSON-LD nodes nested `levels` deep (each node one JSON object level). */
function jsonLd(levels: number): string {
  return '{"http://ex.org/p":'.repeat(levels - 1) + '{"@id":"http://ex.org/leaf"}' + '}'.repeat(levels - 1);
}

/** RDF/XML whose elements nest `levels` deep: rdf:RDF, then Description/property pairs. */
function rdfXml(levels: number): string {
  const pairs = Math.floor((levels - 2) / 2);
  const leaf =
    levels % 2 === 0 ? '<rdf:Description ex:v="x"/>' : '<rdf:Description><ex:v>x</ex:v></rdf:Description>';
  return (
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">' +
    '<rdf:Description><ex:p>'.repeat(pairs) +
    leaf +
    '</ex:p></rdf:Description>'.repeat(pairs) +
    '</rdf:RDF>'
  );
}

/** Measures nesting with the same reading as the limit: `text` is within `levels` but not `levels - 1`. */
function assertDepth(check: (limit: number) => void, levels: number): void {
  check(levels);
  assert.throws(() => check(levels - 1), DomainError);
}

describe('JSON depth scan', () => {
  it('refuses 100,000 levels of objects and of arrays in a few milliseconds', () => {
    for (const text of [jsonObjects(DEEP), jsonArrays(DEEP)]) {
      const started = performance.now();
      assert.throws(() => checkJsonDepth(text, 'body'), refusedDeep('body'));
      assert.ok(performance.now() - started < 1000);
    }
  });

  it('counts brackets as JSON.parse nests them, not inside strings or after escapes', () => {
    assertDepth((limit) => checkJsonDepth(jsonObjects(LIMIT), 'body', limit), LIMIT);
    assertDepth((limit) => checkJsonDepth(jsonArrays(3), 'body', limit), 3);
    assertDepth((limit) => checkJsonDepth('[{"a": "[[[[{{{{\\"[[[[\\\\", "b": [1]}]', 'body', limit), 3);
    assertDepth((limit) => checkJsonDepth('["[[[["]', 'body', limit), 1);
  });

  it('names the top-level property a body nests under', () => {
    const body = `{"data_url": "http://x/a.csv", "x": ${jsonObjects(DEEP)}}`;
    assert.throws(() => checkJsonDepth(body, 'body', LIMIT, true), refusedDeep('x'));
    assert.throws(() => checkJsonDepth(`[${jsonArrays(DEEP)}]`, 'body', LIMIT, true), refusedDeep('body'));
  });
});

describe('JSON-LD and RDF/XML documents', () => {
  it('refuses a JSON-LD document of 100,000 levels (objects and arrays)', async () => {
    await assert.rejects(parse(jsonLd(DEEP), 'json-ld', { field: 'url' }), refusedDeep('url'));
    const arrays = `{"@id": "http://ex.org/s", "http://ex.org/p": ${jsonArrays(DEEP)}}`;
    await assert.rejects(parse(arrays, 'json-ld', { field: 'template_url' }), refusedDeep('template_url'));
  });

  it('reads a JSON-LD document nested exactly to the limit', async () => {
    const quads = await parse(jsonLd(LIMIT), 'json-ld', { field: 'url' });
    assert.equal(quads.length, LIMIT - 1);
    await assert.rejects(parse(jsonLd(LIMIT + 1), 'json-ld', { field: 'url' }), refusedDeep('url'));
  });

  it('refuses 50,000 nested rdf:Description/property elements in well under a second', async () => {
    const started = performance.now();
    await assert.rejects(parse(rdfXml(100_000), 'xml', { field: 'url' }), refusedDeep('url'));
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
  });

  it('reads RDF/XML nested exactly to the limit', async () => {
    const quads = await parse(rdfXml(LIMIT), 'xml', { field: 'rdf_url' });
    assert.equal(quads.length, LIMIT / 2);
    await assert.rejects(parse(rdfXml(LIMIT + 1), 'xml', { field: 'rdf_url' }), refusedDeep('rdf_url'));
  });

  it('counts elements only: comments, CDATA, processing instructions, `>` in attributes', () => {
    const text = '<?xml version="1.0"?><!-- <a><b> --><a t="x>y" u=\'<\'><![CDATA[<c><d>]]><b/><b></b></a>';
    assertDepth((limit) => checkXml(text, 'url', undefined, limit), 2);
  });
});

describe('descriptors and data read as JSON', () => {
  const deep = `{"@context": "http://www.w3.org/ns/csvw", "url": "a.csv", "x": ${jsonObjects(DEEP)}}`;

  it('csv2rdf refuses a deep CSVW descriptor naming metadata_url', async () => {
    const load = async () => ({ text: deep });
    await assert.rejects(
      csvwToRdf({ metadataUrl: 'http://ex.org/m.json' }, { load }),
      refusedDeep('metadata_url'),
    );
  });

  it('the converter and the mapper refuse deep JSON data naming data_url', async () => {
    await assert.rejects(
      readData({ url: 'http://ex.org/d.json', text: deep, fileName: 'd.json' }, 'data_url'),
      refusedDeep('data_url'),
    );
    assert.throws(() => jsonSources(deep, ['x'], 'data_url'), refusedDeep('data_url'));
  });
});

describe('DTDs in XML', () => {
  const laughs =
    '<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n <!ENTITY lol "lol">\n' +
    Array.from(
      { length: 9 },
      (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
    ).join('\n') +
    '\n]>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">' +
    '<rdf:Description rdf:about="http://ex.org/s"><ex:p>&lol9;</ex:p></rdf:Description></rdf:RDF>';
  const external =
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">' +
    '<rdf:Description rdf:about="http://ex.org/s"><ex:p>&x;</ex:p></rdf:Description></rdf:RDF>';

  function refusedDtd(field: string) {
    return (error: unknown): boolean => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'invalid');
      assert.equal(error.field, field);
      assert.match(error.message, new RegExp(`^${field}: the XML has a document type declaration`));
      return true;
    };
  }

  it('refuses RDF/XML with internal entities (billion laughs) and external ones', async () => {
    await assert.rejects(parse(laughs, 'xml', { field: 'shapes_url' }), refusedDtd('shapes_url'));
    await assert.rejects(parse(external, 'xml', { field: 'url' }), refusedDtd('url'));
  });

  it('refuses an RML XML source with a DTD, naming the source', async () => {
    const turtle = `@prefix rml: <http://w3id.org/rml/> .
<#TM> rml:logicalSource [ rml:source [ a rml:RelativePathSource; rml:path "lab.xml" ];
    rml:referenceFormulation rml:XPath; rml:iterator "/r" ];
  rml:subjectMap [ rml:template "http://ex.com/{.}" ] .`;
    const xml = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "b">]><r>&a;</r>';
    await assert.rejects(runRml(turtle, { sources: { 'lab.xml': xml } }), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'invalid');
      assert.match(error.message, /^The source lab\.xml: the XML has a document type declaration/);
      return true;
    });
  });
});

describe('RML sources', () => {
  const mapping = (
    file: string,
    formulation: string,
    iterator: string,
  ) => `@prefix rml: <http://w3id.org/rml/> .
<#TM> rml:logicalSource [ rml:source [ a rml:RelativePathSource; rml:path "${file}" ];
    rml:referenceFormulation ${formulation}; rml:iterator "${iterator}" ];
  rml:subjectMap [ rml:template "http://ex.com/{id}" ] .`;
  const refusedSource = (file: string) => (error: unknown) => {
    assert.ok(error instanceof DomainError);
    assert.equal(error.kind, 'invalid');
    assert.equal(error.message, `The source ${file}: nested deeper than ${LIMIT} levels (LABLD_MAX_DEPTH)`);
    return true;
  };

  it('refuses a JSON source of 100,000 levels', async () => {
    const json = `{"items": [{"id": 1, "x": ${jsonArrays(DEEP)}}]}`;
    const turtle = mapping('data.json', 'rml:JSONPath', '$.items[*]');
    await assert.rejects(runRml(turtle, { sources: { 'data.json': json } }), refusedSource('data.json'));
  });

  it('refuses an XML source of 50,000 levels', async () => {
    const xml = '<r>' + '<a>'.repeat(50_000) + '</a>'.repeat(50_000) + '</r>';
    const turtle = mapping('lab.xml', 'rml:XPath', '/r');
    await assert.rejects(runRml(turtle, { sources: { 'lab.xml': xml } }), refusedSource('lab.xml'));
  });
});

describe('YAML mappings', () => {
  const flow = (levels: number) => `mappings:\n  m:\n    x: ${'['.repeat(levels)}${']'.repeat(levels)}\n`;
  function block(levels: number): string {
    const lines = ['mappings:'];
    for (let i = 1; i < levels; i++) lines.push(`${' '.repeat(i)}k:`);
    lines.push(`${' '.repeat(levels)}v`);
    return `${lines.join('\n')}\n`;
  }

  it('refuses 100,000 levels of flow collections and deep block nesting with the limit', () => {
    assert.throws(() => readYarrrml(flow(DEEP), 'mapping_url'), refusedDeep('mapping_url'));
    assert.throws(() => readYarrrmlMapping(flow(DEEP), 'mapping_url'), refusedDeep('mapping_url'));
    assert.throws(() => readYarrrml(block(LIMIT + 10), 'file'), refusedDeep('file'));
  });

  it('reads YAML nested to the limit; js-yaml counts every node, the innermost value too', () => {
    // flow(n): the top mapping, `mappings`' and `m`'s values, then n lists = n + 3 nodes.
    assert.ok(readYarrrml(flow(LIMIT - 3)));
    assert.throws(() => readYarrrml(flow(LIMIT - 2)), refusedDeep('mapping'));
    // block(n): the top mapping, n - 1 nested `k:` mappings, and js-yaml enters two more
    // nodes for the last key's value `v` (measured: n + 2).
    assert.ok(readYarrrml(block(LIMIT - 2)));
    assert.throws(() => readYarrrml(block(LIMIT - 1)), refusedDeep('mapping'));
  });
});

describe('claim check', () => {
  it('a value too deep for JSON.stringify is a 422 naming the field, not a RangeError', async () => {
    const blobs = new BlobStore(tempDir('labld-limits-'));
    let deep: unknown = 1;
    for (let i = 0; i < DEEP; i++) deep = { a: deep };
    await assert.rejects(checkIn(blobs, { data_url: 'http://x/a.csv', x: deep }), refusedDeep('body'));
    let shallow: unknown = 1;
    for (let i = 0; i < LIMIT - 1; i++) shallow = [shallow];
    assert.deepEqual(await checkIn(blobs, { x: shallow }), { x: shallow });
  });
});

describe('property: random depths around the limit', () => {
  it('JSON, JSON-LD, RDF/XML and YAML either succeed or give exactly the limit 422', async () => {
    const limit = 40;
    const env = process.env['LABLD_MAX_DEPTH'];
    process.env['LABLD_MAX_DEPTH'] = String(limit);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 2, max: 2 * limit }),
          fc.constantFrom('objects', 'arrays', 'json-ld', 'xml', 'yaml'),
          async (levels, kind) => {
            const run = async (): Promise<unknown> => {
              if (kind === 'objects') return checkJsonDepth(jsonObjects(levels), 'body');
              if (kind === 'arrays') return checkJsonDepth(jsonArrays(levels), 'body');
              if (kind === 'json-ld') return parse(jsonLd(levels), 'json-ld', { field: 'url' });
              // The top mapping and levels - 1 flow lists: `levels` nodes as js-yaml counts.
              if (kind === 'yaml') return readYarrrml(`x: ${jsonArrays(levels - 1)}\n`, 'mapping_url');
              return parse(rdfXml(levels), 'xml', { field: 'url' });
            };
            if (levels <= limit) await run();
            else {
              const fields: Record<string, string> = { objects: 'body', arrays: 'body', yaml: 'mapping_url' };
              const field = fields[kind] ?? 'url';
              await assert.rejects(run(), refusedDeep(field, limit));
            }
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      if (env === undefined) delete process.env['LABLD_MAX_DEPTH'];
      else process.env['LABLD_MAX_DEPTH'] = env;
    }
  });
});
