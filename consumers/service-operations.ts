// The operations of the four services' request groups, as a worker loads them. Each answers
// `info`; the others (annotate, mapping, createrdf, …) are domain functions, each taking the
// input its contract (lib/contracts) describes.
import { SERVICES, requestGroupOf, serviceInfo, type ServiceName } from '../lib/services.ts';
import { checkRequest } from '../lib/contracts/requests.ts';
import type { OperationInputs, OperationName } from '../lib/contracts/operations.ts';
import type { Operation, OperationEnv } from './request-consumer.ts';
import { annotatorOperations } from './annotator.ts';
import { mapperOperations } from './mapper.ts';
import { converterOperations } from './converter.ts';
import { extractorOperations } from './extractor.ts';

/** A service's operations, each taking the input its contract describes. */
export type Operations<S extends ServiceName> = {
  [O in OperationName<S>]: Operation<OperationInputs[S][O]>;
};
/** What a service's consumer file provides: every operation but `info`, which is common. */
export type ServiceOperations<S extends ServiceName> = Omit<Operations<S>, 'info'>;

const operationsOf: { [S in ServiceName]: (env: OperationEnv) => ServiceOperations<S> } = {
  annotator: annotatorOperations,
  mapper: mapperOperations,
  converter: converterOperations,
  extractor: extractorOperations,
};

/**
 * The operations of the request group `group`. Each checks its input against its contract
 * first: the worker calls it after the claim check, so this sees what a claim stands for (the
 * bus checked only the claim), and it holds for callers besides the bus too.
 */
export function operationsFor(group: string, env: OperationEnv): Record<string, Operation<never>> {
  const service = SERVICES.find((name) => requestGroupOf(name) === group);
  if (!service) throw new Error(`no request consumer named ${group}`);
  const offered: Record<string, Operation<never>> = {
    info: async () => serviceInfo(service),
    ...operationsOf[service](env),
  };
  return Object.fromEntries(
    Object.entries(offered).map(([operation, run]): [string, Operation<never>] => [
      operation,
      async (input, context) => {
        checkRequest(service, { operation, input });
        return run(input, context);
      },
    ]),
  );
}
