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

export type Operation = (input: Record<string, unknown>, context: OperationContext) => Promise<unknown>;

export interface RequestConsumer {
  /** Consumer group, as declared in topics.yaml; also the name for `labld serve`. */
  group: string;
  /** The operations, given what the process provides (the blob store, …). */
  operations(runtime: Runtime): Record<string, Operation>;
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
    const value = await run(fields, { correlationId: message.headers['x-correlation-id'], signal });
    return checkIn(runtime.blobs, value);
  });
}
