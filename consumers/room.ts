// The shell around request consumers: read the group's topic from topics.yaml, dispatch each
// request to the operation it names, reply with the result. Operations are domain functions;
// this file knows the bus, they do not.
import type { Bus, Subscription } from '../lib/bus/contract.ts';
import type { TopicCatalog } from '../lib/bus/topics.ts';
import { ClientError } from '../lib/errors.ts';

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
  operations: Record<string, Operation>;
}

export function runRequestConsumer(
  bus: Bus,
  catalog: TopicCatalog,
  consumer: RequestConsumer,
): Promise<Subscription> {
  const topic = catalog.topicReadBy(consumer.group).name;
  return bus.serve<ServiceRequest, unknown>(topic, consumer.group, async (message, signal) => {
    const { operation, input } = message.value;
    const run = Object.hasOwn(consumer.operations, operation) ? consumer.operations[operation] : undefined;
    if (!run)
      throw new ClientError(404, `operation ${operation} is not offered by ${consumer.group}`, 'operation');
    return run(input, { correlationId: message.headers['x-correlation-id'], signal });
  });
}
