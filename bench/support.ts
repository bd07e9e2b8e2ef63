import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request as httpRequest } from 'node:http';
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { percentile } from './stats.js';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
  errors: number;
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
  /** A path per request (e.g. a different mailing each time): replaces the URL's path and query. */
  path?: () => string;
}

/** A scenario whose answers were not all the expected ones. */
export class ScenarioFailed extends Error {}

/** Answers by HTTP status, from autocannon's result. */
export function statusesOf(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, (stats as { count: number }).count]));
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
    const url = options.path ? new URL(options.path(), options.url).href : options.url;
    const res = await fetch(url, { method: options.method ?? 'GET', headers: options.headers, body: options.body });
    const text = await res.text();
    if (res.status !== options.expect.status)
      throw new ScenarioFailed(`${name}: ${url} answered ${res.status}, expected ${options.expect.status}: ${text.slice(0, 300)}`);
    const problem = options.expect.body?.(text);
    if (problem) throw new ScenarioFailed(`${name}: ${url} answered an unexpected body (${problem}): ${text.slice(0, 300)}`);
  }
}

/** One autocannon run, its answers checked; a short warm-up first so both sides are measured hot. */
export async function load(name: string, options: LoadOptions): Promise<LoadResult> {
  const path = options.path;
  const base = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 20,
    ...(path ? { requests: [{ setupRequest: (request: AutocannonRequest): AutocannonRequest => ({ ...request, path: path() }) }] } : {}),
  };
  await sampleAnswers(name, options);
  await autocannon({ ...base, duration: 1 });
  const result = await autocannon({ ...base, duration: options.durationSeconds ?? 10 });
  await sampleAnswers(name, options);
  return checkAnswers(
    {
      name,
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      statuses: statusesOf(result),
      errors: result.errors + result.timeouts,
    },
    options.expect.status,
  );
}

export interface SteadyLoadOptions extends Omit<LoadOptions, 'connections' | 'path' | 'expect'> {
  /** Unchecked when absent (the unit test of the load itself); the bench always sets it. */
  expect?: Expectation;
  /** Requests per second, on average. */
  rate: number;
  /** How requests arrive: evenly spaced (as wrk2 sends them), or at random (Poisson) around the same rate. */
  arrivals?: 'uniform' | 'poisson';
}

/**
 * An open-loop load at a fixed rate: request i is due at start + i / rate (or at Poisson arrival
 * times), whatever became of the earlier ones, each on a free keep-alive socket, and its latency
 * runs from that due time to the end of its answer. So a stall on either side counts for every
 * request it delays (no coordinated omission), and nothing is invented either.
 *
 * Not autocannon's overallRate: each of its connections sends its per-second quota back to back and
 * then waits for the next second (a burst at full concurrency, then silence), and it corrects its
 * histogram with an expected interval of ceil(1 / rate) = 1 ms (rate per second taken as per
 * millisecond), which records an answer of R ms R times. Both inflate its percentiles.
 */
/** A request of the steady load that gets no answer within this counts as an error. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function steadyLoad(name: string, options: SteadyLoadOptions): Promise<LoadResult> {
  const run = async (seconds: number): Promise<LoadResult> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
    const target = new URL(options.url);
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let errors = 0;
    const send = (due: number): Promise<void> =>
      new Promise((resolve) => {
        const failed = (): void => {
          errors += 1;
          resolve();
        };
        const request = httpRequest(target, { method: options.method ?? 'GET', headers: options.headers, agent }, (response) => {
          statuses[response.statusCode!] = (statuses[response.statusCode!] ?? 0) + 1;
          response.on('end', () => {
            latencies.push(performance.now() - due);
            resolve();
          });
          response.on('error', failed);
          response.resume();
        });
        request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error('no answer')));
        request.on('error', failed);
        request.end(options.body);
      });
    const start = performance.now();
    const end = start + seconds * 1000;
    const pending: Promise<void>[] = [];
    let due = start;
    const gap = (): number => (options.arrivals === 'poisson' ? -Math.log(1 - Math.random()) : 1) * (1000 / options.rate);
    while (due < end) {
      const now = performance.now();
      if (due > now) await sleep(due - now);
      // Every request due by now goes now (timers wake late; the latency still runs from its due time).
      for (const now = performance.now(); due <= now && due < end; due += gap()) pending.push(send(due));
    }
    await Promise.all(pending);
    agent.destroy();
    const sorted = latencies.sort((a, b) => a - b);
    const result = {
      name,
      requestsPerSecond: Math.round(latencies.length / seconds),
      p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
      p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
      statuses,
      errors,
    };
    return options.expect ? checkAnswers(result, options.expect.status) : result;
  };
  const expect = options.expect;
  if (expect) await sampleAnswers(name, { ...options, expect });
  await run(1);
  const measured = await run(options.durationSeconds ?? 10);
  if (expect) await sampleAnswers(name, { ...options, expect });
  return measured;
}

/** Runs a server script in its own process (autocannon must not share its event loop). */
/** `stdout`: a file descriptor for the process's standard output (e.g. its access log); discarded otherwise. */
export async function startProcess(script: string, env: Record<string, string>, readyUrl: string, stdout?: number): Promise<ChildProcess> {
  // BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of each server process there (open it in Chrome DevTools).
  const profileDir = process.env.BENCH_CPU_PROFILE;
  // --expose-gc: the memory probe (lib/memory-probe.ts) measures the live heap after a full collection.
  const execArgv = ['--expose-gc', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
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
      `${r.name.padEnd(58)} ${String(r.requestsPerSecond).padStart(8)} req/s   p50 ${String(r.p50Ms).padStart(4)} ms   p99 ${String(r.p99Ms).padStart(4)} ms   answers ${JSON.stringify(r.statuses)}`,
  );
  return lines.join('\n');
}
