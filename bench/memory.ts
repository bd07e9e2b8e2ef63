import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { listProcesses } from './process-cpu.js';

export interface ProcessMemory {
  /** The process itself, in MB. */
  rssMb: number;
  heapUsedMb: number;
  /** Its descendants (the worker's browser), in MB. */
  childrenRssMb: number;
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** Resident set size of a pid from /proc, in bytes (0 once it has exited). */
function rssOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every descendant of a pid, read from /proc. */
function descendantsOf(root: number): number[] {
  const processes = listProcesses();
  const found: number[] = [];
  const walk = (pid: number): void => {
    for (const { pid: child, ppid } of processes) {
      if (ppid !== pid) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

/** A forked API or worker's memory: its RSS and heap (asked on its IPC channel, lib/memory-probe.ts) and its children's RSS. */
export async function memoryOf(child: ChildProcess): Promise<ProcessMemory> {
  const reply = once(child, 'message') as Promise<[{ memory: NodeJS.MemoryUsage }]>;
  child.send('memory?');
  const [{ memory }] = await Promise.race([
    reply,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer to the memory probe')), 5000).unref()),
  ]);
  const childrenRss = descendantsOf(child.pid!).reduce((sum, pid) => sum + rssOf(pid), 0);
  return { rssMb: mb(memory.rss), heapUsedMb: mb(memory.heapUsed), childrenRssMb: mb(childrenRss) };
}
