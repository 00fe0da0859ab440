// The one thing service gateways do with a request: hand it to the service's request topic
// and answer with the reply. Which topic is read from topics.yaml through the consumer group.
import type { Bus } from '../lib/bus/contract.ts';
import type { TopicCatalog } from '../lib/bus/topics.ts';
import { intSetting } from '../lib/config.ts';
import type { RouteInput, Result } from './kit/index.ts';

export interface Forwarder {
  /** A route handler that sends `operation` with the validated query and body, and answers the reply as JSON. */
  json(operation: string): (input: RouteInput<Record<string, unknown>, unknown>) => Promise<Result>;
}

export function forwarder(bus: Bus, catalog: TopicCatalog, group: string): Forwarder {
  const topic = catalog.topicReadBy(group).name;
  const timeoutMs = intSetting('LABLD_REQUEST_TIMEOUT_MS');
  return {
    json: (operation) => async (input) => {
      const body =
        input.body && typeof input.body === 'object' ? (input.body as Record<string, unknown>) : {};
      const value = await bus.request(
        topic,
        { operation, input: { ...input.params, ...input.query, ...body } },
        { timeoutMs, headers: { 'x-correlation-id': input.correlationId } },
      );
      return { json: value };
    },
  };
}
