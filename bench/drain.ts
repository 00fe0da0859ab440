// The backlog drain of bench/scale.ts (--drain GROUP, issue 29): one chain step group alone
// on a topic that already holds UPLOADS uploads' messages, drained by 1 and then by 2 processes
// of that group. With nothing else consuming, a CPU-bound step shows whether its group scales
// with the cores when the other groups do not compete for them.
//
// The backlog is the whole-chain run's own messages (the ×1 run that precedes the drain): its
// processes are stopped, and before each drain the group is moved back to the first timed
// upload by `labld replay`. A replay alone would be acknowledged, not worked: a step already
// done for its run is done (consumers/chain.ts), so each source's status of the step is queued
// again in the same run first, as a Retry queues a failed one (lib/catalogue/actions/chain-replay.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { queueStep, type ChainStep } from '../lib/chain/index.ts';
import { openCatalogueStore } from '../lib/catalogue/store/open.ts';
import { metric, type LabldProcess } from '../test/kafka/processes.ts';
import type { ChainDeployment } from '../test/stack/processes.ts';
import { sleep } from '../test/support/wait.ts';
import { measure, sample, type Server, type Usage } from './fleet-usage.ts';

const LABLD = new URL('../bin/labld.js', import.meta.url).pathname;
const READY_TIMEOUT_MS = 180_000;
const DRAIN_TIMEOUT_MS = 30 * 60_000;
const POLL_MS = 200;

export interface Drain {
  copies: number;
  /** Messages handled from the moment every process had joined until the backlog was gone. */
  messages: number;
  perSecond: number;
  usage: Usage;
}

/** Messages of its group a process has handled without an error (a failed attempt is retried). */
const handledOk = (p: LabldProcess) =>
  metric(p.url, 'labld_bus_handle_seconds_count', { group: p.name, outcome: 'ok' });

/** Resolves once every process answers /readyz (its consumer joined its group). */
export async function ready(processes: readonly LabldProcess[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (const p of processes)
    while ((await fetch(`${p.url}/readyz`)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`${p.name} not ready after ${READY_TIMEOUT_MS} ms`);
      await sleep(500);
    }
}

/** Every done status of `step` queued again in its run: how many. */
async function requeue(chain: ChainDeployment, databaseUrl: string, step: ChainStep): Promise<number> {
  const store = await openCatalogueStore({ dataDir: chain.d.dataDir, databaseUrl });
  try {
    const done = await store.listStepStatus({ step, state: 'done' });
    const at = new Date().toISOString();
    for (const row of done)
      await store.putStepStatus({ ...row, status: queueStep(row.status, { step, run: row.status.run, at }) });
    return done.length;
  } finally {
    await store.close();
  }
}

/** How many sources have `step` in each state. */
async function states(
  chain: ChainDeployment,
  databaseUrl: string,
  step: ChainStep,
): Promise<Record<string, number>> {
  const store = await openCatalogueStore({ dataDir: chain.d.dataDir, databaseUrl });
  try {
    const counts: Record<string, number> = {};
    for (const state of ['queued', 'running', 'done', 'failed'] as const)
      counts[state] = (await store.listStepStatus({ step, state })).length;
    return counts;
  } finally {
    await store.close();
  }
}

/** `labld replay` of `group` on `topic` from `from` (ms since the epoch), in the deployment's namespace. */
export async function replay(
  chain: ChainDeployment,
  topic: string,
  group: string,
  from: number,
): Promise<void> {
  const args = ['replay', '--topic', topic, '--group', group, '--from-time', new Date(from).toISOString()];
  await promisify(execFile)(process.execPath, [LABLD, ...args, '--transport', 'kafka'], { env: chain.d.env });
}

/**
 * Drains the backlog of `group` (step `step`, reading `topic`) with 1 and then 2 processes;
 * `expected` sources have the step done when a drain is over. The deployment's own processes
 * must be stopped (SIGTERM: a killed member stays in the group and a replay is refused).
 */
export async function drains(
  chain: ChainDeployment,
  databaseUrl: string,
  servers: readonly Server[],
  backlog: { group: string; step: ChainStep; topic: string; from: number; expected: number },
): Promise<Drain[]> {
  const { group, step, topic, from, expected } = backlog;
  const out: Drain[] = [];
  for (const copies of [1, 2]) {
    const queued = await requeue(chain, databaseUrl, step);
    if (queued < expected)
      throw new Error(`only ${queued} ${step} steps done before the drain, ${expected} expected`);
    await replay(chain, topic, group, from);
    const processes = await chain.fleet.start(group, copies);
    try {
      await ready(processes);
      const before = await sample(processes, servers);
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      // The backlog is gone when every process together has handled it (a message handled
      // before the last one joined counts here, not in the rate).
      for (;;) {
        const total = (await Promise.all(processes.map(handledOk))).reduce((a, b) => a + b, 0);
        if (total >= expected) break;
        if (Date.now() > deadline)
          throw new Error(`${group}: ${total} of ${expected} messages after ${DRAIN_TIMEOUT_MS} ms`);
        await sleep(POLL_MS);
      }
      const usage = await measure(before);
      const messages = usage.groups[0]!.split.reduce((a, b) => a + b, 0);
      out.push({ copies, messages, perSecond: messages / usage.seconds, usage });
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
      for (const p of processes) chain.fleet.all.splice(chain.fleet.all.indexOf(p), 1);
    }
    const after = await states(chain, databaseUrl, step);
    if (after['done']! < expected)
      throw new Error(
        `${group}: ${expected} ${step} steps expected done after the drain: ${JSON.stringify(after)}`,
      );
  }
  return out;
}
