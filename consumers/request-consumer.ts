// A request consumer's handle: each request goes to the worker pool, which runs the operation it
// names off the main thread; its result is the reply (consumers/registry.ts joins the group).
// Operations are domain functions; this file knows the bus's messages, they do not.
import type { Message } from '../lib/bus/contract.ts';
import { deadlineOf, REPLY_HEADERS } from '../lib/bus/bus.ts';
import type { BlobStore } from '../lib/blobs/blob-store.ts';
import type { WorkerPool } from './workers/pool.ts';
import type { OperationStores } from './stores.ts';
import type { DocumentCache } from '../lib/shared/contract.ts';
import { CREDENTIAL_HEADER, credentialFromHeader, type Credential } from '../lib/catalogue/auth/actor.ts';

export interface ServiceRequest {
  operation: string;
  input: Record<string, unknown>;
}

export interface OperationContext {
  correlationId: string | undefined;
  /**
   * The request's own id (unique per request, the same when the bus delivers it again): an
   * operation that writes keeps it to write once.
   */
  requestId?: string | undefined;
  /** The caller's credential (hashes only): whose rights a URL of this catalogue is read with. */
  credential?: Credential | undefined;
  /**
   * True when the bus's check of the request saw its whole input (it came inline, not as a
   * claim): the operation need not check it against the same contract again.
   */
  checked?: boolean;
  signal: AbortSignal;
  /**
   * Takes work to do after the answer is sent, before the worker takes another job (the import's
   * preview indexes, while the chain goes on to describe). Absent: the operation does it itself.
   */
  later?: (task: () => Promise<void>) => void;
}

/** An operation with its input type; the input was checked against the operation's contract. */
export type Operation<I = Record<string, unknown>> = (
  input: I,
  context: OperationContext,
) => Promise<unknown>;

/** What operations may use: rebuilt in each worker from the data directory. */
export interface OperationEnv {
  /** Files and derived resources, shared by every process of a deployment (a shared volume on Kafka). */
  blobs: BlobStore;
  /** The catalogue store and the datastore, opened on first use in each worker. */
  stores: OperationStores;
  /** Fetched templates, mappings and shapes, shared by the process (and on Redis by every process). */
  documents?: DocumentCache;
}

export interface RequestConsumer {
  /** Consumer group, as declared in topics.yaml; also the name for `labld serve`. */
  group: string;
  /**
   * A module of its own whose `operationsFor(group, env)` gives the group's operations (test
   * fixtures); else the worker finds them by the group (consumers/workers/operations.ts).
   */
  module?: string;
}

/** One request of `group` run in `pool` until its deadline or `signal`; the reply is its result. */
export function requestHandle(
  group: string,
  pool: WorkerPool,
  message: Message<ServiceRequest>,
  signal: AbortSignal,
): Promise<unknown> {
  return pool.run(group, message.value.operation, message.value.input, {
    correlationId: message.headers['x-correlation-id'],
    requestId: message.headers[REPLY_HEADERS.requestId],
    credential: credentialFromHeader(message.headers[CREDENTIAL_HEADER]),
    deadline: deadlineOf(message.headers),
    signal,
  });
}
