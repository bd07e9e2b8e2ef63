import { readdirSync, readFileSync } from 'node:fs';

/** One process as Linux's /proc/<pid>/stat shows it: its parent, its program and the CPU it has used. */
export interface ProcessCpu {
  pid: number;
  ppid: number;
  comm: string;
  /** User and system time of the process itself (its threads), in ms; not its waited-for children. */
  cpuMs: number;
}

/** Linux's USER_HZ, the unit of /proc's times: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Parses one /proc/<pid>/stat line (proc(5)): "pid (comm) state ppid … utime stime …", utime and
 * stime being its 14th and 15th fields. The name may hold spaces and parentheses: it runs to the
 * last ")".
 */
export function parseProcStat(line: string): ProcessCpu | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(line.slice(0, open).trim());
  const rest = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  const [ppid, utime, stime] = [rest[1], rest[11], rest[12]].map(Number);
  if (!Number.isInteger(pid) || ![ppid, utime, stime].every((n) => Number.isFinite(n))) return undefined;
  return { pid, ppid: ppid!, comm: line.slice(open + 1, close), cpuMs: ((utime! + stime!) * 1000) / TICKS_PER_SECOND };
}

/** Every process of the machine, read from /proc (none where there is no /proc). */
export function listProcesses(): ProcessCpu[] {
  const found: ProcessCpu[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parsed = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (parsed) found.push(parsed);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** The CPU one process has used so far (ms), or undefined where /proc does not show it. */
export function processCpuMs(pid: number): number | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.cpuMs;
  } catch {
    return undefined;
  }
}

/** The processes under a root at one moment: each one's group and the CPU it had used (ms). */
export type CpuSnapshot = Map<number, { group: string; cpuMs: number }>;

/**
 * The processes under `root` (root included), each in the group `groupOf` names from the process
 * and its ancestors up to root (nearest first); undefined leaves it out. Empty where there is no /proc.
 */
export function cpuSnapshot(
  root: number,
  groupOf: (process: ProcessCpu, ancestors: ProcessCpu[]) => string | undefined,
  processes: ProcessCpu[] = listProcesses(),
): CpuSnapshot {
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  const snapshot: CpuSnapshot = new Map();
  for (const process of processes) {
    const ancestors: ProcessCpu[] = [];
    let under = process.pid === root;
    for (let parent = byPid.get(process.ppid); !under && parent && ancestors.length < 64; parent = byPid.get(parent.ppid)) {
      ancestors.push(parent);
      under = parent.pid === root;
    }
    const group = under ? groupOf(process, ancestors) : undefined;
    if (group !== undefined) snapshot.set(process.pid, { group, cpuMs: process.cpuMs });
  }
  return snapshot;
}

/**
 * The CPU each group used between two snapshots: per process, what it used since the first (all of
 * it when it started meanwhile). A process that ended meanwhile counts nothing: groups of
 * long-lived processes (servers, a browser, a connection pool's backends) are measured whole.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const used = new Map<string, number>();
  for (const [pid, { group, cpuMs }] of after) used.set(group, (used.get(group) ?? 0) + cpuMs - (before.get(pid)?.cpuMs ?? 0));
  return used;
}
