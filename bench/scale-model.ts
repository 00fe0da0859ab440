// The scale model of bench/scale.ts (issue 29): uploads per minute predicted from the CPU an
// upload costs, checked against the measured whole-chain runs.
//
// Each consumer group, the catalogue gateway, the Kafka broker and PostgreSQL's backends cost D
// CPU seconds per upload (measured in the ×1 run). The chain is CPU-bound, so its throughput is
// the least of: the cores it is given over the total D; per group, its processes (each runs its
// step on one worker thread, LABLD_WORKERS=1, so at most one core) over the group's D; per
// server, one machine's cores over its D (one broker, one PostgreSQL, however many machines).
//
// Two processes of a group on a machine do not cost what one did: measured, the labld groups'
// CPU per upload rose 24–39% from the ×1 run to the ×2 (more threads than cores, each thread's
// caches shared with the others; the servers' fell, their requests batched). With --drain, that
// growth is measured apart from the chain: the drained group's CPU per message with two
// processes over one (bench/drain.ts). Where a machine runs two processes of every group (the ×2
// run, k machines), the labld groups' D is the ×1 run's times that factor; the servers' is kept.
//
// A process costs CPU at rest too (its consumer's fetches and heartbeats, timers): measured, 6 ms a
// second for a chain step's, 15 for catalogue-requests'. Twice the processes, twice that, whatever
// the uploads. So the ×1 run's CPU is split: each process's CPU at rest (sampled before the timed
// uploads) times the run's seconds, and the rest, per upload, its D. A deployment's cores less
// what its processes take at rest are what the uploads get.
import { availableParallelism } from 'node:os';
import type { Usage } from './fleet-usage.ts';

export interface Costs {
  /** CPU seconds per upload of every labld group (beyond its processes' CPU at rest) and every server. */
  groups: { name: string; seconds: number }[];
  servers: { name: string; seconds: number }[];
  total: number;
  /** CPU seconds a second of one process of each labld group at rest. */
  rest: Map<string, number>;
}

/** One process's CPU seconds a second at rest, by group, from a sample of the idle deployment. */
export const restOf = (idle: Usage): Map<string, number> =>
  new Map(idle.groups.map((g) => [g.name, g.cpu / idle.seconds / g.split.length]));

/** The run's costs per upload; with `rest`, less what its processes took at rest over the run. */
export const costs = (u: Usage, uploads: number, rest = new Map<string, number>()): Costs => {
  const groups = u.groups.map((g) => {
    const atRest = (rest.get(g.name) ?? 0) * g.split.length * u.seconds;
    return { name: g.name, seconds: Math.max(0, g.cpu - atRest) / uploads };
  });
  const servers = u.servers.map((s) => ({ name: s.name, seconds: s.cpu / uploads }));
  const total = [...groups, ...servers].reduce((sum, c) => sum + c.seconds, 0);
  return { groups, servers, total, rest };
};

/** The labld groups' costs times `factor` (two processes of each on a machine); the servers' as they were. */
export function crowded(c: Costs, factor: number): Costs {
  const groups = c.groups.map((g) => ({ name: g.name, seconds: g.seconds * factor }));
  return { ...c, groups, total: [...groups, ...c.servers].reduce((sum, x) => sum + x.seconds, 0) };
}

/** The catalogue gateway: one process a machine, not one per copy of the consumer groups. */
const GATEWAY = 'catalogue';

/**
 * Uploads per minute, and what bounds it, on `cores` cores of `machines` machines with `copies`
 * processes of every group (a gateway on each machine).
 */
export function predict(
  c: Costs,
  cores: number,
  copies: number,
  machines = 1,
): { perMinute: number; bound: string } {
  const machineCores = availableParallelism();
  let atRest = 0;
  for (const [name, perSecond] of c.rest) atRest += perSecond * (name === GATEWAY ? machines : copies);
  const bounds = [
    { bound: 'every core', perSecond: Math.max(0, cores - atRest) / c.total },
    ...c.groups.map((g) => ({ bound: `${g.name}'s processes`, perSecond: copies / g.seconds })),
    ...c.servers.map((s) => ({ bound: `the ${s.name} on one machine`, perSecond: machineCores / s.seconds })),
  ];
  const least = bounds.reduce((a, b) => (b.perSecond < a.perSecond ? b : a));
  return { perMinute: least.perSecond * 60, bound: least.bound };
}

/**
 * The cores a run had: the machine's, less what other users (this bench's uploader too) took.
 * On a machine that others keep busy, that is what the scheduler gave these processes, and the
 * check says whether the CPU per upload holds from one run to the other.
 */
export const coresLeft = (u: Usage): number => (u.capacity - (u.busy - u.ours)) / u.seconds;

/** The model's lines: the costs, k dedicated machines, and the check against the ×1 and ×2 runs. */
export function modelLines(
  uploads: number,
  one: { perMinute: number; usage: Usage; idle?: Usage },
  two: { perMinute: number; usage: Usage },
  sharing?: { group: string; one: number; two: number },
): string[] {
  const c = costs(one.usage, uploads, one.idle ? restOf(one.idle) : undefined);
  const factor = sharing ? sharing.two / sharing.one : 1;
  const shared = crowded(c, factor);
  const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;
  const cores = availableParallelism();
  const lines = [
    one.idle
      ? `model: CPU a second of one process at rest (${one.idle.seconds.toFixed(0)} s before the ×1 run's uploads): ${[...c.rest].map(([name, s]) => `${name} ${ms(s)}`).join(', ')}`
      : 'model: CPU at rest not sampled: counted per upload',
    `model: CPU per upload (×1 run${one.idle ? ', beyond its processes’ CPU at rest' : ''}): ${[...c.groups, ...c.servers].map((g) => `${g.name} ${ms(g.seconds)}`).join(', ')}; total ${ms(c.total)}`,
    sharing
      ? `model: two processes of a group on a machine: the labld groups' CPU per upload ×${factor.toFixed(2)} (the ${sharing.group} drain's CPU per message, ${ms(sharing.two)} with two processes against ${ms(sharing.one)} with one); total ${ms(shared.total)}`
      : 'model: two processes of a group on a machine: CPU per upload as with one (no drain run: --drain GROUP measures the difference)',
  ];
  for (const k of [1, 2, 4]) {
    // Each machine runs the ×2 deployment: as many processes of every group as it has cores.
    const p = predict(shared, k * cores, k * cores, k);
    lines.push(
      `model: ${k} machine${k > 1 ? 's' : ''} of ${cores} cores, ${cores} processes of every group on each, nothing else running: ${p.perMinute.toFixed(1)} uploads/min (bound: ${p.bound})`,
    );
  }
  for (const [copies, run, model, note] of [
    [1, one, c, 'in sample: its CPU per upload is this run’s'],
    [2, two, shared, `out of sample: the ×1 run’s CPU per upload${sharing ? ', the drain’s factor' : ''}`],
  ] as const) {
    const left = coresLeft(run.usage);
    const p = predict(model, left, copies);
    const error = (p.perMinute / run.perMinute - 1) * 100;
    lines.push(
      `model vs measured ×${copies}: predicted ${p.perMinute.toFixed(1)} on the ${left.toFixed(2)} cores the run had (the machine less other users' CPU) (bound: ${p.bound}), measured ${run.perMinute.toFixed(1)} uploads/min, error ${error >= 0 ? '+' : ''}${error.toFixed(1)}% (goal within 15%; ${note})`,
    );
  }
  return lines;
}
