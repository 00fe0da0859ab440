// Where the time of a scale-out run goes (bench/scale.ts): per consumer group, the CPU its
// processes used and how the messages were split between them (a group's processes can only go
// as fast as the busiest one: a 2:1 split caps two processes at 1.5×); the CPU of the servers
// the chain uses (the Kafka broker, PostgreSQL's backends of the run's database); and how busy
// the whole machine was, other users included, so that a figure from a shared machine can be judged.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { metric, type LabldProcess } from '../test/kafka/processes.ts';
import { clockTicks, cpuSecondsOf } from '../test/support/rss.ts';

/** User and system CPU seconds of a process so far, all its threads (the worker pool) included; 0 once gone. */
const cpuSeconds = (pid: number): number => cpuSecondsOf(`/proc/${pid}/stat`);

/**
 * CPU seconds of a process's threads so far, summed by thread name with its digits dropped
 * (Node names them: MainThread, WorkerThread, V8Worker for V8's garbage-collection and compile
 * helpers, libuv-worker); threads that ended are in none of them.
 */
function threadSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const task of tasks) {
    const seconds = cpuSecondsOf(`/proc/${pid}/task/${task}/stat`);
    if (seconds === 0) continue;
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim().replace(/\d+$/, '');
    } catch {
      continue;
    }
    byName.set(name, (byName.get(name) ?? 0) + seconds);
  }
  return byName;
}

/** The machine's busy and total CPU ticks so far (/proc/stat, every core). */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = cpu[3]! + (cpu[4] ?? 0); // idle and iowait
  return { busy: total - idle, total };
}

/** The processes whose command line `matches` (read from /proc; those that end meanwhile are skipped). */
function pidsWhere(matches: (commandLine: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (matches(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ')))
        pids.push(Number(entry));
    } catch {
      // ended between the listing and the read
    }
  }
  return pids;
}

/** A server beside labld whose CPU the chain causes, found by its processes' command lines. */
export interface Server {
  name: string;
  pids(): number[];
}

/** The broker started by tools/kafka/broker.sh for `port` (its JVM names the port's run directory). */
export const kafkaBroker = (port: string): Server => ({
  name: 'kafka broker',
  pids: () => pidsWhere((c) => c.includes('kafka.Kafka') && c.includes(`/run-${port}/server.properties`)),
});

/**
 * PostgreSQL's backends serving `database` ("postgres: user database host(port) …"); the
 * server's own background processes serve every database on it (other users' too) and are left out.
 */
export const postgresBackends = (database: string): Server => ({
  name: 'postgresql backends',
  pids: () => pidsWhere((c) => c.startsWith('postgres: ') && c.split(' ')[2] === database),
});

export interface Sample {
  cpu: Map<LabldProcess, number>;
  threads: Map<LabldProcess, Map<string, number>>;
  handled: Map<LabldProcess, number>;
  /** Per server, its processes' CPU seconds by pid (a backend started later counts from 0). */
  servers: Map<Server, Map<number, number>>;
  machine: { busy: number; total: number };
  at: number;
}

/** Messages of its own group a process has handled (every outcome). */
export const handled = (p: LabldProcess) =>
  metric(p.url, 'labld_bus_handle_seconds_count', { group: p.name });

export async function sample(
  processes: readonly LabldProcess[],
  servers: readonly Server[] = [],
): Promise<Sample> {
  const counts = await Promise.all(processes.map(handled));
  return {
    cpu: new Map(processes.map((p) => [p, cpuSeconds(p.child.pid!)])),
    threads: new Map(processes.map((p) => [p, threadSeconds(p.child.pid!)])),
    handled: new Map(processes.map((p, i) => [p, counts[i]!])),
    servers: new Map(servers.map((s) => [s, new Map(s.pids().map((pid) => [pid, cpuSeconds(pid)]))])),
    machine: machineTicks(),
    at: performance.now(),
  };
}

/** What a run used between two samples: CPU seconds per group and per server, the machine's ticks. */
export interface Usage {
  /** `threads`: the group's CPU seconds by thread name (see threadSeconds). */
  groups: { name: string; cpu: number; split: number[]; threads: Map<string, number> }[];
  servers: { name: string; cpu: number }[];
  /** CPU seconds of the labld processes and the servers together. */
  ours: number;
  /** The machine's busy CPU seconds (every user) and its capacity over the same time, all cores. */
  busy: number;
  capacity: number;
  seconds: number;
  /** The one-minute load average when the run ended. */
  load: number;
}

export async function measure(before: Sample): Promise<Usage> {
  const processes = [...before.cpu.keys()];
  const after = await sample(processes, [...before.servers.keys()]);
  const groups = [...new Set(processes.map((p) => p.name))].map((name) => {
    const members = processes.filter((p) => p.name === name);
    const threads = new Map<string, number>();
    for (const p of members)
      for (const [thread, seconds] of after.threads.get(p)!)
        threads.set(thread, (threads.get(thread) ?? 0) + seconds - (before.threads.get(p)!.get(thread) ?? 0));
    return {
      name,
      threads,
      cpu: members.reduce((sum, p) => sum + after.cpu.get(p)! - before.cpu.get(p)!, 0),
      split: members.map((p) => after.handled.get(p)! - before.handled.get(p)!),
    };
  });
  const servers = [...after.servers].map(([server, now]) => ({
    name: server.name,
    cpu: [...now].reduce((sum, [pid, cpu]) => sum + cpu - (before.servers.get(server)!.get(pid) ?? 0), 0),
  }));
  const ticks = after.machine.total - before.machine.total;
  return {
    groups,
    servers,
    ours: [...groups, ...servers].reduce((sum, g) => sum + g.cpu, 0),
    busy: (after.machine.busy - before.machine.busy) / clockTicks(),
    capacity: ticks / clockTicks(),
    seconds: (after.at - before.at) / 1000,
    load: loadavg()[0]!,
  };
}

/**
 * Lines saying, per group and server, the CPU used per upload (or per `unit`) and the messages each
 * process handled; then the machine's use of its cores over the same time.
 */
export function usageLines(u: Usage, count: number, unit = 'upload', byThread = false): string[] {
  const ms = (cpu: number) => `${((cpu / count) * 1000).toFixed(0)} ms`;
  const perUpload = (cpu: number) => `${ms(cpu)} CPU per ${unit}`;
  /** The group's threads that took 1 ms or more per unit, the busiest first. */
  const threadsOf = (threads: Map<string, number>) => {
    const shown = [...threads].filter(([, cpu]) => cpu / count >= 0.001).sort((a, b) => b[1] - a[1]);
    return byThread && shown.length > 0
      ? ` (by thread: ${shown.map(([t, cpu]) => `${t} ${ms(cpu)}`).join(', ')})`
      : '';
  };
  const lines = u.groups.map(({ name, cpu, split, threads }) => {
    const total = split.reduce((a, b) => a + b, 0);
    const ceiling =
      split.length > 1 && total > 0 ? `, split ceiling ${(total / Math.max(...split)).toFixed(2)}×` : '';
    const messages = name === 'catalogue' ? '' : `, messages ${split.join('+')}${ceiling}`;
    return `${name}: ${perUpload(cpu)}${messages}${threadsOf(threads)}`;
  });
  for (const { name, cpu } of u.servers) lines.push(`${name}: ${perUpload(cpu)}`);
  lines.push(
    `machine: ${availableParallelism()} cores ${((u.busy / u.capacity) * 100).toFixed(0)}% busy (every user; these labld processes and servers ${((u.ours / u.capacity) * 100).toFixed(0)}%), load average ${u.load.toFixed(1)}`,
  );
  return lines;
}
