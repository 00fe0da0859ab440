// Request consumers of the four services. Each answers `info`; the service issues add their
// operations here (annotate, mapping, createrdf, …), each a domain function.
import { SERVICES, serviceInfo, type ServiceName } from '../lib/services.ts';
import type { Runtime } from '../lib/runtime.ts';
import type { Operation, RequestConsumer } from './room.ts';
import { annotatorOperations } from './annotator.ts';
import { mapperOperations } from './mapper.ts';
import { converterOperations } from './converter.ts';

const none = () => ({});
const operationsOf: Record<ServiceName, (runtime: Runtime) => Record<string, Operation>> = {
  annotator: annotatorOperations,
  mapper: mapperOperations,
  converter: converterOperations,
  extractor: none,
};

export function requestGroupOf(service: ServiceName): string {
  return `${service}-requests`;
}

export function serviceRequestConsumer(service: ServiceName): RequestConsumer {
  return {
    group: requestGroupOf(service),
    operations: (runtime) => ({ info: async () => serviceInfo(service), ...operationsOf[service](runtime) }),
  };
}

/** Every consumer labld runs, by group name. */
export function allConsumers(): RequestConsumer[] {
  return SERVICES.map(serviceRequestConsumer);
}
