// Processes of the stack tests and the scale bench (test/stack/*.stack.ts, bench/scale.ts): a
// fleet of `labld serve` processes (test/kafka/processes.ts) whose killed members are replaced,
// and the automation chain deployed as such a fleet.
import { randomInt } from 'node:crypto';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { CHAIN_STEPS } from '../../lib/chain/index.ts';
import { person } from '../catalogue/actions/support.ts';
import { deployment, serve, type Deployment, type LabldProcess } from '../kafka/processes.ts';

/** The consumer group of every chain step. */
export const STEP_GROUPS = CHAIN_STEPS.map((step) => `chain-${step}`);

/** The deployment's processes; a killed one is replaced, its replacement starting while the test goes on. */
export class Fleet {
  readonly all: LabldProcess[] = [];
  readonly #starting = new Set<Promise<unknown>>();
  readonly #recovering = new Set<string>();
  readonly d: Deployment;
  constructor(d: Deployment) {
    this.d = d;
  }
  /** Starts `copies` processes of `name`; those that started are kept (and stopped after) even if another failed. */
  async start(name: string, copies: number): Promise<LabldProcess[]> {
    const outcomes = await Promise.allSettled(Array.from({ length: copies }, () => serve(this.d, name)));
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
    const replacement = this.start(victim.name, 1).finally(() => this.#recovering.delete(victim.name));
    this.#starting.add(replacement);
    void replacement.finally(() => this.#starting.delete(replacement)).catch(() => {});
    return victim.name;
  }
  /** Waits for the replacements still starting (a failed start fails the test). */
  async started(): Promise<void> {
    await Promise.all(this.#starting);
  }
  async killAll(): Promise<void> {
    await Promise.allSettled(this.#starting);
    await Promise.all(this.all.splice(0).map((p) => p.kill9()));
  }
}

export interface ChainDeployment {
  d: Deployment;
  fleet: Fleet;
  gateway: LabldProcess;
  /** An admin's API token. */
  token: string;
}

/**
 * The chain across processes on `databaseUrl`: one catalogue gateway, and `copies` processes of
 * catalogue-requests and of every chain step group (one worker thread each). A failed start
 * stops those that started.
 */
export async function startChain(
  registryUrl: string,
  databaseUrl: string,
  copies: number,
): Promise<ChainDeployment> {
  const d = deployment(registryUrl);
  Object.assign(d.env, {
    LABLD_DATABASE_URL: databaseUrl,
    // One public address for every process: the resources' download URLs name it.
    BASE_URL: 'http://localhost:8000',
    LABLD_WORKERS: '1',
  });
  const fleet = new Fleet(d);
  try {
    // The schema first, and the API user (as `labld user add` would), before any process.
    const store = await openCatalogueStore({ dataDir: d.dataDir, databaseUrl });
    const { token } = await person(store, 'admin', true);
    await store.close();
    const [gateway] = await fleet.start('catalogue', 1);
    // Two groups at a time: a dozen processes joining at once on a busy 2-core machine may
    // take longer than a process is given to start.
    const groups = ['catalogue-requests', ...STEP_GROUPS];
    for (let i = 0; i < groups.length; i += 2)
      await Promise.all(groups.slice(i, i + 2).map((group) => fleet.start(group, copies)));
    return { d, fleet, gateway: gateway!, token };
  } catch (error) {
    await fleet.killAll();
    throw error;
  }
}
