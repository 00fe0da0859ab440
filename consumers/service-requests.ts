// Request consumers of the four services. Each answers `info`; the service issues add their
// operations here (annotate, mapping, createrdf, …), each a domain function.
import { SERVICES, requestGroupOf, serviceInfo, type ServiceName } from '../lib/services.ts';
import { checkRequest } from '../lib/contracts/requests.ts';
import type { OperationInputs, OperationName } from '../lib/contracts/operations.ts';
import type { Runtime } from '../lib/runtime.ts';
import type { Operation, RequestConsumer } from './room.ts';
import { annotatorOperations } from './annotator.ts';
import { mapperOperations } from './mapper.ts';
import { converterOperations } from './converter.ts';

/** A service's operations, each taking the input its contract (lib/contracts) describes. */
export type Operations<S extends ServiceName> = {
  [O in OperationName<S>]: Operation<OperationInputs[S][O]>;
};
/** What a service's consumer file provides: every operation but `info`, which is common. */
export type ServiceOperations<S extends ServiceName> = Omit<Operations<S>, 'info'>;

const operationsOf: { [S in ServiceName]: (runtime: Runtime) => ServiceOperations<S> } = {
  annotator: annotatorOperations,
  mapper: mapperOperations,
  converter: converterOperations,
  extractor: () => ({}),
};

export function serviceRequestConsumer(service: ServiceName): RequestConsumer {
  return {
    group: requestGroupOf(service),
    operations: (runtime) => {
      const offered: Record<string, Operation<never>> = {
        info: async () => serviceInfo(service),
        ...operationsOf[service](runtime),
      };
      // Checked again here, after a claim-checked input has been fetched from the blob store
      // (the bus checked the claim, not what it stands for), and for callers besides the bus.
      return Object.fromEntries(
        Object.entries(offered).map(([operation, run]): [string, Operation<never>] => [
          operation,
          async (input, context) => {
            checkRequest(service, { operation, input });
            return run(input, context);
          },
        ]),
      );
    },
  };
}

/** Every consumer labld runs, by group name. */
export function allConsumers(): RequestConsumer[] {
  return SERVICES.map(serviceRequestConsumer);
}
