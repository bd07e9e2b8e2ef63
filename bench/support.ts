import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** Requests per second for all connections together (a fixed load instead of the maximum). */
  overallRate?: number;
}

/** One autocannon run; a short warm-up first so both sides are measured hot. */
export async function load(name: string, options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 20,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  };
  await autocannon({ ...base, duration: 1 });
  const result = await autocannon({ ...base, duration: options.durationSeconds ?? 10 });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Runs a server script in its own process (autocannon must not share its event loop). */
/** `stdout`: a file descriptor for the process's standard output (e.g. its access log); discarded otherwise. */
export async function startProcess(script: string, env: Record<string, string>, readyUrl: string, stdout?: number): Promise<ChildProcess> {
  // BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of each server process there (open it in Chrome DevTools).
  const profileDir = process.env.BENCH_CPU_PROFILE;
  const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', stdout ?? 'ignore', 'inherit', 'ipc'] });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(readyUrl);
      return child;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${script} did not start`);
      await sleep(100);
    }
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The run with the median throughput (its latencies come with it). */
export function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)]!;
}

export function table(rows: LoadResult[]): string {
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(44)} ${String(r.requestsPerSecond).padStart(8)} req/s   p50 ${String(r.p50Ms).padStart(4)} ms   p99 ${String(r.p99Ms).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`,
  );
  return lines.join('\n');
}
