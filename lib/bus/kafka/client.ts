// The Kafka client of one transport: options with their defaults, the kafkajs client with its
// log lines routed to ours, and the namespace that maps labld's topic and group names to the
// cluster's (a prefix, so that tests or several labld installations can share one cluster).
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';
import type { Kafka, LogEntry, logLevel as LogLevel } from 'kafkajs';
import type { Logger } from '../../process/log.ts';
import './kafkajs-fixes.ts';

export interface KafkaOptions {
  /** Bootstrap servers, `host:port`. */
  brokers: string[];
  /** Unique per process instance: it names this instance's reply topic. Default: host, pid and a random part. */
  clientId?: string;
  /** Put in front of every topic and group name on the cluster (default none). */
  topicPrefix?: string;
  /** A member that sends no heartbeat for this long leaves its group (default 10 s). */
  sessionTimeoutMs?: number;
  /** Heartbeats are sent at most this often, also while a handler runs (default 1 s). */
  heartbeatIntervalMs?: number;
  /** How long an idle fetch waits on the broker; bounds how fast a consumer stops (default 500 ms). */
  maxWaitTimeMs?: number;
  /** Replicas of each topic created (default: min(3, brokers in the cluster)). */
  replicationFactor?: number;
  /** Partitions one consumer handles at the same time, each in order (default 32). */
  partitionsConsumedConcurrently?: number;
}

export type ResolvedKafkaOptions = Required<Omit<KafkaOptions, 'replicationFactor'>> &
  Pick<KafkaOptions, 'replicationFactor'>;

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

export function defaultClientId(): string {
  const host = hostname()
    .replace(/[^A-Za-z0-9-]/g, '-')
    .slice(0, 40);
  return `${host}-${process.pid}-${randomUUID().slice(0, 8)}`;
}

export function resolveOptions(options: KafkaOptions): ResolvedKafkaOptions {
  if (options.brokers.length === 0) throw new Error('the kafka transport needs at least one broker');
  const resolved: ResolvedKafkaOptions = {
    brokers: options.brokers,
    clientId: options.clientId ?? defaultClientId(),
    topicPrefix: options.topicPrefix ?? '',
    sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 1_000,
    maxWaitTimeMs: options.maxWaitTimeMs ?? 500,
    replicationFactor: options.replicationFactor,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 32,
  };
  if (!SAFE_NAME.test(resolved.clientId))
    throw new Error(`client id ${resolved.clientId} has unsafe characters`);
  if (resolved.topicPrefix && !SAFE_NAME.test(resolved.topicPrefix)) {
    throw new Error(`topic prefix ${resolved.topicPrefix} has unsafe characters`);
  }
  return resolved;
}

/** labld's names ↔ the cluster's names. */
export class Namespace {
  readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  topic(name: string): string {
    return this.prefix + name;
  }

  group(name: string): string {
    return this.prefix + name;
  }

  /** The labld name of a cluster topic. */
  local(clusterTopic: string): string {
    return clusterTopic.startsWith(this.prefix) ? clusterTopic.slice(this.prefix.length) : clusterTopic;
  }
}

// Logged by kafkajs as errors but routine, and handled where they occur: a rebalance (a member
// joined or left) found by a heartbeat; a fresh broker's coordinators "loading"; a partition
// whose leadership is still moving right after the topic was created (kafkajs retries, and a
// lasting failure reaches the caller as an error). kafkajs also warns that the idempotent
// producer's retries are limited: that is deliberate (a publish fails, and its HTTP request
// gets an answer, rather than hanging while the cluster is down); a publish the caller then
// retries may be stored twice, which at-least-once consumers tolerate anyway.
const ROUTINE = new RegExp(
  [
    'rebalanc',
    'not aware of this member',
    'group coordinator is not available',
    'coordinator is loading',
    'not the leader for that topic-partition',
    'does not host this topic-partition',
    'Limiting retries for the idempotent producer',
  ].join('|'),
  'i',
);

function logCreator(logger: Logger) {
  const { logLevel } = kafkajs;
  return () =>
    ({ level, log: entry }: LogEntry) => {
      const { message, timestamp: _t, logger: _l, ...fields } = entry;
      const routine = ROUTINE.test(`${message} ${String(fields.error ?? '')}`);
      if (level === logLevel.ERROR && !routine) logger.error(fields, message);
      else if (level <= logLevel.WARN && !routine) logger.warn(fields, message);
      else logger.debug(fields, message);
    };
}

export function createKafka(options: ResolvedKafkaOptions, logger: Logger): Kafka {
  return new kafkajs.Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: kafkajs.logLevel.INFO as LogLevel,
    logCreator: logCreator(logger.child({ component: 'kafkajs' })),
    connectionTimeout: 3_000,
    retry: { initialRetryTime: 100, retries: 8 },
  });
}

/** A connect run once and shared by its callers; one that failed is run again by the next call. */
export interface OnceConnect {
  (): Promise<void>;
  /** Whether a connect has been asked for (one may be open to close). */
  begun(): boolean;
}

export function connectOnce(connect: () => Promise<void>): OnceConnect {
  let connected: Promise<void> | undefined;
  // Kept after a failure (the broker away at the first use), it would fail every later use for good.
  const once = () =>
    (connected ??= connect().catch((error: unknown) => {
      connected = undefined;
      throw error;
    }));
  return Object.assign(once, { begun: () => connected !== undefined });
}
