// The Bus contract: what gateways and consumers may rely on, whatever the transport.
// It is cut along Kafka's own concepts (topic, partition, key, offset, consumer group,
// committed offset) so that the embedded and the Kafka transports can keep it exactly.

/** A message as a handler sees it: decoded and validated against its topic's schema. */
export interface Message<T = unknown> {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: T;
  headers: Record<string, string>;
  /** Milliseconds since the epoch, set when the message was appended. */
  timestamp: number;
}

export interface PublishOptions {
  /** Messages with the same key go to the same partition and keep their order. */
  key?: string;
  headers?: Record<string, string>;
}

export interface Delivery {
  topic: string;
  partition: number;
  offset: number;
}

export interface SubscribeOptions {
  /** Attempts before the message goes to the dead-letter topic (default: topics.yaml). */
  maxAttempts?: number;
  /** First retry delay; doubled on each further attempt (default: topics.yaml). */
  backoffMs?: number;
  /**
   * Messages of one partition handled at once (default: topics.yaml's `concurrency`, else 1).
   * Above 1 a partition's messages start in offset order but may finish out of order, so one
   * key's order is kept only at 1 (event topics); see RecordHandler for what is committed.
   */
  concurrency?: number;
}

export interface Subscription {
  /** Partitions of the topic this member owns right now. */
  assignment(): number[];
  /** Finish the messages in flight (their signals aborted), commit what finished, and leave the group. */
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
}

/** Where to restart a consumer group: an offset in every partition, or the first message at or after a time. */
export type ReplayFrom = { offset: number } | { timestamp: number };

export type Handler<T> = (message: Message<T>, signal: AbortSignal) => Promise<void>;
export type RequestHandler<T, R> = (message: Message<T>, signal: AbortSignal) => Promise<R>;

export interface Bus {
  readonly clientId: string;
  /** Validate against the topic's schema and append; refused with a SchemaViolation naming the field. */
  publish<T>(topic: string, value: T, options?: PublishOptions): Promise<Delivery>;
  /**
   * Join `group` on `topic`. At-least-once: the offset is committed after `handler` resolved
   * for the message and for every earlier one of its partition (see RecordHandler).
   * A failing handler is retried with backoff; after the last attempt, or at once for a
   * message that fails its schema, a DomainError or a deterministic failure (a bug:
   * lib/process/transient.ts), the message goes to the dead-letter topic.
   */
  subscribe<T>(
    topic: string,
    group: string,
    handler: Handler<T>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /**
   * Send a request and await the one reply with its correlation id; TimeoutError after `timeoutMs`.
   * The request carries its deadline (now + `timeoutMs`) in the `x-deadline` header.
   */
  request<T, R>(topic: string, value: T, options: RequestOptions): Promise<R>;
  /**
   * Answer requests on `topic` in `group`: the handler's result (or DomainError) is the reply.
   * A TimeoutError is answered as such (a `timeout` reply) at once, neither retried nor dead-lettered.
   */
  serve<T, R>(
    topic: string,
    group: string,
    handler: RequestHandler<T, R>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /** Move the committed offsets of `group` on `topic`; the group must have no running members. */
  replay(topic: string, group: string, from: ReplayFrom): Promise<void>;
  /** Ready when the transport is connected. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

// ---- Transport: the lower layer each transport implements (bytes, not payloads) ----

export interface OutgoingRecord {
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
}

export interface RawRecord extends OutgoingRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
}

export interface TopicDeclaration {
  name: string;
  partitions: number;
  retentionMs: number;
  /** Per-instance topics (reply topics) live as long as their instance; no history is kept. */
  ephemeral: boolean;
}

export interface Consumption {
  assignment(): number[];
  stop(): Promise<void>;
}

/**
 * The record handler a transport calls. Per partition up to `concurrency` records running at
 * once, started in offset order (at 1: one after the other, so one key's records stay in
 * order). The committed offset only moves over the contiguous prefix of finished records:
 * after a record's handler resolves, the transport commits the offset past the last record of
 * that prefix, never past a record still running (finished records behind it wait for it). A handler that rejects is called again for the
 * same record; if `signal` is aborted (the partition revoked, the consumption stopped) a
 * rejection ends it unfinished. So after a revocation, stop or crash, the unfinished records
 * AND every finished record behind the first unfinished one are delivered again
 * (at-least-once): a fast record that finished while a slow one before it ran comes twice.
 */
export type RecordHandler = (record: RawRecord, signal: AbortSignal) => Promise<void>;

export interface ConsumeOptions {
  /** Records of one partition whose handler runs at once (at least 1). */
  concurrency: number;
}

export interface Transport {
  readonly clientId: string;
  ensureTopics(topics: TopicDeclaration[]): Promise<void>;
  send(topic: string, records: OutgoingRecord[]): Promise<Delivery[]>;
  consume(
    topic: string,
    group: string,
    handler: RecordHandler,
    options?: ConsumeOptions,
  ): Promise<Consumption>;
  resetOffsets(topic: string, group: string, from: ReplayFrom): Promise<void>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Turns payloads into bytes and back (JSON for the embedded bus, the registry's wire format on Kafka). */
export interface PayloadCodec {
  encode(topic: string, schemaFile: string, value: unknown): Promise<Buffer>;
  decode(topic: string, bytes: Buffer): Promise<unknown>;
}
