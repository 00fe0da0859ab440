// bench/scale-model.ts: the CPU a deployment takes at rest is taken from the cores before the
// uploads' share, and a run that used its cores is predicted by its own costs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Usage } from '../../bench/fleet-usage.ts';
import { costs, crowded, predict, restOf } from '../../bench/scale-model.ts';

/** A run of `seconds` whose groups took `cpu` CPU seconds over `processes` processes each. */
function usage(
  seconds: number,
  groups: Record<string, { cpu: number; processes: number }>,
  server = 0,
): Usage {
  const list = Object.entries(groups).map(([name, g]) => ({
    name,
    cpu: g.cpu,
    split: new Array<number>(g.processes).fill(0),
    threads: new Map<string, number>(),
  }));
  const ours = list.reduce((sum, g) => sum + g.cpu, 0) + server;
  return {
    groups: list,
    servers: server > 0 ? [{ name: 'broker', cpu: server }] : [],
    ours,
    busy: ours,
    capacity: 2 * seconds,
    seconds,
    load: 0,
  };
}

describe('scale model', () => {
  it('predicts a run that kept its cores busy from its own costs, CPU at rest split off', () => {
    // 60 s, 2 cores all ours: 100 uploads; at rest 0.01 and 0.02 cores a process.
    const run = usage(60, { 'chain-a': { cpu: 50, processes: 1 }, 'chain-b': { cpu: 50, processes: 1 } }, 20);
    const idle = usage(10, { 'chain-a': { cpu: 0.1, processes: 1 }, 'chain-b': { cpu: 0.2, processes: 1 } });
    const c = costs(run, 100, restOf(idle));
    assert.equal(c.rest.get('chain-a'), 0.01);
    assert.equal(c.groups.find((g) => g.name === 'chain-a')!.seconds, (50 - 0.6) / 100);
    const p = predict(c, 2, 1);
    assert.ok(Math.abs(p.perMinute - 100) < 1e-9, `${p.perMinute}`);
  });

  it('takes twice the processes’ rest from the cores with two copies of each group', () => {
    const run = usage(60, { 'chain-a': { cpu: 50, processes: 1 }, 'chain-b': { cpu: 50, processes: 1 } }, 20);
    const idle = usage(10, { 'chain-a': { cpu: 1, processes: 1 }, 'chain-b': { cpu: 0, processes: 1 } }); // a: 0.1 core
    const c = costs(run, 100, restOf(idle));
    const one = predict(c, 2, 1).perMinute;
    const two = predict(c, 2, 2).perMinute;
    // busy cost (50 - 6 + 50 + 20) / 100 s an upload: (2 - 0.1) / 1.14 and (2 - 0.2) / 1.14 a second.
    assert.ok(Math.abs(one - (1.9 / 1.14) * 60) < 1e-9);
    assert.ok(Math.abs(two - (1.8 / 1.14) * 60) < 1e-9);
  });

  it('a gateway counts once a machine, and crowding raises the groups’ costs but not the servers’', () => {
    const run = usage(60, { catalogue: { cpu: 6, processes: 1 }, 'chain-a': { cpu: 50, processes: 1 } }, 10);
    const idle = usage(10, { catalogue: { cpu: 1, processes: 1 }, 'chain-a': { cpu: 1, processes: 1 } });
    const c = costs(run, 100, restOf(idle));
    const shared = crowded(c, 1.5);
    assert.equal(shared.servers[0]!.seconds, c.servers[0]!.seconds);
    assert.equal(shared.groups[1]!.seconds, c.groups[1]!.seconds * 1.5);
    // 8 copies of chain-a but one gateway: 8 × 0.1 + 0.1 cores at rest.
    const p = predict(shared, 8, 8);
    assert.equal(p.bound, 'every core');
    assert.ok(Math.abs(p.perMinute - ((8 - 0.9) / shared.total) * 60) < 1e-9);
  });

  it('without a sample at rest, every CPU second is an upload’s', () => {
    const run = usage(60, { 'chain-a': { cpu: 45, processes: 1 }, 'chain-b': { cpu: 45, processes: 1 } }, 10);
    const c = costs(run, 100);
    assert.equal(c.total, 1);
    assert.equal(predict(c, 2, 1).perMinute, 120);
  });
});
