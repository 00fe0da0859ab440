// The shell around request consumers: read the group's topic from topics.yaml, dispatch each
// request to the operation it names, reply with the result. Operations are domain functions;
// this file knows the bus, they do not.
import type { Subscription } from '../lib/bus/contract.ts';
import type { Runtime } from '../lib/runtime.ts';
import { ClientError } from '../lib/errors.ts';
import { checkIn, checkOut } from '../lib/blobs/claim-check.ts';

export interface ServiceRequest {
  operation: string;
  input: Record<string, unknown>;
}

export interface OperationContext {
  correlationId: string | undefined;
  signal: AbortSignal;
}

/** An operation with its input type; the input was checked against the operation's contract. */
export type Operation<I = Record<string, unknown>> = (
  input: I,
  context: OperationContext,
) => Promise<unknown>;

export interface RequestConsumer {
  /** Consumer group, as declared in topics.yaml; also the name for `labld serve`. */
  group: string;
  /** The operations, given what the process provides (the blob store, …). */
  operations(runtime: Runtime): Record<string, Operation<never>>;
}

export function runRequestConsumer(runtime: Runtime, consumer: RequestConsumer): Promise<Subscription> {
  const topic = runtime.catalog.topicReadBy(consumer.group).name;
  const operations = consumer.operations(runtime);
  return runtime.bus.serve<ServiceRequest, unknown>(topic, consumer.group, async (message, signal) => {
    const { operation, input } = message.value;
    const run = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
    if (!run)
      throw new ClientError(404, `operation ${operation} is not offered by ${consumer.group}`, 'operation');
    const fields = (await checkOut(runtime.blobs, input)) as Record<string, unknown>;
    // `never`: each operation takes its own input type, which its contract checked on the way in.
    const value = await run(fields as never, { correlationId: message.headers['x-correlation-id'], signal });
    return checkIn(runtime.blobs, value);
  });
}
