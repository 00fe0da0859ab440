// The Bus contract on top of any Transport: schema checks, encoding, retries with backoff,
// dead letters and request/reply live here once, so both transports behave the same.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  Bus,
  Consumption,
  Delivery,
  Handler,
  Message,
  PayloadCodec,
  PublishOptions,
  RawRecord,
  ReplayFrom,
  RequestHandler,
  RequestOptions,
  SubscribeOptions,
  Subscription,
  Transport,
} from './contract.ts';
import type { TopicCatalog, TopicSpec } from './topics.ts';
import { PayloadValidator } from './payloads.ts';
import { deadLetterOf } from './dead-letter.ts';
import { DomainError, isDomainError, TimeoutError, type ErrorKind } from '../process/errors.ts';
import { isDeterministic } from '../process/transient.ts';
import { log as rootLog, type Logger } from '../process/log.ts';
import { busDeadLettered, busHandled, busLateReplies } from '../process/metrics.ts';
import { count } from '../process/counters.ts';

/**
 * Headers of request/reply; the logging correlation id travels separately as x-correlation-id.
 * `deadline` is when the requester stops waiting (epoch milliseconds): work past it is wasted.
 */
export const REPLY_HEADERS = {
  requestId: 'x-request-id',
  replyTo: 'x-reply-to',
  deadline: 'x-deadline',
} as const;

/** A request's deadline from its headers (epoch milliseconds), if it has one. */
export function deadlineOf(headers: Record<string, string>): number | undefined {
  const deadline = Number(headers[REPLY_HEADERS.deadline]);
  return Number.isFinite(deadline) && deadline > 0 ? deadline : undefined;
}

/**
 * A reply: the value, or the error by kind. A DomainError travels as its kind and field; `timeout`
 * (the handler ran out of time) and `internal` (anything else, dead-lettered) are the bus's own.
 */
export type ReplyEnvelope =
  | { ok: true; value: unknown }
  | { ok: false; kind: ErrorKind; detail: string; field?: string }
  | { ok: false; kind: 'timeout'; detail: string }
  | { ok: false; kind: 'internal'; detail: string };

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown; attempts: number };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export const jsonCodec: PayloadCodec = {
  async encode(_topic, _schema, value) {
    return Buffer.from(JSON.stringify(value));
  },
  async decode(_topic, bytes) {
    return JSON.parse(bytes.toString('utf8'));
  },
};

export interface TransportBusOptions {
  transport: Transport;
  catalog: TopicCatalog;
  codec?: PayloadCodec;
  logger?: Logger;
}

export class TransportBus implements Bus {
  readonly #transport: Transport;
  readonly #catalog: TopicCatalog;
  readonly #codec: PayloadCodec;
  readonly #validator: PayloadValidator;
  readonly #log: Logger;
  readonly #consumptions = new Set<Consumption>();
  readonly #pending = new Map<string, Pending>();
  #replyTopic: Promise<string> | undefined;

  constructor(options: TransportBusOptions) {
    this.#transport = options.transport;
    this.#catalog = options.catalog;
    this.#codec = options.codec ?? jsonCodec;
    this.#validator = new PayloadValidator(options.catalog);
    this.#log = (options.logger ?? rootLog).child({ component: 'bus', client: options.transport.clientId });
  }

  get clientId(): string {
    return this.#transport.clientId;
  }

  /** Create or verify every topic of the catalogue. */
  async start(): Promise<this> {
    await this.#transport.ensureTopics(this.#catalog.declarations());
    return this;
  }

  async publish<T>(topic: string, value: T, options: PublishOptions = {}): Promise<Delivery> {
    const spec = this.#catalog.topic(topic);
    this.#validator.check(topic, value);
    count('bus.publish');
    const bytes = await this.#codec.encode(topic, spec.schema, value);
    const [delivery] = await this.#transport.send(topic, [
      { key: options.key ?? null, value: bytes, headers: options.headers ?? {} },
    ]);
    return delivery!;
  }

  async subscribe<T>(
    topic: string,
    group: string,
    handler: Handler<T>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    const spec = this.#catalog.topic(topic);
    return this.#consume(spec, group, options, async (record, signal) => {
      const message = await this.#decode<T>(record, group);
      if (!message) return;
      const outcome = await this.#attempt(spec, group, options, signal, () => handler(message, signal));
      if (!outcome.ok) await this.#deadLetter(record, group, outcome.error, outcome.attempts);
    });
  }

  async serve<T, R>(
    topic: string,
    group: string,
    handler: RequestHandler<T, R>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    const spec = this.#catalog.topic(topic);
    return this.#consume(spec, group, options, async (record, signal) => {
      const message = await this.#decode<T>(record, group);
      if (!message)
        return this.#reply(record, { ok: false, kind: 'internal', detail: 'request refused by its schema' });
      const outcome = await this.#attempt(
        spec,
        group,
        options,
        signal,
        () => handler(message, signal),
        (error) => error instanceof TimeoutError,
      );
      if (outcome.ok) return this.#reply(record, { ok: true, value: outcome.value });
      if (isDomainError(outcome.error)) {
        const { kind, message, field } = outcome.error;
        return this.#reply(record, {
          ok: false,
          kind,
          detail: message,
          ...(field === undefined ? {} : { field }),
        });
      }
      // Out of time: the requester has stopped waiting; trying again or dead-lettering helps no one.
      if (outcome.error instanceof TimeoutError) {
        return this.#reply(record, { ok: false, kind: 'timeout', detail: outcome.error.message });
      }
      await this.#deadLetter(record, group, outcome.error, outcome.attempts);
      await this.#reply(record, {
        ok: false,
        kind: 'internal',
        detail: 'internal error; the request was dead-lettered',
      });
    });
  }

  async request<T, R>(topic: string, value: T, options: RequestOptions): Promise<R> {
    const replyTo = await this.#replies();
    const requestId = randomUUID();
    const reply = new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        reject(new TimeoutError(`no reply from ${topic} within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      this.#pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject, timer });
    });
    // The timeout may fire while the publish is still on its way; the rejection is the
    // caller's (returned below), not an unhandled one.
    reply.catch(() => {});
    try {
      await this.publish(topic, value, {
        key: options.key ?? requestId,
        headers: {
          ...options.headers,
          [REPLY_HEADERS.requestId]: requestId,
          [REPLY_HEADERS.replyTo]: replyTo,
          [REPLY_HEADERS.deadline]: String(Date.now() + options.timeoutMs),
        },
      });
    } catch (error) {
      clearTimeout(this.#pending.get(requestId)?.timer);
      this.#pending.delete(requestId);
      throw error;
    }
    return reply;
  }

  async replay(topic: string, group: string, from: ReplayFrom): Promise<void> {
    this.#catalog.topic(topic);
    await this.#transport.resetOffsets(topic, group, from);
  }

  ready(): Promise<boolean> {
    return this.#transport.ready();
  }

  async close(): Promise<void> {
    await Promise.all([...this.#consumptions].map((c) => c.stop()));
    this.#consumptions.clear();
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error('bus closed before the reply arrived'));
      this.#pending.delete(id);
    }
    await this.#transport.close();
  }

  // ---- internals ----

  async #consume(
    spec: TopicSpec,
    group: string,
    options: SubscribeOptions,
    handle: (record: RawRecord, signal: AbortSignal) => Promise<void>,
  ): Promise<Subscription> {
    const concurrency = options.concurrency ?? spec.concurrency;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error(
        `concurrency of ${group} on ${spec.name} must be a whole number ≥ 1, got ${concurrency}`,
      );
    const consumption = await this.#transport.consume(spec.name, group, handle, { concurrency });
    this.#consumptions.add(consumption);
    return {
      assignment: () => consumption.assignment(),
      close: async () => {
        this.#consumptions.delete(consumption);
        await consumption.stop();
      },
    };
  }

  /** Decode and check a record; a record that fails goes to the dead-letter topic at once. */
  async #decode<T>(record: RawRecord, group: string): Promise<Message<T> | null> {
    try {
      const value = await this.#codec.decode(record.topic, record.value);
      this.#validator.check(record.topic, value);
      const { topic, partition, offset, key, headers, timestamp } = record;
      return { topic, partition, offset, key, headers, timestamp, value: value as T };
    } catch (error) {
      await this.#deadLetter(record, group, error, 0);
      return null;
    }
  }

  /**
   * Run `fn` until it succeeds, fails with a DomainError, a deterministic error (a bug, a statement
   * the database calls wrong: lib/process/transient.ts) or a `final` one, or has used every attempt.
   */
  async #attempt<R>(
    spec: TopicSpec,
    group: string,
    options: SubscribeOptions,
    signal: AbortSignal,
    fn: () => Promise<R>,
    final: (error: unknown) => boolean = () => false,
  ): Promise<Outcome<R>> {
    const maxAttempts = options.maxAttempts ?? spec.maxAttempts;
    const backoffMs = options.backoffMs ?? spec.backoffMs;
    for (let attempt = 1; ; attempt += 1) {
      const timer = busHandled.startTimer({ topic: spec.name, group });
      try {
        const value = await fn();
        timer({ outcome: 'ok' });
        return { ok: true, value };
      } catch (error) {
        timer({ outcome: 'error' });
        // A revoked partition: give up without committing; the next owner gets the message.
        if (signal.aborted) throw error;
        if (isDomainError(error) || isDeterministic(error) || final(error) || attempt >= maxAttempts)
          return { ok: false, error, attempts: attempt };
        this.#log.warn({ topic: spec.name, group, attempt, err: String(error) }, 'handler failed; retrying');
        await sleep(backoffMs * 2 ** (attempt - 1), undefined, { signal });
      }
    }
  }

  async #deadLetter(record: RawRecord, group: string, error: unknown, attempts: number): Promise<void> {
    const target = this.#catalog.topic(record.topic).deadLetter;
    this.#log.error(
      {
        topic: record.topic,
        partition: record.partition,
        offset: record.offset,
        group,
        attempts,
        err: String(error),
      },
      target ? 'message dead-lettered' : 'message dropped: its topic has no dead-letter topic',
    );
    if (!target) return;
    busDeadLettered.inc({ topic: record.topic, group });
    count('bus.publish');
    await this.#transport.send(target, [deadLetterOf(record, group, error, attempts)]);
  }

  async #reply(request: RawRecord, envelope: ReplyEnvelope): Promise<void> {
    const replyTo = request.headers[REPLY_HEADERS.replyTo];
    const requestId = request.headers[REPLY_HEADERS.requestId];
    if (!replyTo || !requestId) return;
    await this.publish(replyTo, envelope, {
      key: requestId,
      headers: { [REPLY_HEADERS.requestId]: requestId },
    });
  }

  /** This instance's reply topic, consumed on first use. */
  #replies(): Promise<string> {
    this.#replyTopic ??= (async () => {
      const topic = this.#catalog.replyTopicFor(this.clientId);
      await this.#transport.ensureTopics([this.#catalog.declaration(topic)]);
      const consumption = await this.#transport.consume(topic, `${topic}.reader`, (record) =>
        this.#settle(record),
      );
      this.#consumptions.add(consumption);
      return topic;
    })();
    return this.#replyTopic;
  }

  async #settle(record: RawRecord): Promise<void> {
    const pending = this.#pending.get(record.headers[REPLY_HEADERS.requestId] ?? '');
    if (!pending) {
      busLateReplies.inc();
      return;
    }
    this.#pending.delete(record.headers[REPLY_HEADERS.requestId]!);
    clearTimeout(pending.timer);
    let envelope: ReplyEnvelope;
    try {
      envelope = (await this.#codec.decode(record.topic, record.value)) as ReplyEnvelope;
      this.#validator.check(record.topic, envelope);
    } catch (error) {
      pending.reject(new Error(`malformed reply on ${record.topic}: ${(error as Error).message}`));
      return;
    }
    if (envelope.ok) pending.resolve(envelope.value);
    else if (envelope.kind === 'timeout') pending.reject(new TimeoutError(envelope.detail));
    else if (envelope.kind === 'internal') pending.reject(new Error(envelope.detail));
    else pending.reject(new DomainError(envelope.kind, envelope.detail, envelope.field));
  }
}
