// Old-Mac CR-only line endings: a CR-only file annotates exactly as its LF twin (the original's
// golden descriptor), whatever the chunking; the LineBreaks reader behind it is checked alone,
// chunk by chunk, against the whole text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { LineBreaks } from '../../lib/line-breaks.ts';
import { caseUrl, expectedDescriptor, GOLDEN_CASES } from './goldens.ts';
import { annotateBytes, asJson, csvtocsvw, withoutProvenance } from './support.ts';

/** The file with every line break (LF or CRLF) made a lone CR; byte-wise, so any ASCII-compatible encoding survives. */
const crOnly = (bytes: Buffer): Buffer =>
  Buffer.from(bytes.toString('latin1').replace(/\r?\n/g, '\r'), 'latin1');

describe('annotate: CR-only files give the LF twin’s descriptor (the original’s golden)', () => {
  for (const c of GOLDEN_CASES) {
    it(c.title, async () => {
      const bytes = crOnly(readFileSync(csvtocsvw(c.csv)));
      assert.ok(!bytes.includes(10), 'the fixture has no LF left');
      // 7-byte chunks: CRs at chunk ends, and the first line break decided across chunks.
      const { descriptor } = await annotateBytes(bytes, { csvUrl: caseUrl(c), chunk: 7 });
      assert.deepEqual(asJson(withoutProvenance(descriptor)), expectedDescriptor(c));
    });
  }
});

const whole = (text: string): string => {
  const breaks = new LineBreaks();
  return breaks.normalize(text) + breaks.end();
};

describe('LineBreaks', () => {
  it('makes CR and CRLF LF when the first line break is a lone CR; leaves LF and CRLF files alone', () => {
    assert.equal(whole('a;b\r1;2\r\r3;4\r'), 'a;b\n1;2\n\n3;4\n');
    assert.equal(whole('a;b\r1;2\r\n3;4'), 'a;b\n1;2\n3;4');
    assert.equal(whole('a;b\r\n1\r2\r\n'), 'a;b\r\n1\r2\r\n');
    assert.equal(whole('a;b\n1\r2\n'), 'a;b\n1\r2\n');
    assert.equal(whole('no break'), 'no break');
    assert.equal(whole('ends with CR\r'), 'ends with CR\n');
  });

  it('gives the same text in any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', ';', '\r', '\n', '"'), { maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 6 }),
        (chars, cuts) => {
          const text = chars.join('');
          const breaks = new LineBreaks();
          let at = 0;
          let out = '';
          for (const cut of [...cuts].sort((x, y) => x - y)) {
            out += breaks.normalize(text.slice(at, Math.max(at, cut)));
            at = Math.max(at, cut);
          }
          out += breaks.normalize(text.slice(at)) + breaks.end();
          assert.equal(out, whole(text));
        },
      ),
    );
  });
});
