// Issue 11, finding 3 (amplification): a 3.1 MB CSV of 520,000 one-character columns made a
// 330 MB descriptor at 2.1 GB RSS and stored a 330 MB blob per request. Uploaded or by URL, it
// must be refused with a 413/422 naming the limit (columns per CSV, or output size) and its
// variable, while labld stays responsive and under 1 GB.
import { after, before, describe, it } from 'node:test';
import {
  LIMIT_STATUSES,
  assertRefused,
  postFile,
  postJson,
  startHostile,
  underAttack,
  type Hostile,
} from './harness.ts';
import { wideCsv } from './inputs.ts';

const COLUMNS = 520_000;
const WIDE_WORDS = [/column|output/i, /\bLABLD_[A-Z0-9_]+\b/];
let h: Hostile;
let csv: Buffer;
let csvUrl: string;

before(async () => {
  h = await startHostile();
  csv = wideCsv(COLUMNS, 3);
  csvUrl = h.files.put('/wide/wide.csv', csv, 'text/csv');
});
after(() => h?.stop());

describe(`a CSV of ${COLUMNS} one-character columns (3.1 MB)`, () => {
  it('POST /annotator/api/annotate_upload (file): refused naming the limit, labld responsive', async () => {
    const label = 'annotate_upload of the wide CSV';
    await underAttack(
      h,
      label,
      () => postFile(`${h.base}/annotator/api/annotate_upload`, csv, 'wide.csv'),
      (reply) => assertRefused(label, reply, WIDE_WORDS, LIMIT_STATUSES),
    );
  });

  it('POST /annotator/api/annotate (data_url): refused naming the limit, labld responsive', async () => {
    const label = 'annotate of the wide CSV by URL';
    await underAttack(
      h,
      label,
      () => postJson(`${h.base}/annotator/api/annotate`, JSON.stringify({ data_url: csvUrl })),
      (reply) => assertRefused(label, reply, WIDE_WORDS, LIMIT_STATUSES),
    );
  });
});
