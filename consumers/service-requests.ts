// Request consumers of the four services. Each answers `info`; the service issues add their
// operations here (annotate, mapping, createrdf, …), each a domain function.
import { SERVICES, serviceInfo, type ServiceName } from '../lib/services.ts';
import type { Operation, RequestConsumer } from './room.ts';

const operations: Record<ServiceName, Record<string, Operation>> = {
  annotator: {},
  mapper: {},
  converter: {},
  extractor: {},
};

export function requestGroupOf(service: ServiceName): string {
  return `${service}-requests`;
}

export function serviceRequestConsumer(service: ServiceName): RequestConsumer {
  return {
    group: requestGroupOf(service),
    operations: { info: async () => serviceInfo(service), ...operations[service] },
  };
}

/** Every consumer labld runs, by group name. */
export function allConsumers(): RequestConsumer[] {
  return SERVICES.map(serviceRequestConsumer);
}
