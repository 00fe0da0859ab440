// Where the time of a scale-out run goes (bench/scale.ts): per consumer group, the CPU its
// processes used and how the messages were split between them (a group's processes can only go
// as fast as the busiest one: a 2:1 split caps two processes at 1.5×); and how busy the whole
// machine was, other users included, so that a figure from a shared machine can be judged.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { metric, type LabldProcess } from '../test/kafka/processes.ts';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** User and system CPU seconds of a process so far, all its threads (the worker pool) included. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: utime is 14th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The machine's busy and total CPU ticks so far (/proc/stat, every core). */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = cpu[3]! + (cpu[4] ?? 0); // idle and iowait
  return { busy: total - idle, total };
}

export interface Sample {
  cpu: Map<LabldProcess, number>;
  handled: Map<LabldProcess, number>;
  machine: { busy: number; total: number };
}

/** Messages of its own group a process has handled (every outcome). */
const handled = (p: LabldProcess) => metric(p.url, 'labld_bus_handle_seconds_count', { group: p.name });

export async function sample(processes: readonly LabldProcess[]): Promise<Sample> {
  const counts = await Promise.all(processes.map(handled));
  return {
    cpu: new Map(processes.map((p) => [p, cpuSeconds(p.child.pid!)])),
    handled: new Map(processes.map((p, i) => [p, counts[i]!])),
    machine: machineTicks(),
  };
}

/**
 * Lines saying, per group, the CPU seconds its processes used per upload since `before` and
 * the messages each handled; then the machine's use of its cores over the same time.
 */
export async function usage(before: Sample, uploads: number): Promise<string[]> {
  const processes = [...before.cpu.keys()];
  const after = await sample(processes);
  const groups = [...new Set(processes.map((p) => p.name))];
  const lines = groups.map((group) => {
    const members = processes.filter((p) => p.name === group);
    const cpu = members.reduce((sum, p) => sum + after.cpu.get(p)! - before.cpu.get(p)!, 0);
    const split = members.map((p) => after.handled.get(p)! - before.handled.get(p)!);
    const total = split.reduce((a, b) => a + b, 0);
    const ceiling =
      members.length > 1 && total > 0 ? `, split ceiling ${(total / Math.max(...split)).toFixed(2)}×` : '';
    const messages = group === 'catalogue' ? '' : `, messages ${split.join('+')}${ceiling}`;
    return `${group}: ${((cpu / uploads) * 1000).toFixed(0)} ms CPU per upload${messages}`;
  });
  const ticks = after.machine.total - before.machine.total;
  const busy = (after.machine.busy - before.machine.busy) / ticks;
  // Every process's CPU over the machine's (all cores'), in the same ticks.
  const ours = processes.reduce((sum, p) => sum + after.cpu.get(p)! - before.cpu.get(p)!, 0);
  const share = (ours * TICKS_PER_SECOND) / ticks;
  lines.push(
    `machine: ${availableParallelism()} cores ${(busy * 100).toFixed(0)}% busy (every user; these labld processes ${(share * 100).toFixed(0)}%), load average ${loadavg()[0]!.toFixed(1)}`,
  );
  return lines;
}
