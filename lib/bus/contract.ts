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
}

export interface Subscription {
  /** Partitions of the topic this member owns right now. */
  assignment(): number[];
  /** Finish the message in flight, commit it, and leave the group. */
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
   * Join `group` on `topic`. At-least-once: the offset is committed after `handler` resolves.
   * A failing handler is retried with backoff; after the last attempt, or at once for a
   * message that fails its schema or a DomainError, the message goes to the dead-letter topic.
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
 * The record handler a transport calls. Per partition one at a time, in offset order; the
 * transport commits offset+1 after it resolves. If it rejects (or `signal` was aborted
 * because the partition was revoked) nothing is committed and the record is delivered again.
 */
export type RecordHandler = (record: RawRecord, signal: AbortSignal) => Promise<void>;

export interface Transport {
  readonly clientId: string;
  ensureTopics(topics: TopicDeclaration[]): Promise<void>;
  send(topic: string, records: OutgoingRecord[]): Promise<Delivery[]>;
  consume(topic: string, group: string, handler: RecordHandler): Promise<Consumption>;
  resetOffsets(topic: string, group: string, from: ReplayFrom): Promise<void>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Turns payloads into bytes and back (JSON for the embedded bus, the registry's wire format on Kafka). */
export interface PayloadCodec {
  encode(topic: string, schemaFile: string, value: unknown): Promise<Buffer>;
  decode(topic: string, bytes: Buffer): Promise<unknown>;
}
