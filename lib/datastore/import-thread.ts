// A large CSV's rows parsed on a second thread while this one inserts them: reading the CSV
// by its dialect and its cells by their types costs about as much CPU as the database's
// inserts, so a 1M-row import takes the longer of the two instead of their sum. This thread
// reads the body (the stream stays where it was opened) and sends its chunks a window at a
// time; the parser (import-worker.ts) keeps a few batches ahead of the inserts, so neither
// side holds more than a few MB.
import { Worker } from 'node:worker_threads';
import type { DescriptorDialect } from '../csvw/descriptor-rows.ts';
import type { NumberStyle } from '../csvw/column-format.ts';
import { CSV_FIELD, readError } from '../csvw/types.ts';
import { DomainError, type ErrorKind } from '../process/errors.ts';
import { DeterministicFault } from '../process/transient.ts';
import { youngGenerationMb } from '../process/heap.ts';
import type { ColumnBatch, Field } from './contract.ts';
import { count } from '../process/counters.ts';

const ENTRY = new URL('./import-worker.ts', import.meta.url);
/** Chunks sent and not yet read by the parser (a file stream's are 64 KiB). */
const WINDOW = 64;
/** Batches the parser makes before it waits for one to be taken. */
const AHEAD = 4;

export interface ParseJob {
  csvUrl: string;
  dialect: DescriptorDialect;
  fields: Field[];
  styles: NumberStyle[];
  batchSize: number | undefined;
  ahead: number;
}

export type ToParser =
  | { type: 'chunk'; chunk: Uint8Array | string }
  | { type: 'end' }
  /** A batch was taken: the parser may make another. */
  | { type: 'taken' };

export type FromParser =
  /** A chunk was read: another may be sent. */
  | { type: 'read' }
  | { type: 'batch'; batch: ColumnBatch }
  | { type: 'done' }
  | {
      type: 'failed';
      failure: { kind?: ErrorKind; message: string; field?: string | undefined; deterministic?: boolean };
    };

type Outcome = { type: 'batch'; batch: ColumnBatch } | { type: 'done' } | { type: 'error'; error: unknown };

/**
 * The rows of `body` (the CSV's bytes or text, in order) as column batches, parsed on a worker
 * thread; the same rows, values and refusals as `columnBatches` over `descriptorRowBatches`.
 */
export async function* columnBatchesInThread(
  body: AsyncIterable<Uint8Array | string>,
  csvUrl: string,
  dialect: DescriptorDialect,
  fields: Field[],
  styles: NumberStyle[],
  batchSize?: number,
): AsyncGenerator<ColumnBatch> {
  const job: ParseJob = { csvUrl, dialect, fields, styles, batchSize, ahead: AHEAD };
  count('handoff.import');
  count('parse.csv');
  // Its young generation as every worker's (LABLD_SEMI_SPACE_MB; V8's flag caps it anyway).
  const young = youngGenerationMb();
  const worker = new Worker(ENTRY, {
    workerData: job,
    ...(young === undefined ? {} : { resourceLimits: { maxYoungGenerationSizeMb: young } }),
  });
  const outcomes: Outcome[] = [];
  let wake: (() => void) | undefined;
  const arrive = (outcome: Outcome) => {
    outcomes.push(outcome);
    wake?.();
  };
  let unread = 0;
  let readMore: (() => void) | undefined;
  let stopped = false;
  worker.on('message', (message: FromParser) => {
    if (message.type === 'read') {
      unread -= 1;
      readMore?.();
    } else if (message.type === 'failed') {
      const { kind, message: text, field, deterministic } = message.failure;
      const error = kind
        ? new DomainError(kind, text, field)
        : deterministic
          ? new DeterministicFault(text)
          : new Error(text);
      arrive({ type: 'error', error });
    } else arrive(message);
  });
  worker.on('error', (error) => arrive({ type: 'error', error }));
  worker.on('exit', () => arrive({ type: 'error', error: new Error('the CSV parser thread ended early') }));

  const feed = async () => {
    try {
      for await (const chunk of body) {
        if (stopped) return;
        while (unread >= WINDOW && !stopped) await new Promise<void>((resolve) => (readMore = resolve));
        if (stopped) return;
        unread += 1;
        worker.postMessage({ type: 'chunk', chunk } satisfies ToParser);
      }
      if (!stopped) worker.postMessage({ type: 'end' } satisfies ToParser);
    } catch (error) {
      // A stream that breaks off mid-way is a 422 naming csv_url, as when read on one thread.
      arrive({ type: 'error', error: readError(error, csvUrl, CSV_FIELD) });
    }
  };
  const feeding = feed();
  try {
    for (;;) {
      while (outcomes.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const outcome = outcomes.shift() as Outcome;
      if (outcome.type === 'error') throw outcome.error;
      if (outcome.type === 'done') return;
      worker.postMessage({ type: 'taken' } satisfies ToParser);
      yield outcome.batch;
    }
  } finally {
    stopped = true;
    readMore?.();
    worker.removeAllListeners('exit');
    await worker.terminate();
    await feeding;
  }
}
