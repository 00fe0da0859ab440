// The dataset page's Automation lines from labld_status_show's answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deadLetterViews, stepViews } from '../../gateways/catalogue/step-views.ts';

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
      // Apart too, for the resource's own page to put them on lines of their own.
      failure: { detail: 'no table <found>', action: 'upload a corrected version' },
    },
  ]);
  assert.deepEqual(stepViews({}, new Map()), []);
});

test('a failed step offers Retry to editors only, a done one links what it made, a second attempt says so', () => {
  const status = {
    resources: [
      {
        resource_id: 'r1',
        steps: [
          { step: 'annotate', state: 'done', attempt: 1, summary: { durationMs: 5 } },
          { step: 'import', state: 'done', attempt: 2, summary: { durationMs: 7, rows: 3 } },
          { step: 'describe', state: 'failed', attempt: 1, failure: { detail: 'x', action: 'y' } },
        ],
      },
      {
        resource_id: 'gone',
        steps: [{ step: 'annotate', state: 'failed', failure: { detail: 'x', action: 'y' } }],
      },
    ],
  };
  const names = new Map([['r1', 'a.csv']]);
  const outputs = new Map([['r1 annotate', { name: 'a-metadata.jsonld', href: '/dataset/d/resource/m' }]]);
  assert.deepEqual(stepViews(status, names, { canRetry: true, outputs }), [
    {
      step: 'a.csv: annotate',
      status: 'done',
      detail: '5 ms',
      output: { name: 'a-metadata.jsonld', href: '/dataset/d/resource/m' },
    },
    { step: 'a.csv: import', status: 'done', detail: '3 rows; 7 ms; attempt 2' },
    {
      step: 'a.csv: describe',
      status: 'failed',
      detail: 'x — y',
      failure: { detail: 'x', action: 'y' },
      retry: { resourceId: 'r1', step: 'describe' },
    },
    // The source is gone: nothing to run again.
    {
      step: 'a removed resource: annotate',
      status: 'failed',
      detail: 'x — y',
      failure: { detail: 'x', action: 'y' },
    },
  ]);
  const reader = stepViews(status, names, { outputs });
  assert.ok(reader.every((v) => v.retry === undefined));
});

test('select-mapping with no mapping reads "needs a mapping", links the mapping builder for it, and offers Retry (issue 28)', () => {
  const status = {
    resources: [
      {
        resource_id: 'r1',
        steps: [
          {
            step: 'select-mapping',
            state: 'needs-mapping',
            attempt: 1,
            summary: { durationMs: 4, note: 'no mapping selected: no mapping to check' },
          },
        ],
      },
    ],
  };
  const names = new Map([['r1', 'a.csv']]);
  assert.deepEqual(
    stepViews(status, names, {
      canRetry: true,
      mappingHref: (id) => `/group/mappings/mapping/new?resource=${id}`,
    }),
    [
      {
        step: 'a.csv: select-mapping',
        status: 'needs a mapping',
        detail: 'no mapping selected: no mapping to check; 4 ms',
        help: { href: '/group/mappings/mapping/new?resource=r1', text: 'make a mapping for it' },
        retry: { resourceId: 'r1', step: 'select-mapping' },
      },
    ],
  );
});

test('dead letters name their source and step', () => {
  const list = {
    dead_letters: [
      {
        id: 'dlq/0/4',
        resource_id: 'r1',
        group: 'chain-convert',
        error: 'E: <b>',
        attempts: 5,
        failed_at: '2026-11-25T10:00:00.000Z',
      },
      {
        id: 'dlq/0/5',
        resource_id: 'gone',
        group: 'chain-import',
        error: 'F',
        attempts: 1,
        failed_at: '2026-11-25T10:01:00.000Z',
      },
    ],
  };
  assert.deepEqual(deadLetterViews(list, new Map([['r1', 'a.csv']])), [
    {
      id: 'dlq/0/4',
      step: 'a.csv: convert',
      error: 'E: <b>',
      attempts: 5,
      failedAt: '2026-11-25T10:00:00.000Z',
    },
    {
      id: 'dlq/0/5',
      step: 'a removed resource: import',
      error: 'F',
      attempts: 1,
      failedAt: '2026-11-25T10:01:00.000Z',
    },
  ]);
  assert.deepEqual(deadLetterViews({}, new Map()), []);
});
