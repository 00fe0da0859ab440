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
import { availableParallelism } from 'node:os';
import type { Usage } from './fleet-usage.ts';

export interface Costs {
  /** CPU seconds per upload of every labld group and every server. */
  groups: { name: string; seconds: number }[];
  servers: { name: string; seconds: number }[];
  total: number;
}

export const costs = (u: Usage, uploads: number): Costs => {
  const groups = u.groups.map((g) => ({ name: g.name, seconds: g.cpu / uploads }));
  const servers = u.servers.map((s) => ({ name: s.name, seconds: s.cpu / uploads }));
  return { groups, servers, total: [...groups, ...servers].reduce((sum, c) => sum + c.seconds, 0) };
};

/** The labld groups' costs times `factor` (two processes of each on a machine); the servers' as they were. */
export function crowded(c: Costs, factor: number): Costs {
  const groups = c.groups.map((g) => ({ name: g.name, seconds: g.seconds * factor }));
  return { ...c, groups, total: [...groups, ...c.servers].reduce((sum, x) => sum + x.seconds, 0) };
}

/** Uploads per minute, and what bounds it, on `cores` cores with `copies` processes of every group. */
export function predict(c: Costs, cores: number, copies: number): { perMinute: number; bound: string } {
  const machineCores = availableParallelism();
  const bounds = [
    { bound: 'every core', perSecond: cores / c.total },
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
  one: { perMinute: number; usage: Usage },
  two: { perMinute: number; usage: Usage },
  sharing?: { group: string; one: number; two: number },
): string[] {
  const c = costs(one.usage, uploads);
  const factor = sharing ? sharing.two / sharing.one : 1;
  const shared = crowded(c, factor);
  const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;
  const cores = availableParallelism();
  const lines = [
    `model: CPU per upload (×1 run): ${[...c.groups, ...c.servers].map((g) => `${g.name} ${ms(g.seconds)}`).join(', ')}; total ${ms(c.total)}`,
    sharing
      ? `model: two processes of a group on a machine: the labld groups' CPU per upload ×${factor.toFixed(2)} (the ${sharing.group} drain's CPU per message, ${ms(sharing.two)} with two processes against ${ms(sharing.one)} with one); total ${ms(shared.total)}`
      : 'model: two processes of a group on a machine: CPU per upload as with one (no drain run: --drain GROUP measures the difference)',
  ];
  for (const k of [1, 2, 4]) {
    // Each machine runs the ×2 deployment: as many processes of every group as it has cores.
    const p = predict(shared, k * cores, k * cores);
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
