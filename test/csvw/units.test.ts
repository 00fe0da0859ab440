// The converter's parts: URI templates, number and date formats, the streaming CSV reader
// (chunk boundaries must not matter), and csvwToRdf's errors and streaming sink.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  csvwToRdf,
  csvwToRdfStream,
  type LoadedResource,
  type ResourceLoader,
} from '../../lib/csvw/index.ts';
import { csvEvents } from '../../lib/csvw/csv-reader.ts';
import { compileDatePattern, parseWithPattern } from '../../lib/csvw/date-format.ts';
import { DEFAULT_DIALECT, originalDelimiter, readDialect } from '../../lib/csvw/dialect.ts';
import { compilePattern, parseNumber } from '../../lib/csvw/number-format.ts';
import { textChunks, Warnings } from '../../lib/csvw/types.ts';
import iconv from 'iconv-lite';
import { expandTemplate } from '../../lib/csvw/uri-template.ts';
import { DomainError } from '../../lib/process/errors.ts';

const vars: Record<string, string | string[]> = {
  var: 'value',
  hello: 'Hello World!',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
};
const lookup = (name: string): string | string[] | undefined => vars[name];

async function events(text: string, chunk: number, dialect = DEFAULT_DIALECT) {
  async function* chunks() {
    for (let i = 0; i < text.length; i += chunk) yield text.slice(i, i + chunk);
  }
  const out = [];
  for await (const event of csvEvents(chunks(), dialect)) out.push(event);
  return out;
}

function memoryLoader(files: Record<string, string>): ResourceLoader {
  return async (url: string): Promise<LoadedResource> => {
    if (!Object.hasOwn(files, url)) throw new DomainError('not-found', `cannot get ${url}`, 'csv_url');
    return { text: files[url] as string };
  };
}

describe('URI templates (RFC 6570)', () => {
  it('expands every operator', () => {
    assert.equal(expandTemplate('{var}', lookup), 'value');
    assert.equal(expandTemplate('{hello}', lookup), 'Hello%20World%21');
    assert.equal(expandTemplate('{+path}/here', lookup), '/foo/bar/here');
    assert.equal(expandTemplate('X{#var}', lookup), 'X#value');
    assert.equal(expandTemplate('{.list}', lookup), '.red,green,blue');
    assert.equal(expandTemplate('{/list*}', lookup), '/red/green/blue');
    assert.equal(expandTemplate('{?var,undef}', lookup), '?var=value');
    assert.equal(expandTemplate('{;list*}', lookup), ';list=red;list=green;list=blue');
    assert.equal(expandTemplate('{&var:3}', lookup), '&var=val');
  });
});

describe('number formats (UAX35)', () => {
  const format = { decimalChar: '.', groupChar: null };
  it('checks grouping and fraction digits of a pattern', () => {
    const pattern = compilePattern('#,##,#00', format);
    assert.ok(pattern);
    assert.equal(
      parseNumber('12,34,567', { ...format, groupChar: ',' }, pattern, 'integer')?.lexical,
      '1234567',
    );
    assert.equal(parseNumber('1,234,567', { ...format, groupChar: ',' }, pattern, 'integer'), undefined);
    assert.equal(compilePattern('[', format), undefined);
  });
  it('applies percent and per-mille exactly', () => {
    assert.equal(
      parseNumber('123456.789%', { ...format, groupChar: ',' }, undefined, 'decimal')?.lexical,
      '1234.56789',
    );
    assert.equal(parseNumber('123‰', format, undefined, 'decimal')?.lexical, '0.123');
  });
});

describe('date formats', () => {
  it('rewrites formatted dates and times to XSD', () => {
    const date = compileDatePattern('M/d/yyyy', 'date');
    assert.ok(date);
    assert.equal(parseWithPattern('6/2/2010', date, 'date'), '2010-06-02');
    assert.equal(parseWithPattern('2/30/2010', date, 'date'), undefined);
    const time = compileDatePattern('HHmm XX', 'time');
    assert.ok(time);
    assert.equal(parseWithPattern('1502 +0800', time, 'time'), '15:02:00+08:00');
  });
});

describe('CSV reader', () => {
  const text = 'a,"b ""quoted""",c\r\n1,"multi\nline",3\n\n# not a comment by default,x\n';
  it('gives the same rows whatever the chunk size', async () => {
    const whole = await events(text, text.length);
    for (const size of [1, 2, 3, 7]) assert.deepEqual(await events(text, size), whole);
    const rows = whole.filter((event) => event.kind === 'row');
    assert.deepEqual(whole[0], { kind: 'header', titles: [['a'], ['b "quoted"'], ['c']] });
    assert.deepEqual(
      rows.map((row) => row.kind === 'row' && row.cells),
      [['1', 'multi\nline', '3'], [''], ['# not a comment by default', 'x']],
    );
  });
  it('decodes bytes in the dialect encoding, also names only iconv-lite knows (mac-cyrillic)', async () => {
    const decode = async (bytes: Buffer, encoding: string, size: number) => {
      async function* body() {
        for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
      }
      let text = '';
      for await (const chunk of textChunks({ body: body() }, encoding)) text += chunk;
      return text;
    };
    for (const [encoding, text] of [
      ['latin-1', 'Größe;Maß\n'],
      ['koi8-r', 'Образец;1\n'],
      ['mac-cyrillic', 'Образец;1\n'],
      ['mac-roman', 'Prüfung ∑;1\n'],
    ]) {
      for (const size of [1, 3, 1024]) {
        assert.equal(
          await decode(iconv.encode(text as string, encoding as string), encoding as string, size),
          text,
        );
      }
    }
  });

  it('reads comments and skipped rows when asked', async () => {
    const dialect = readDialect({ commentPrefix: '#', skipRows: 1, delimiter: ';' }, new Warnings());
    const out = await events('title line\n# note\nx;y\n1;2\n', 4, dialect);
    assert.deepEqual(out.slice(0, 2), [
      { kind: 'comment', text: 'title line' },
      { kind: 'comment', text: 'note' },
    ]);
  });
  it('maps the original annotator regex delimiters', () => {
    assert.equal(originalDelimiter('\\t'), '\t');
    assert.equal(originalDelimiter('\\|'), '|');
    assert.equal(originalDelimiter(';'), ';');
    assert.ok(originalDelimiter(':+\\s+\\s*') instanceof RegExp);
  });
});

describe('csvwToRdf', () => {
  const csvUrl = 'http://example.org/data.csv';
  it('streams quads to a sink and returns warnings', async () => {
    const load = memoryLoader({ [csvUrl]: 'name,age\nAda,36\nBob\n' });
    const seen: string[] = [];
    const { warnings } = await csvwToRdfStream({ csvUrl }, { load, mode: 'minimal' }, (quad) =>
      seen.push(quad.object.value),
    );
    assert.deepEqual(seen.sort(), ['36', 'Ada', 'Bob']);
    assert.equal(warnings.length, 1); // the ragged row
  });
  it('malformed metadata JSON is a 422 naming metadata_url', async () => {
    const load = memoryLoader({ 'http://example.org/m.json': '{"tables": [' });
    await assert.rejects(
      csvwToRdf({ metadataUrl: 'http://example.org/m.json' }, { load }),
      (error: unknown) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.kind, 'invalid');
        assert.equal(error.field, 'metadata_url');
        return true;
      },
    );
  });
  it('an unreachable CSV keeps the loader DomainError', async () => {
    const metadata = { '@context': 'http://www.w3.org/ns/csvw', url: 'missing.csv' };
    await assert.rejects(
      csvwToRdf({ metadata, metadataUrl: 'http://example.org/m.json' }, { load: memoryLoader({}) }),
      (error: unknown) =>
        error instanceof DomainError && error.kind === 'not-found' && error.field === 'csv_url',
    );
  });
  it('a loader that throws something else becomes a 422, not a crash', async () => {
    const load: ResourceLoader = async () => {
      throw new TypeError('socket hang up');
    };
    await assert.rejects(
      csvwToRdf({ csvUrl }, { load }),
      (error: unknown) => error instanceof DomainError && error.kind === 'invalid',
    );
  });
});
