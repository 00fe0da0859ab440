// Request consumers of the four services, by group. Their operations (service-operations.ts)
// are loaded by the worker threads only, so the main thread never loads the domain code.
import { SERVICES, requestGroupOf, type ServiceName } from '../lib/services.ts';
import type { RequestConsumer } from './request-consumer.ts';

const OPERATIONS = new URL('./service-operations.ts', import.meta.url).href;

export function serviceRequestConsumer(service: ServiceName): RequestConsumer {
  return { group: requestGroupOf(service), module: OPERATIONS };
}

/** Every consumer labld runs, by group name. */
export function allConsumers(): RequestConsumer[] {
  return SERVICES.map(serviceRequestConsumer);
}
