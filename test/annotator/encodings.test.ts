// Every encoding the `encoding` field accepts decodes a CSV written in it (bytes made with
// iconv-lite from language-appropriate text), and `auto` on the common cases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { ENCODINGS, checkEncoding } from '../../lib/annotator/index.ts';
import { annotateBytes } from './support.ts';

// A word per encoding that only that script or code page writes (all encodable in it).
// prettier-ignore
const WORDS: Record<string, string> = {
  'utf-8': 'Prüfkörper 試験', ascii: 'Probe', 'iso-8859-1': 'Prüfkörper', 'iso-8859-2': 'Zkouška',
  'iso-8859-3': 'Ġenerali', 'iso-8859-4': 'Ķēde', 'iso-8859-5': 'Образец', 'iso-8859-6': 'عينة',
  'iso-8859-7': 'Δοκίμιο', 'iso-8859-8': 'דגימה', 'iso-8859-9': 'Numune ğ', 'iso-8859-10': 'Ŋŧ prøve',
  'iso-8859-13': 'Bandinys ų', 'iso-8859-14': 'Ŵŷ sampl', 'iso-8859-15': 'Œuvre €',
  'iso-8859-16': 'Încercare ș', 'windows-1250': 'Próbka ł', 'windows-1251': 'Образец',
  'windows-1252': 'Prüfung €', 'windows-1253': 'Δοκίμιο', 'windows-1254': 'Numune ş',
  'windows-1255': 'דגימה', 'windows-1256': 'عينة', 'windows-1257': 'Bandinys ė',
  'windows-1258': 'M\u00e2\u0303u', 'koi8-r': 'Образец', 'koi8-u': 'Зразок ї', 'mac-cyrillic': 'Образец',
  'mac-roman': 'Prüfung ∑',
};

describe('encodings', () => {
  it('lists the 30 names of the original (auto first)', () => {
    assert.equal(ENCODINGS.length, 30);
    assert.equal(ENCODINGS[0], 'auto');
    assert.deepEqual(Object.keys(WORDS).sort(), ENCODINGS.filter((e) => e !== 'auto').sort());
  });

  for (const encoding of ENCODINGS.filter((e) => e !== 'auto')) {
    it(`decodes ${encoding}`, async () => {
      const word = WORDS[encoding] as string;
      // windows-1258 writes Vietnamese tones as combining marks (the word above is so).
      const source = `Sample;${word}\n\nTime [s];Force [kN]\n0,5;1,5\n1,0;2,5\n`;
      const bytes = iconv.encode(source, encoding);
      assert.equal(iconv.decode(bytes, encoding), source, 'the test text is encodable');
      const { descriptor } = await annotateBytes(bytes, { encoding });
      const body = descriptor.notes[0]?.['oa:hasBody'][0] as Record<string, unknown>;
      assert.equal(body['oa:value'], source.split('\n')[0]?.split(';')[1]);
      assert.equal(descriptor.tables[0]?.dialect.encoding, encoding);
    });
  }

  it('rejects an unknown name with 422 naming the field', () => {
    assert.throws(() => checkEncoding('utf8mb4'), { status: 422, field: 'encoding' });
    assert.equal(checkEncoding(undefined), 'auto');
  });
});

describe('encoding auto', () => {
  it('reports pure ASCII as ascii, UTF-8 as utf-8', async () => {
    assert.equal((await annotateBytes('a;b\n1;2\n3;4\n')).encoding, 'ascii');
    assert.equal((await annotateBytes('a [°C];b\n1;2\n3;4\n')).encoding, 'utf-8');
  });

  it('reads a UTF-16 file with a byte-order mark', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode('Temp [°C];B\n1;2\n3;4\n', 'utf-16le'),
    ]);
    const { descriptor, encoding } = await annotateBytes(bytes);
    assert.equal(encoding, 'utf-16le');
    assert.equal(descriptor.tables[0]?.tableSchema.columns[1]?.['name'], 'TempC');
  });

  it('restarts with a legacy encoding when UTF-8-looking bytes turn out not to be UTF-8', async () => {
    const head = `Temp [°C];B\n${'1;2\n'.repeat(40_000)}`;
    const bytes = Buffer.concat([
      Buffer.from(head, 'utf8'),
      iconv.encode('3;4\n5;6\n\nTräger;ß;1\n', 'latin1'),
    ]);
    const { encoding, descriptor } = await annotateBytes(bytes, { chunk: 16 * 1024 });
    assert.notEqual(encoding, 'utf-8');
    assert.equal(descriptor.notes.at(-1)?.label, 'Träger');
  });

  it('says which encoding was wrong when an explicit one does not fit', async () => {
    const latin1 = iconv.encode('Prüfung;1\n', 'latin1');
    await assert.rejects(annotateBytes(latin1, { encoding: 'utf-8' }), { status: 422, field: 'encoding' });
    await assert.rejects(annotateBytes(latin1, { encoding: 'ascii' }), { status: 422, field: 'encoding' });
  });

  it('switches to a legacy encoding without re-reading when the first bytes were plain ASCII', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`A;B\n${'1;2\n'.repeat(40_000)}`),
      iconv.encode('\nTräger;ß;1\n', 'latin1'),
    ]);
    let opened = 0;
    const chunks = (): Buffer[] => {
      opened++;
      const out: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 16 * 1024) out.push(bytes.subarray(i, i + 16 * 1024));
      return out;
    };
    const { annotate } = await import('../../lib/annotator/index.ts');
    const { descriptor, encoding } = await annotate({ open: chunks, csvUrl: 'https://example.org/a.csv' });
    assert.equal(opened, 1);
    assert.notEqual(encoding, 'utf-8');
    assert.equal(descriptor.notes.at(-1)?.label, 'Träger');
  });

  it('asks for the encoding when a source cannot be read twice', async () => {
    const head = `Temp [°C];B\n${'1;2\n'.repeat(40_000)}`;
    const bytes = Buffer.concat([Buffer.from(head, 'utf8'), iconv.encode('\nTräger;ß;1\n', 'latin1')]);
    const { Readable } = await import('node:stream');
    const stream = Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]);
    const { annotate } = await import('../../lib/annotator/index.ts');
    await assert.rejects(annotate({ open: () => stream, csvUrl: 'https://example.org/a.csv' }), {
      status: 422,
      field: 'encoding',
    });
  });
});
