import { readFileSync } from 'node:fs';

/**
 * The machine's CPU time so far, from the first line of Linux's /proc/stat (all cores, in clock
 * ticks): "cpu user nice system idle iowait irq softirq steal guest guest_nice". Guest time is
 * already counted in user, so the total is the first eight.
 */
export function cpuTicks(procStat: string): { total: number; steal: number } | undefined {
  const [label, ...fields] = procStat.split('\n', 1)[0]!.trim().split(/\s+/);
  const ticks = fields.slice(0, 8).map(Number);
  if (label !== 'cpu' || ticks.length < 8 || ticks.some((n) => !Number.isFinite(n))) return undefined;
  return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7]! };
}

function readProcStat(): string {
  try {
    return readFileSync('/proc/stat', 'utf8');
  } catch {
    return '';
  }
}

/**
 * Starts counting the CPU time the hypervisor gives to other machines ("steal") while a part runs;
 * the returned function gives its share of the machine's time, in %, or undefined where the
 * system does not say (not Linux). A virtual machine's speed moves with its neighbours: a part
 * run while a fifth of the CPU was stolen is not the same measure as one run on a quiet host.
 */
export function countSteal(read: () => string = readProcStat): () => number | undefined {
  const before = cpuTicks(read());
  return () => {
    const after = cpuTicks(read());
    if (!before || !after || after.total <= before.total) return undefined;
    return (100 * (after.steal - before.steal)) / (after.total - before.total);
  };
}
