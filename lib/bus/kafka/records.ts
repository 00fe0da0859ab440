// Records between labld's Transport shapes and kafkajs's: keys and header values are text on
// labld's side and may arrive as Buffers from Kafka.
import type { IHeaders, KafkaMessage, Message as KafkaJsMessage } from 'kafkajs';
import type { OutgoingRecord, RawRecord } from '../contract.ts';

export function toKafkaMessage(record: OutgoingRecord): KafkaJsMessage {
  return { key: record.key, value: record.value, headers: { ...record.headers } };
}

export function headersOf(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    // A header repeated on the wire keeps its first value, as a plain record has one.
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return out;
}

export function toRawRecord(topic: string, partition: number, message: KafkaMessage): RawRecord {
  return {
    topic,
    partition,
    offset: Number(message.offset),
    timestamp: Number(message.timestamp),
    key: message.key === null ? null : message.key.toString('utf8'),
    value: message.value ?? Buffer.alloc(0),
    headers: headersOf(message.headers),
  };
}

/** The protocol errors by which a member learns that its partitions are being taken away. */
const REVOKING = new Set([
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'NOT_COORDINATOR_FOR_GROUP',
  'FENCED_INSTANCE_ID',
]);

export function isRevocation(error: unknown): boolean {
  const e = error as { type?: unknown; cause?: { type?: unknown } } | null;
  const type = e?.type ?? e?.cause?.type;
  return typeof type === 'string' && REVOKING.has(type);
}
