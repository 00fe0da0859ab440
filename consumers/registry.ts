// Every consumer group labld runs, in one list of one shape: its group (topics.yaml names the
// topic the group reads), where its work runs, the part of labld it belongs to and its handle.
// app/processes.ts reads only this list: `labld start` runs every entry, `labld serve NAME` the
// entries of one part or one group. Request consumers answer on their topic and do their work
// in the worker pool; the chain's steps keep their bookkeeping on the main thread and hand the
// work to the pool (runsIn: 'worker'); the triple store's consumers and the chain's collectors
// work on the main thread.
import type { Message, Subscription } from '../lib/bus/contract.ts';
import { SERVICES, requestGroupOf, type ServiceName } from '../lib/services.ts';
import { CATALOGUE_GROUP } from '../lib/contracts/catalogue.ts';
import type { Runtime } from '../app/runtime.ts';
import type { WorkerPool } from './workers/pool.ts';
import { runsInWorker } from './workers/operations.ts';
import { requestHandle, type ServiceRequest } from './request-consumer.ts';
import type { ChainConsumer, ChainDeps, ChainEvent } from './chain.ts';
import { CHAIN_CONSUMERS } from './chain-steps.ts';
import { DEAD_LETTER_COLLECTORS, DEAD_LETTERS_PROCESS } from './chain-dead-letters.ts';
import { tripleStoreConsumers } from './triplestore.ts';

/** What a process opened for its consumers. */
export interface ConsumerContext {
  runtime: Runtime;
  /** The process's worker pool, when one of its consumers' work runs in a worker. */
  pool?: WorkerPool;
  /** The chain's stores and bus, when the process runs chain consumers. */
  chain?: ChainDeps;
}

/**
 * The part of labld a consumer belongs to: a service's or the catalogue's requests, the chain
 * (its steps and chain-forget), the chain's dead-letter collectors, or the triple store.
 */
export type Part = ServiceName | 'catalogue' | 'chain' | typeof DEAD_LETTERS_PROCESS | 'triplestore';

export interface Consumer {
  /** Consumer group in topics.yaml, whose topic it reads; also the name for `labld serve`. */
  group: string;
  part: Part;
  /** Where its work runs: a thread of the process's worker pool, or the main thread. */
  runsIn: 'worker' | 'main';
  /** It answers each message (a request/reply topic), or only consumes it. */
  replies: boolean;
  /** Messages of one partition handled side by side (default: the topic's in topics.yaml). */
  concurrency?(context: ConsumerContext, topicConcurrency: number): number;
  handle(context: ConsumerContext, message: Message<never>, signal: AbortSignal): Promise<unknown>;
}

/** A group whose requests run in the pool: the worker finds its operations by the group. */
export function requestConsumer(group: string, part: Part): Consumer {
  return {
    group,
    part,
    runsIn: 'worker',
    replies: true,
    // At least one per worker (topics.yaml may give more; the pool queues them): a slow request
    // holds back no other while a worker is free.
    concurrency: (context, topic) => Math.max(topic, context.pool?.size ?? 1),
    handle: (context, message: Message<ServiceRequest>, signal) =>
      requestHandle(group, needs(context.pool, group), message, signal),
  };
}

function chainConsumer(consumer: ChainConsumer, part: Part): Consumer {
  return {
    group: consumer.group,
    part,
    runsIn: runsInWorker(consumer.group) ? 'worker' : 'main',
    replies: false,
    handle: (context, message: Message<ChainEvent>, signal) =>
      consumer.handle(needs(context.chain, consumer.group), message.value, signal, message),
  };
}

function needs<T>(opened: T | undefined, group: string): T {
  if (opened === undefined) throw new Error(`the process opened nothing for the consumer group ${group}`);
  return opened;
}

/** Every consumer labld runs. */
export const CONSUMERS: readonly Consumer[] = [
  ...SERVICES.map((name) => requestConsumer(requestGroupOf(name), name)),
  requestConsumer(CATALOGUE_GROUP, 'catalogue'),
  ...CHAIN_CONSUMERS.filter((c) => !DEAD_LETTER_COLLECTORS.includes(c)).map((c) => chainConsumer(c, 'chain')),
  ...DEAD_LETTER_COLLECTORS.map((c) => chainConsumer(c, DEAD_LETTERS_PROCESS)),
  ...tripleStoreConsumers,
];

/** The consumers of `parts`, in the registry's order. */
export const consumersOf = (...parts: Part[]): Consumer[] => CONSUMERS.filter((c) => parts.includes(c.part));

/** Joins `consumer`'s group on the topic topics.yaml gives it. */
export function startConsumer(consumer: Consumer, context: ConsumerContext): Promise<Subscription> {
  const { bus, catalog } = context.runtime;
  const topic = catalog.topicReadBy(consumer.group);
  const handler = (message: Message<never>, signal: AbortSignal) => consumer.handle(context, message, signal);
  if (!consumer.replies) {
    return bus.subscribe<never>(topic.name, consumer.group, async (message, signal) => {
      await handler(message, signal);
    });
  }
  const concurrency = consumer.concurrency?.(context, topic.concurrency) ?? topic.concurrency;
  return bus.serve(topic.name, consumer.group, handler, { concurrency });
}
