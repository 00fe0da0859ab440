// The operations of the four services' request groups, as a worker loads them. Each answers
// `info`; the others (annotate, mapping, createrdf, …) are domain functions.
import { SERVICES, serviceInfo, type ServiceName } from '../lib/services.ts';
import type { Operation, OperationEnv } from './room.ts';
import { requestGroupOf } from './service-requests.ts';
import { annotatorOperations } from './annotator.ts';
import { mapperOperations } from './mapper.ts';
import { converterOperations } from './converter.ts';

const none = () => ({});
const operationsOf: Record<ServiceName, (env: OperationEnv) => Record<string, Operation>> = {
  annotator: annotatorOperations,
  mapper: mapperOperations,
  converter: converterOperations,
  extractor: none,
};

/** The operations of the request group `group`. */
export function operationsFor(group: string, env: OperationEnv): Record<string, Operation> {
  const service = SERVICES.find((name) => requestGroupOf(name) === group);
  if (!service) throw new Error(`no request consumer named ${group}`);
  return { info: async () => serviceInfo(service), ...operationsOf[service](env) };
}
