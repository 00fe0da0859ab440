// Every encoding the `encoding` field accepts decodes a CSV written in it (bytes made with
// iconv-lite from language-appropriate text), and `auto` on the common cases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { ENCODINGS, checkEncoding } from '../../lib/annotator/index.ts';
import { annotateBytes, ENCODED_WORDS as WORDS, encodedSample } from './support.ts';

describe('encodings', () => {
  it('lists the 30 names of the original (auto first)', () => {
    assert.equal(ENCODINGS.length, 30);
    assert.equal(ENCODINGS[0], 'auto');
    assert.deepEqual(Object.keys(WORDS).sort(), ENCODINGS.filter((e) => e !== 'auto').sort());
  });

  for (const encoding of ENCODINGS.filter((e) => e !== 'auto')) {
    it(`decodes ${encoding}`, async () => {
      const { source, bytes } = encodedSample(encoding);
      assert.equal(iconv.decode(bytes, encoding), source, 'the test text is encodable');
      const { descriptor } = await annotateBytes(bytes, { encoding });
      const body = descriptor.notes[0]?.['oa:hasBody'][0] as Record<string, unknown>;
      assert.equal(body['oa:value'], source.split('\n')[0]?.split(';')[1]);
      assert.equal(descriptor.tables[0]?.dialect.encoding, encoding);
    });
  }

  it('auto names the code page of a dozen lines of real text (the exact cases; README lists the rest)', async () => {
    const texts: [string, string[]][] = [
      [
        'Образец для испытаний на растяжение, температура в помещении',
        ['koi8-r', 'windows-1251', 'iso-8859-5'],
      ],
      ['Δοκίμιο εφελκυσμού σε θερμοκρασία δωματίου', ['iso-8859-7']],
      ['דגימה לבדיקת מתיחה בטמפרטורת החדר', ['iso-8859-8']],
      ['Próbka do próby rozciągania w temperaturze pokojowej, żółć', ['iso-8859-2']],
      ['Oda sıcaklığında çekme deneyi için numune, ölçüm şartları', ['iso-8859-9']],
      ['Prüfung – Kraft 5 € „Größe“', ['windows-1252']],
    ];
    for (const [text, encodings] of texts) {
      const lines = Array.from({ length: 12 }, (_, i) => `Feld ${i};${text} ${i}`).join('\n');
      for (const encoding of encodings) {
        const bytes = iconv.encode(`${lines}\n\nZeit [s];Kraft [kN]\n1;2\n3;4\n`, encoding);
        const { descriptor, encoding: found } = await annotateBytes(bytes);
        assert.equal(found, encoding);
        assert.equal(descriptor.notes[0]?.['oa:hasBody'][0]?.['oa:value'], `${text} 0`, encoding);
      }
    }
  });

  it('rejects an unknown name with 422 naming the field', () => {
    assert.throws(() => checkEncoding('utf8mb4'), { kind: 'invalid', field: 'encoding' });
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
    await assert.rejects(annotateBytes(latin1, { encoding: 'utf-8' }), {
      kind: 'invalid',
      field: 'encoding',
    });
    await assert.rejects(annotateBytes(latin1, { encoding: 'ascii' }), {
      kind: 'invalid',
      field: 'encoding',
    });
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
      kind: 'invalid',
      field: 'encoding',
    });
  });
});
