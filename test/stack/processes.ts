// Processes of the stack tests and the scale bench (test/stack/*.stack.ts, bench/scale.ts): a
// fleet of `labld serve` processes (test/kafka/processes.ts) whose killed members are replaced,
// and the automation chain deployed as such a fleet.
import { randomInt } from 'node:crypto';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { CHAIN_STEPS } from '../../lib/chain/index.ts';
import { DEAD_LETTERS_PROCESS } from '../../consumers/chain-dead-letters.ts';
import { LOAD_GROUP, SPARQL_GROUP } from '../../lib/contracts/triplestore.ts';
import { person } from '../catalogue/actions/support.ts';
import { deployment, serve, type Deployment, type LabldProcess } from '../kafka/processes.ts';
import { sleep } from '../support/wait.ts';

/** The consumer group of every chain step. */
export const STEP_GROUPS = CHAIN_STEPS.map((step) => `chain-${step}`);
/** The triple store's consumer groups (topics.yaml), each run beside the triple store. */
export const TRIPLESTORE_GROUPS = [LOAD_GROUP, SPARQL_GROUP];

/** The deployment's processes; a killed one is replaced, its replacement starting while the test goes on. */
export class Fleet {
  readonly all: LabldProcess[] = [];
  readonly #starting = new Set<Promise<unknown>>();
  readonly #recovering = new Set<string>();
  /** Replacements that did not start: a group left a member short fails the test at `started()`. */
  readonly #failed: unknown[] = [];
  readonly d: Deployment;
  /** How often a replacement is tried (2 s apart) before it fails, as compose's `restart` would. */
  readonly #replaceAttempts: number;
  constructor(d: Deployment, replaceAttempts = 1) {
    this.d = d;
    this.#replaceAttempts = replaceAttempts;
  }
  /** Starts `copies` processes of `name`; those that started are kept (and stopped after) even if another failed. */
  async start(name: string, copies: number, attempts = 1): Promise<LabldProcess[]> {
    const once = async (): Promise<LabldProcess> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await serve(this.d, name);
        } catch (error) {
          if (attempt >= attempts) throw error;
          await sleep(2_000);
        }
      }
    };
    const outcomes = await Promise.allSettled(Array.from({ length: copies }, once));
    const started = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    this.all.push(...started);
    for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
    return started;
  }
  /**
   * SIGKILLs a random process of `names` and starts its replacement (not awaited); one whose
   * group has a replacement still starting is spared, so that no group is left without a
   * member. The name killed, or undefined when every group is still recovering.
   */
  async killOne(names: readonly string[]): Promise<string | undefined> {
    const victims = this.all.filter((p) => names.includes(p.name) && !this.#recovering.has(p.name));
    if (victims.length === 0) return undefined;
    const victim = victims[randomInt(victims.length)]!;
    this.all.splice(this.all.indexOf(victim), 1);
    await victim.kill9();
    this.#recovering.add(victim.name);
    const replacement = this.start(victim.name, 1, this.#replaceAttempts).finally(() =>
      this.#recovering.delete(victim.name),
    );
    this.#starting.add(replacement);
    void replacement
      .catch((error: unknown) => this.#failed.push(error))
      .finally(() => this.#starting.delete(replacement));
    return victim.name;
  }
  /** Waits for the replacements still starting; throws if one did not start (now or before). */
  async started(): Promise<void> {
    await Promise.allSettled(this.#starting);
    if (this.#failed.length > 0)
      throw new AggregateError(this.#failed, `${this.#failed.length} replacement(s) did not start`);
  }
  async killAll(): Promise<void> {
    await Promise.allSettled(this.#starting);
    await Promise.all(this.all.splice(0).map((p) => p.kill9()));
  }
}

export interface ChainDeployment {
  d: Deployment;
  fleet: Fleet;
  /** The first catalogue gateway. */
  gateway: LabldProcess;
  gateways: LabldProcess[];
  /** An admin's API token. */
  token: string;
}

export interface ChainOptions {
  /** Catalogue gateways (default 1). */
  gateways?: number;
  /** With the chain's dead-letter collectors (one process). */
  deadLetters?: boolean;
  /** How often a killed process's replacement is tried (Fleet). */
  replaceAttempts?: number;
  /** With `copies` processes of the triple store's groups (load-triplestore, triplestore-requests). */
  triplestore?: boolean;
  /** More environment for every process (LABLD_REDIS_URL, LABLD_TRIPLESTORE_URL, …). */
  env?: Record<string, string>;
}

/**
 * The chain across processes on `databaseUrl`: catalogue gateways, and `copies` processes of
 * catalogue-requests and of every chain step group (one worker thread each). A failed start
 * stops those that started.
 */
export async function startChain(
  registryUrl: string,
  databaseUrl: string,
  copies: number,
  options: ChainOptions = {},
): Promise<ChainDeployment> {
  const d = deployment(registryUrl);
  Object.assign(d.env, {
    LABLD_DATABASE_URL: databaseUrl,
    // One public address for every process: the resources' download URLs name it.
    BASE_URL: 'http://localhost:8000',
    LABLD_WORKERS: '1',
    ...options.env,
  });
  const fleet = new Fleet(d, options.replaceAttempts);
  try {
    // The schema first, and the API user (as `labld user add` would), before any process.
    const store = await openCatalogueStore({ dataDir: d.dataDir, databaseUrl });
    const { token } = await person(store, 'admin', true);
    await store.close();
    const gateways = await fleet.start('catalogue', options.gateways ?? 1);
    // Two groups at a time: a dozen processes joining at once on a busy 2-core machine may
    // take longer than a process is given to start.
    const groups = ['catalogue-requests', ...STEP_GROUPS, ...(options.triplestore ? TRIPLESTORE_GROUPS : [])];
    for (let i = 0; i < groups.length; i += 2)
      await Promise.all(groups.slice(i, i + 2).map((group) => fleet.start(group, copies)));
    if (options.deadLetters) await fleet.start(DEAD_LETTERS_PROCESS, 1);
    return { d, fleet, gateway: gateways[0]!, gateways, token };
  } catch (error) {
    await fleet.killAll();
    throw error;
  }
}
