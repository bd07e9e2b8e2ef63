/**
 * The bench's load generator, run in a process of its own (bench/support.ts forks it once): sharing
 * the bench's event loop, autocannon held bare Koa to the pace of the loop that drove it (about 70 %
 * of a core), which flattered every ratio against bare Koa. Given a load by IPC, it runs it and
 * answers with the figures. One process for the whole run: a fresh one for each load measured with
 * code not yet compiled by V8 (its warm-up load had run in another process).
 */
import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { percentile } from './stats.js';

/** A closed loop: `connections` clients, each sending its next request when the last is answered. */
export interface ClosedLoad {
  kind: 'closed';
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  /** A path per request, drawn at random from these (replaces the URL's path and query). */
  paths?: string[];
}

/** An open loop at a fixed rate (see steadyLoad in bench/support.ts for why not autocannon's). */
export interface OpenLoad {
  kind: 'open';
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * A placeholder of `body` replaced, in each request, by a number no request of this generator's
   * process had before (e.g. a house number: a mailing to an address no cache knows each time).
   */
  numbered?: string;
  rate: number;
  arrivals: 'uniform' | 'poisson';
  durationSeconds: number;
}

export type Load = ClosedLoad | OpenLoad;

/** What a load measured: every answer by status, its latencies and its pace. */
export interface LoadFigures {
  requestsPerSecond: number;
  /** Answered requests, all statuses. */
  total: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
  errors: number;
}

/** The last number given to a `numbered` placeholder, for the whole life of this process. */
let numbered = 0;

/** A request of the open loop that gets no answer within this counts as an error. */
const REQUEST_TIMEOUT_MS = 30_000;

async function closedLoop(load: ClosedLoad): Promise<LoadFigures> {
  const paths = load.paths;
  const result = await autocannon({
    url: load.url,
    method: load.method,
    headers: load.headers,
    body: load.body,
    connections: load.connections,
    duration: load.durationSeconds,
    ...(paths
      ? {
          requests: [
            { setupRequest: (request: AutocannonRequest): AutocannonRequest => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)]! }) },
          ],
        }
      : {}),
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, (stats as { count: number }).count])),
    errors: result.errors + result.timeouts,
  };
}

/**
 * Request i is due at start + i / rate (or at Poisson arrival times), whatever became of the earlier
 * ones, each on a free keep-alive socket, and its latency runs from that due time to the end of its
 * answer: a stall on either side counts for every request it delays (no coordinated omission).
 */
async function openLoop(load: OpenLoad): Promise<LoadFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const target = new URL(load.url);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const send = (due: number): Promise<void> =>
    new Promise((resolve) => {
      const body = load.numbered && load.body ? load.body.replaceAll(load.numbered, String(++numbered)) : load.body;
      const failed = (): void => {
        errors += 1;
        resolve();
      };
      const request = httpRequest(target, { method: load.method, headers: load.headers, agent }, (response) => {
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
      request.end(body);
    });
  const start = performance.now();
  const end = start + load.durationSeconds * 1000;
  const pending: Promise<void>[] = [];
  let due = start;
  const gap = (): number => (load.arrivals === 'poisson' ? -Math.log(1 - Math.random()) : 1) * (1000 / load.rate);
  while (due < end) {
    const now = performance.now();
    if (due > now) await sleep(due - now);
    // Every request due by now goes now (timers wake late; the latency still runs from its due time).
    for (const now = performance.now(); due <= now && due < end; due += gap()) pending.push(send(due));
  }
  await Promise.all(pending);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(latencies.length / load.durationSeconds),
    total: latencies.length,
    p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
    statuses,
    errors,
  };
}

// Forked once by bench/support.ts and kept for the run: each load it is sent, then its figures (its
// code stays warm from one load to the next, as a long-running generator's would). Gone with its
// parent (IPC closed).
if (process.send) {
  process.once('disconnect', () => process.exit(0));
  process.on('message', (load: Load) => {
    void (load.kind === 'closed' ? closedLoop(load) : openLoop(load)).then(
      (figures) => process.send!({ figures }),
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
}
