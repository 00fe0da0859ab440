// The chain's dead letters as the catalogue keeps them (lib/chain/dead-letters.ts), which event a
// replay publishes, and the Automation section that lists them with Replay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DLQ_HEADERS } from '../../lib/bus/dead-letter.ts';
import { deadLetterOf, eventStarting, replayOf, stepOf, type DeadLetter } from '../../lib/chain/index.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { renderAutomation } from '../../gateways/catalogue/pages/automation.ts';

const event = { dataset_id: 'd1', resource_id: 'r1', run: 'run1' };

const message = (group: string, value: unknown = event) => ({
  topic: 'labld.chain.annotated.dead-letter',
  partition: 0,
  offset: 7,
  key: 'd1',
  value,
  headers: {
    [DLQ_HEADERS.group]: group,
    [DLQ_HEADERS.topic]: 'labld.chain.annotated',
    [DLQ_HEADERS.error]: 'DomainError: csv_url: line 3 is not numeric',
    [DLQ_HEADERS.attempts]: '1',
    [DLQ_HEADERS.failedAt]: '2026-11-25T10:00:00.000Z',
  },
});

const kind = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? `${error.kind} ${error.field ?? ''}` : 'not a DomainError';
  }
  return 'no error';
};

test('a dead-letter message becomes a dead letter of its dataset, source, run and step', () => {
  assert.deepEqual(deadLetterOf(message('chain-import')), {
    id: 'labld.chain.annotated.dead-letter/0/7',
    package_id: 'd1',
    source_resource_id: 'r1',
    run: 'run1',
    group: 'chain-import',
    topic: 'labld.chain.annotated',
    error: 'DomainError: csv_url: line 3 is not numeric',
    attempts: 1,
    failed_at: '2026-11-25T10:00:00.000Z',
    key: 'd1',
    payload: event,
  });
  // Not the chain's, or not an event of a source: refused, naming what is wrong.
  assert.equal(
    kind(() => deadLetterOf(message('annotator-requests'))),
    `invalid ${DLQ_HEADERS.group}`,
  );
  assert.equal(
    kind(() => deadLetterOf(message('chain-import', 'text'))),
    'invalid value',
  );
  assert.equal(
    kind(() => deadLetterOf(message('chain-import', { ...event, run: '' }))),
    'invalid value.run',
  );
});

test('a replay publishes the event its group reads; one that never fitted its schema stays', () => {
  const letter = (group: string, payload: DeadLetter['payload']) => ({
    ...deadLetterOf(message(group)),
    payload,
  });
  assert.deepEqual(replayOf(letter('chain-import', event)), {
    event: 'step.annotated',
    step: 'import',
    payload: event,
  });
  const uploaded = { ...event, name: 'a.csv' };
  assert.deepEqual(replayOf(letter('chain-annotate', uploaded)), {
    event: 'resource.uploaded',
    step: 'annotate',
    payload: uploaded,
  });
  assert.equal(replayOf(letter('chain-forget', uploaded)).step, undefined);
  // resource.uploaded needs the file name; a step event takes no other field.
  assert.equal(
    kind(() => replayOf(letter('chain-annotate', event))),
    'invalid id',
  );
  assert.equal(
    kind(() => replayOf(letter('chain-describe', { ...event, extra: 1 }))),
    'invalid id',
  );
});

test('each step is started by one event, and its group runs it', () => {
  for (const step of ['annotate', 'import', 'describe', 'select-mapping', 'convert'] as const) {
    assert.equal(stepOf(`chain-${step}`), step);
    assert.ok(eventStarting(step));
  }
  assert.equal(
    new Set(
      ['annotate', 'import', 'describe', 'select-mapping', 'convert'].map((s) =>
        eventStarting(s as 'import'),
      ),
    ).size,
    5,
  );
  assert.equal(stepOf('chain-forget'), undefined);
  assert.equal(stepOf('chain-nothing'), undefined);
});

test('the Automation section escapes dead letters and posts Retry and Replay with the CSRF token', () => {
  const html = renderAutomation(
    { user: { name: 'ada' }, csrfToken: 'tok"en' },
    {
      dataset: 'tensile',
      steps: [
        {
          step: 'a.csv: convert',
          status: 'failed',
          detail: '<script>',
          retry: { resourceId: 'r1', step: 'convert' },
        },
      ],
      deadLetters: [
        {
          id: 'dlq/0/1',
          step: 'a.csv: convert',
          error: '<img src=x>',
          attempts: 5,
          failedAt: '2026-11-25T10:00:00.000Z',
        },
      ],
    },
  );
  assert.ok(!html.includes('<script>') && !html.includes('<img'), 'user text is escaped');
  assert.match(html, /&lt;img src=x&gt;/);
  assert.match(html, /action="\/dataset\/tensile\/automation\/retry"/);
  assert.match(html, /action="\/dataset\/tensile\/dead-letters\/replay"/);
  assert.equal(html.match(/name="_csrf" value="tok&quot;en"/g)?.length, 2);
  assert.match(html, /data-active="false"/);
  const running = renderAutomation(
    {},
    { dataset: 'tensile', steps: [{ step: 'a.csv: import', status: 'running' }] },
  );
  assert.match(running, /data-active="true"/);
  assert.ok(!running.includes('Dead letters'), 'no dead letters for who may not see them');
});
