import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { API_NODE_FLAGS } from '../server/node-flags.js';
import type { Load, LoadFigures } from './load-generator.js';
import { processCpuMs } from './process-cpu.js';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
  errors: number;
  /**
   * The CPU the server process spent per answered request during the load, in µs (read from /proc;
   * when the load named its server). Unlike the rate, the load generator's pace does not bend it.
   */
  serverCpuUs?: number;
}

/** What every answer of a scenario must be: any other answer fails the scenario (it is never dropped from a ratio). */
export interface Expectation {
  status: number;
  /** Checked on a sample of answers (fetched before and after the load); returns what is wrong, or nothing. */
  body?: (body: string) => string | undefined;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  expect: Expectation;
  /** A path per request drawn at random from these (e.g. a different mailing each time): replaces the URL's path and query. */
  paths?: string[];
  /** The server's process id: its CPU per request is then measured too (LoadResult.serverCpuUs). */
  serverPid?: number;
}

/** A scenario whose answers were not all the expected ones. */
export class ScenarioFailed extends Error {}

/** The load generator's process (bench/load-generator.ts), beside this module once compiled. */
const GENERATOR = fileURLToPath(new URL('./load-generator.js', import.meta.url));

/** The generator's process, forked at the first load and kept (warm) for the others. */
let generator: ChildProcess | undefined;

/**
 * Runs one load in the generator's process and answers its figures: the generator never shares an
 * event loop (or a core's time slices) with the bench, so the pace it measures is the server's.
 * Loads run one at a time. Between loads the generator holds nothing open in the bench: it exits
 * with it (its IPC channel closes).
 */
export async function generateLoad(load: Load): Promise<LoadFigures> {
  if (!generator || generator.exitCode !== null || !generator.connected) {
    generator = fork(GENERATOR, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    generator.unref();
  }
  const child = generator;
  child.channel?.ref();
  let onExit: ((code: number | null) => void) | undefined;
  try {
    const answer = once(child, 'message') as Promise<[{ figures?: LoadFigures; error?: string }]>;
    const exited = new Promise<never>((_, reject) => {
      onExit = (code) => reject(new Error(`the load generator exited (${String(code)}) before answering`));
      child.once('exit', onExit);
    });
    child.send(load);
    const [message] = await Promise.race([answer, exited]);
    if (!message.figures) throw new Error(`the load generator failed: ${message.error}`);
    return message.figures;
  } finally {
    if (onExit) child.off('exit', onExit);
    child.channel?.unref();
  }
}

/** Throws ScenarioFailed unless every answer had the expected status and no request failed. */
export function checkAnswers<R extends Pick<LoadResult, 'name' | 'statuses' | 'errors'>>(result: R, expected: number): R {
  const wrong = Object.entries(result.statuses).filter(([status]) => Number(status) !== expected);
  if (wrong.length || result.errors || !result.statuses[expected])
    throw new ScenarioFailed(
      `${result.name}: expected every answer to be ${expected}; got ${JSON.stringify(result.statuses)} and ${result.errors} failed requests`,
    );
  return result;
}

/** A few answers fetched one by one, their status and body checked (autocannon does not keep bodies). */
export async function sampleAnswers(name: string, options: LoadOptions, count = 5): Promise<void> {
  for (let i = 0; i < count; i++) {
    const url = options.paths ? new URL(options.paths[Math.floor(Math.random() * options.paths.length)]!, options.url).href : options.url;
    const res = await fetch(url, { method: options.method ?? 'GET', headers: options.headers, body: options.body });
    const text = await res.text();
    if (res.status !== options.expect.status)
      throw new ScenarioFailed(`${name}: ${url} answered ${res.status}, expected ${options.expect.status}: ${text.slice(0, 300)}`);
    const problem = options.expect.body?.(text);
    if (problem) throw new ScenarioFailed(`${name}: ${url} answered an unexpected body (${problem}): ${text.slice(0, 300)}`);
  }
}

/** One closed-loop load, its answers checked; a short warm-up first so both sides are measured hot. */
export async function load(name: string, options: LoadOptions): Promise<LoadResult> {
  const base = {
    kind: 'closed' as const,
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 20,
    paths: options.paths,
  };
  await sampleAnswers(name, options);
  await generateLoad({ ...base, durationSeconds: 1 });
  const cpuBefore = options.serverPid === undefined ? undefined : processCpuMs(options.serverPid);
  const figures = await generateLoad({ ...base, durationSeconds: options.durationSeconds ?? 10 });
  const cpuAfter = options.serverPid === undefined ? undefined : processCpuMs(options.serverPid);
  const serverCpuUs = cpuBefore === undefined || cpuAfter === undefined || figures.total === 0 ? undefined : ((cpuAfter - cpuBefore) * 1000) / figures.total;
  await sampleAnswers(name, options);
  return checkAnswers({ name, ...figures, ...(serverCpuUs === undefined ? {} : { serverCpuUs: Math.round(serverCpuUs * 10) / 10 }) }, options.expect.status);
}

export interface SteadyLoadOptions extends Omit<LoadOptions, 'connections' | 'path' | 'expect'> {
  /** Unchecked when absent (the unit test of the load itself); the bench always sets it. */
  expect?: Expectation;
  /** Requests per second, on average. */
  rate: number;
  /** How requests arrive: evenly spaced (as wrk2 sends them), or at random (Poisson) around the same rate. */
  arrivals?: 'uniform' | 'poisson';
  /** A placeholder of `body` the generator replaces with a number never sent before (bench/load-generator.ts). */
  numbered?: string;
}

/**
 * An open-loop load at a fixed rate, in the generator's process (bench/load-generator.ts says how
 * requests go and how their latency is counted: no coordinated omission).
 *
 * Not autocannon's overallRate: each of its connections sends its per-second quota back to back and
 * then waits for the next second (a burst at full concurrency, then silence), and it corrects its
 * histogram with an expected interval of ceil(1 / rate) = 1 ms (rate per second taken as per
 * millisecond), which records an answer of R ms R times. Both inflate its percentiles.
 */
export async function steadyLoad(name: string, options: SteadyLoadOptions): Promise<LoadResult> {
  const run = async (seconds: number): Promise<LoadResult> => {
    const figures = await generateLoad({
      kind: 'open',
      url: options.url,
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
      numbered: options.numbered,
      rate: options.rate,
      arrivals: options.arrivals ?? 'uniform',
      durationSeconds: seconds,
    });
    const result = { name, ...figures };
    return options.expect ? checkAnswers(result, options.expect.status) : result;
  };
  const expect = options.expect;
  // The samples' numbers are far above the generator's, which count from 1.
  const sampled = (): SteadyLoadOptions =>
    options.numbered && options.body
      ? { ...options, body: options.body.replaceAll(options.numbered, String(900_000 + Math.floor(Math.random() * 99_999))) }
      : options;
  if (expect) await sampleAnswers(name, { ...sampled(), expect });
  await run(1);
  const measured = await run(options.durationSeconds ?? 10);
  if (expect) await sampleAnswers(name, { ...sampled(), expect });
  return measured;
}

/** Runs a server script in its own process (autocannon must not share its event loop). */
/** `stdout`: a file descriptor for the process's standard output (e.g. its access log); discarded otherwise. */
export async function startProcess(script: string, env: Record<string, string>, readyUrl: string, stdout?: number): Promise<ChildProcess> {
  // BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of each server process there (open it in Chrome DevTools).
  const profileDir = process.env.BENCH_CPU_PROFILE;
  // --expose-gc: the memory probe (lib/memory-probe.ts) measures the live heap after a full collection.
  // The API runs with its own flags (server/node-flags.ts), as the image and the chart start it.
  const apiFlags = script.endsWith(join('server', 'main.js')) ? API_NODE_FLAGS : [];
  const execArgv = [...apiFlags, '--expose-gc', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', stdout ?? 'ignore', 'inherit', 'ipc'] });
  // A bench that exits (a failure, or a signal: bench/run.ts) stops it too: its own shutdown closes its browser.
  const stopOnExit = (): void => void child.kill('SIGTERM');
  process.once('exit', stopOnExit);
  child.once('exit', () => process.removeListener('exit', stopOnExit));
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
      `${r.name.padEnd(58)} ${String(r.requestsPerSecond).padStart(8)} req/s   p50 ${String(r.p50Ms).padStart(4)} ms   p99 ${String(r.p99Ms).padStart(4)} ms${r.serverCpuUs === undefined ? '' : `   server CPU ${r.serverCpuUs} µs/request`}   answers ${JSON.stringify(r.statuses)}`,
  );
  return lines.join('\n');
}
