// The dataset page's Automation lines from labld_status_show's answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepViews } from '../../gateways/catalogue/step-views.ts';

test('one line per resource and step, with progress, summary or the failure and what to do', () => {
  const status = {
    resources: [
      {
        resource_id: 'r1',
        steps: [
          { step: 'annotate', state: 'done', summary: { durationMs: 12, note: '1 table(s)', bytes: 300 } },
          { step: 'import', state: 'running', progress: { rows: 5000 } },
          { step: 'describe', state: 'queued' },
        ],
      },
      {
        resource_id: 'gone',
        steps: [
          {
            step: 'annotate',
            state: 'failed',
            failure: { detail: 'no table <found>', action: 'upload a corrected version' },
          },
        ],
      },
    ],
  };
  assert.deepEqual(stepViews(status, new Map([['r1', 'example.csv']])), [
    { step: 'example.csv: annotate', status: 'done', detail: '1 table(s); 300 bytes; 12 ms' },
    { step: 'example.csv: import', status: 'running', detail: '5000 rows so far' },
    { step: 'example.csv: describe', status: 'queued' },
    {
      step: 'a removed resource: annotate',
      status: 'failed',
      detail: 'no table <found> — upload a corrected version',
    },
  ]);
  assert.deepEqual(stepViews({}, new Map()), []);
});
