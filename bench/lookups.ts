import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { distRoot } from '../lib/paths.js';
import { freePort } from '../lib/net/ports.js';
import { geocoder } from '../test/support/partner-server.js';
import { startProcess, stopProcess } from './support.js';
import { summary } from './stats.js';
import type { BenchDeps } from './deps.js';

const SAMPLES = 200;

async function timed(samples: number, before: () => Promise<void>, request: () => Promise<Response>): Promise<{ p50: number; p99: number }> {
  const durations: number[] = [];
  for (let i = 0; i < samples; i++) {
    await before();
    const start = performance.now();
    const res = await request();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`bench request answered ${res.status}`);
    durations.push(performance.now() - start);
  }
  const { p50, p99 } = summary(durations);
  return { p50: Math.round(p50 * 100) / 100, p99: Math.round(p99 * 100) / 100 };
}

/**
 * Lookup overhead: the same geocoding answer read directly from the replay server, and through the
 * API (authentication, quota, a short workflow, the activity on the partner's task queue), cache
 * missed (the cache row is deleted before each call, outside the timing) and cache hit. One caller
 * at a time: this is the latency a caller pays, not throughput.
 */
export async function benchLookups(deps: BenchDeps): Promise<string[]> {
  await geocoder.start();
  const apiPort = await freePort();
  const env = {
    DATABASE_URL: deps.databaseUrl,
    TEMPORAL_ADDRESS: deps.temporalAddress,
    LOG_LEVEL: 'warn',
    GEOCODING_BASE_URL: geocoder.baseUrl,
    // The bench measures the path, not the partner's rate cap.
    GEOCODING_RATE_PER_SECOND: '100000',
    SANDBOX_DAILY_QUOTA: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
  const ready = `http://127.0.0.1:${apiPort}/v1/openapi.json`;
  const api = await startProcess(join(distRoot, 'server', 'main.js'), { ...env, PORT: String(apiPort) }, ready);
  const worker = await startProcess(join(distRoot, 'worker', 'main.js'), env, ready);
  try {
    const headers = { authorization: `Bearer ${deps.testKey}` };
    const viaApi = () => fetch(`http://127.0.0.1:${apiPort}/v1/geo/addresses?q=lyon`, { headers });
    const direct = () => fetch(`${geocoder.baseUrl}/search?q=lyon&limit=5&autocomplete=1`);
    const nothing = async (): Promise<void> => undefined;
    const forget = async (): Promise<void> => void (await deps.db('partner_cache').delete());
    // Warm-up: the worker's workflow bundle, connections, JIT.
    await timed(30, forget, viaApi);
    await timed(30, nothing, direct);
    const bare = await timed(SAMPLES, nothing, direct);
    const missed = await timed(SAMPLES, forget, viaApi);
    const hit = await timed(SAMPLES, nothing, viaApi);
    return [
      `lookup overhead, ${SAMPLES} sequential calls each (GET /v1/geo/addresses?q=lyon, replayed geocoder):`,
      `  direct call to the fixture server            p50 ${bare.p50} ms   p99 ${bare.p99} ms`,
      `  API → Temporal → activity → fixture (miss)   p50 ${missed.p50} ms   p99 ${missed.p99} ms`,
      `  API, answer from the Postgres cache (hit)    p50 ${hit.p50} ms   p99 ${hit.p99} ms`,
      `  overhead of the activity path: +${(missed.p50 - bare.p50).toFixed(2)} ms at p50 (×${(missed.p50 / bare.p50).toFixed(1)})`,
    ];
  } finally {
    await stopProcess(worker);
    await stopProcess(api);
    await geocoder.stop();
  }
}
