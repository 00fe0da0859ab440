// Dead letters: the original bytes, key and headers, plus headers that say where the message
// came from and why it failed, so that it can be inspected and replayed.
import type { OutgoingRecord, RawRecord } from './contract.ts';

export const DLQ_HEADERS = {
  error: 'x-dead-letter-error',
  topic: 'x-dead-letter-topic',
  partition: 'x-dead-letter-partition',
  offset: 'x-dead-letter-offset',
  group: 'x-dead-letter-group',
  attempts: 'x-dead-letter-attempts',
  failedAt: 'x-dead-letter-failed-at',
} as const;

export function deadLetterOf(
  record: RawRecord,
  group: string,
  error: unknown,
  attempts: number,
): OutgoingRecord {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    key: record.key,
    value: record.value,
    headers: {
      ...record.headers,
      [DLQ_HEADERS.error]: message.slice(0, 2000),
      [DLQ_HEADERS.topic]: record.topic,
      [DLQ_HEADERS.partition]: String(record.partition),
      [DLQ_HEADERS.offset]: String(record.offset),
      [DLQ_HEADERS.group]: group,
      [DLQ_HEADERS.attempts]: String(attempts),
      [DLQ_HEADERS.failedAt]: new Date().toISOString(),
    },
  };
}
