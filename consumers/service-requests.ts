// Request consumers of the four services, by group. Their operations (service-operations.ts)
// are loaded by the worker threads only (consumers/workers/operations.ts), so the main thread
// never loads the domain code.
import { SERVICES, requestGroupOf, type ServiceName } from '../lib/services.ts';
import type { RequestConsumer } from './request-consumer.ts';
import { CATALOGUE_GROUP } from '../lib/contracts/catalogue.ts';

export function serviceRequestConsumer(service: ServiceName): RequestConsumer {
  return { group: requestGroupOf(service) };
}

/** The catalogue's Action API calls (consumers/catalogue.ts). */
export function catalogueRequestConsumer(): RequestConsumer {
  return { group: CATALOGUE_GROUP };
}

/** Every consumer labld runs, by group name. */
export function allConsumers(): RequestConsumer[] {
  return [...SERVICES.map(serviceRequestConsumer), catalogueRequestConsumer()];
}
