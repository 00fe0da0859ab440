// Which operations a worker runs for each consumer group that works in the worker pool: the one
// place that names the modules of operations. A worker looks its groups up here by name and
// imports only their modules (a `labld serve annotator` worker never loads the catalogue's), so
// no module URL travels between threads; a source may still name a module of its own (test
// fixtures).
import { CATALOGUE_GROUP } from '../../lib/contracts/catalogue.ts';
import { PIPELINE, groupOfStep } from '../../lib/chain/pipeline.ts';
import { SERVICES, requestGroupOf } from '../../lib/services.ts';
import type { Operation, OperationEnv } from '../request-consumer.ts';

export interface OperationsModule {
  // `never`: each operation takes its own input type (a service's checks it against its contract).
  operationsFor(group: string, env: OperationEnv): Record<string, Operation<never>>;
}

type Loader = () => Promise<OperationsModule>;

const service: Loader = () => import('../service-operations.ts');
const chain: Loader = () => import('../chain-operations.ts');

/** The groups whose work runs in a worker, each with the module of its operations. */
const LOADERS = new Map<string, Loader>([
  ...SERVICES.map((name): [string, Loader] => [requestGroupOf(name), service]),
  [CATALOGUE_GROUP, () => import('../catalogue.ts')],
  ...PIPELINE.filter((s) => s.runsIn === 'worker').map((s): [string, Loader] => [groupOfStep(s.step), chain]),
]);

/** Whether `group`'s work runs in the worker pool. */
export const runsInWorker = (group: string): boolean => LOADERS.has(group);

/** The operations of `group`, loaded in the worker (from `module` when a source names its own). */
export async function loadOperations(
  source: { group: string; module?: string },
  env: OperationEnv,
): Promise<Record<string, Operation<never>>> {
  const load = source.module
    ? () => import(source.module!) as Promise<OperationsModule>
    : LOADERS.get(source.group);
  if (!load) throw new Error(`no operations for the consumer group ${source.group} run in a worker`);
  return (await load()).operationsFor(source.group, env);
}
