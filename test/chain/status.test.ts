// The step status model: which transitions are allowed from which state, stale runs refused,
// attempts counted, and failures put in words with what to do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  failStep,
  finishStep,
  progressStep,
  queueStep,
  startStep,
  stepFailure,
  type StepState,
  type StepStatus,
} from '../../lib/chain/index.ts';
import { DomainError, invalid, unreachable } from '../../lib/process/errors.ts';

const RUN = 'r1';
const T0 = '2026-11-25T09:00:00.000Z';
const T1 = '2026-11-25T09:00:01.000Z';
const T2 = '2026-11-25T09:00:02.500Z';
const SUMMARY = { durationMs: 1500, triples: 42 };

const queued = queueStep(undefined, { step: 'describe', run: RUN, at: T0 });
const running = startStep(queued, RUN, T1);
const done = finishStep(running, RUN, T2, SUMMARY);
const failed = failStep(running, RUN, T2, invalid('file: the file is empty', 'file'));
// select-mapping found no mapping: it rests, not done, and runs again when the library changes.
const waiting = finishStep(running, RUN, T2, SUMMARY, 'needs-mapping');
const STATES: Record<StepState, StepStatus> = { queued, running, done, failed, 'needs-mapping': waiting };

/** Each operation on a status of the same run; throws when the model refuses it. */
const OPERATIONS: Record<string, (s: StepStatus) => StepStatus> = {
  queue: (s) => queueStep(s, { step: s.step, run: RUN, at: T2 }),
  start: (s) => startStep(s, RUN, T2),
  progress: (s) => progressStep(s, RUN, { rows: 10 }),
  finish: (s) => finishStep(s, RUN, T2, SUMMARY),
  wait: (s) => finishStep(s, RUN, T2, SUMMARY, 'needs-mapping'),
  fail: (s) => failStep(s, RUN, T2, new Error('boom')),
};

/** state → operation → the state it leads to; an operation not named is refused. */
const ALLOWED: Record<StepState, Partial<Record<string, StepState>>> = {
  queued: { queue: 'queued', start: 'running', fail: 'failed' },
  running: { start: 'running', progress: 'running', finish: 'done', wait: 'needs-mapping', fail: 'failed' },
  done: { queue: 'queued' },
  failed: { queue: 'queued', start: 'running' },
  'needs-mapping': { queue: 'queued', start: 'running' },
};

test('every state × operation: allowed transitions lead where the model says, the others are refused', () => {
  for (const [from, status] of Object.entries(STATES) as [StepState, StepStatus][]) {
    for (const [operation, apply] of Object.entries(OPERATIONS)) {
      const expected = ALLOWED[from][operation];
      if (expected === undefined) {
        assert.throws(
          () => apply(status),
          (e: unknown) => e instanceof DomainError && e.kind === 'conflict' && e.field === 'state',
          `${operation} from ${from} is refused`,
        );
      } else {
        assert.equal(apply(status).state, expected, `${operation} from ${from}`);
      }
    }
  }
});

test('a message of another run is refused as stale; queueing a new run supersedes any state', () => {
  for (const [from, status] of Object.entries(STATES) as [StepState, StepStatus][]) {
    assert.throws(() => startStep(status, 'r0', T2), /stale/, `start of an old run from ${from}`);
    assert.throws(() => failStep(status, 'r0', T2, new Error('x')), /stale/);
    const superseded = queueStep(status, { step: 'describe', run: 'r2', at: T2 });
    assert.deepEqual(superseded, { step: 'describe', run: 'r2', attempt: 0, queuedAt: T2, state: 'queued' });
  }
  assert.throws(() => finishStep(running, 'r0', T2, SUMMARY), /stale/);
  assert.throws(() => progressStep(running, 'r0', { rows: 1 }), /stale/);
});

test('the values each state carries: attempts, times, merged progress, summary', () => {
  assert.deepEqual(queued, { step: 'describe', run: RUN, attempt: 0, queuedAt: T0, state: 'queued' });
  assert.deepEqual(running, {
    step: 'describe',
    run: RUN,
    attempt: 1,
    queuedAt: T0,
    state: 'running',
    startedAt: T1,
  });
  const progressed = progressStep(progressStep(running, RUN, { rows: 10 }), RUN, { triples: 300 });
  assert.deepEqual(progressed.state === 'running' && progressed.progress, { rows: 10, triples: 300 });
  assert.deepEqual(done, {
    step: 'describe',
    run: RUN,
    attempt: 1,
    queuedAt: T0,
    state: 'done',
    startedAt: T1,
    finishedAt: T2,
    summary: SUMMARY,
  });
  // Redelivered after a crash, then retried after a failure: each start counts.
  const again = startStep(running, RUN, T2);
  assert.equal(again.attempt, 2);
  const retried = startStep(failed, RUN, T2);
  assert.equal(retried.attempt, 2);
  // Retry (queue again in the same run) keeps the count; a new run starts from 0.
  assert.equal(queueStep(failed, { step: 'describe', run: RUN, at: T2 }).attempt, 1);
  // A step dead-lettered before it ran fails from queued, without a start time.
  const never = failStep(queued, RUN, T1, unreachable('converter: no answer'));
  assert.equal(never.state === 'failed' && never.startedAt, undefined);
});

test('a failure is put in words: kind, detail, field, whether retrying helps, and what to do', () => {
  assert.deepEqual(failed.state === 'failed' && failed.failure, {
    kind: 'invalid',
    detail: 'file: the file is empty',
    field: 'file',
    retryable: false,
    action:
      'the file cannot be read as a table: check that it is a delimited text file (CSV, TSV) and upload a corrected version',
  });
  assert.match(
    stepFailure('convert', invalid('mapping_url: not valid YAML', 'mapping_url')).action,
    /correct the mapping in the group mappings/,
  );
  const down = stepFailure('convert', unreachable('mapping_url: the template did not answer', 'mapping_url'));
  assert.equal(down.retryable, true);
  assert.match(down.action, /retried by itself/);
  // A fault of labld says nothing of its internals.
  const internal = stepFailure('describe', new Error('ENOENT /srv/labld/blobs/ab/cd'));
  assert.deepEqual(
    [internal.kind, internal.detail, internal.retryable],
    ['internal', 'internal error', false],
  );
  assert.match(internal.action, /report it/);
});

test('an import that refuses a cell says to check the column format in the descriptor', () => {
  const refused = invalid(
    'csv_url: line 12 of x.csv: "0,00000" in column "Godzina" is not numeric (the descriptor\'s format: decimal ",")',
    'csv_url',
  );
  assert.match(
    stepFailure('import', refused).action,
    /^a cell does not fit its column as the descriptor describes it .*check that column's format in the descriptor \(its datatype, decimalChar, groupChar\), or upload a corrected file, then press Retry$/,
  );
  // Other steps' refusals of the file keep their words.
  assert.match(stepFailure('annotate', invalid('file: empty', 'file')).action, /cannot be read as a table/);
});

test('a validate step whose shapes do not read asks for the shapes beside the mapping, not for a new table', () => {
  const failure = stepFailure('validate', invalid('shapes: not valid Turtle at line 3', 'shapes'));
  assert.match(failure.action, /correct the shapes file .*-shapes\.ttl.* in the group mappings/);
  assert.doesNotMatch(failure.action, /table/);
});
