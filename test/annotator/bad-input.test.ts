// Bad input is a DomainError with a 4xx status naming the request field, never a crash.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { annotate } from '../../lib/annotator/index.ts';
import { annotateBytes } from './support.ts';

const clientError = (field: string, pattern: RegExp) => (error: unknown) => {
  const e = error as { kind?: string; field?: string; message?: string };
  assert.equal(e.kind, 'invalid', e.message);
  assert.equal(e.field, field);
  assert.match(e.message ?? '', pattern);
  return true;
};

describe('bad input', () => {
  it('an empty file', async () => {
    await assert.rejects(annotateBytes(Buffer.alloc(0)), clientError('file', /empty/));
    await assert.rejects(annotateBytes('', { field: 'data_url' }), clientError('data_url', /empty/));
  });

  it('a file of blank lines only', async () => {
    await assert.rejects(annotateBytes('\n  \n\r\n'), clientError('file', /no content/));
  });

  it('a binary file', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    await assert.rejects(annotateBytes(png), clientError('file', /binary/));
  });

  it('a CSV with a 10 MB single line', async () => {
    const line = `${'1234567;'.repeat(1_310_720)}\n`;
    await assert.rejects(annotateBytes(line, { chunk: 1 << 20 }), clientError('file', /longer than/));
  });

  it('a header-only file', async () => {
    await assert.rejects(
      annotateBytes('Time [s];Force [kN];Elongation [%]\n'),
      clientError('file', /single line/),
    );
  });

  it('ragged rows', async () => {
    const csv = 'Time;Force;Strain\n0,5;1,5;0,1\n1,0;2,5\n1,5;3,5;0,3\n';
    await assert.rejects(annotateBytes(csv), clientError('file', /ragged rows: line 3 has 2 fields/));
  });

  it('a wrong encoding name', async () => {
    await assert.rejects(
      annotateBytes('a;b\n1;2\n', { encoding: 'latin-9' }),
      clientError('encoding', /unknown value/),
    );
  });

  it('an all-text file too large to keep as metadata', async () => {
    const csv = 'Name;Material\n' + 'A1;Steel\n'.repeat(2000);
    await assert.rejects(
      annotateBytes(csv, { maxMetadataChars: 4096 }),
      clientError('file', /metadata block/),
    );
  });

  it('a source that fails passes its own error through', async () => {
    const failing = {
      csvUrl: 'https://example.org/x.csv',
      open: () => ({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('connection reset')) }),
      }),
    };
    await assert.rejects(annotate(failing), /connection reset/);
  });
});
