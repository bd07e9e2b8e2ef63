import { join } from 'node:path';
import { distRoot, projectRoot } from '../lib/paths.js';
import { freePort } from '../lib/net/ports.js';
import { freeLetter, recipient, sender } from '../test/support/fixtures.js';
import type { BenchDeps } from './deps.js';
import { memoryOf, type ProcessMemory } from './memory.js';
import type { Report } from './report.js';
import { sampleAnswers, startProcess, steadyLoad, stopProcess } from './support.js';
import { createdMailingProblem, firstCheckedMailing, intakeRate } from './intake.js';

/** BENCH_SOAK_MINUTES shortens it for a try; the figures in the docs come from 10. */
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
/** What counts as growth between minute 1 and the last minute. */
const GROWTH_LIMIT = 1.15;

/**
 * `npm run bench -- soak`: the API and a worker under POST /v1/mailings at half their intake
 * (Poisson arrivals) for MINUTES minutes after a minute of warm-up; the RSS and live heap of both at
 * minute 1 and at the end, and the p99 of each minute.
 */
export async function benchSoak(deps: BenchDeps, report: Report): Promise<void> {
  const port = await freePort();
  const env = {
    DATABASE_URL: deps.databaseUrl,
    TEMPORAL_ADDRESS: deps.temporalAddress,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SANDBOX_DAILY_QUOTA: '100000000',
    NODE_EXTRA_CA_CERTS: join(projectRoot, 'test', 'fixtures', 'tls', 'cert.pem'),
    PORT: String(port),
  };
  const ready = `http://127.0.0.1:${port}/v1/openapi.json`;
  const api = await startProcess(join(distRoot, 'server', 'main.js'), env, ready);
  const worker = await startProcess(join(distRoot, 'worker', 'main.js'), env, ready);
  const options = {
    url: `http://127.0.0.1:${port}/v1/mailings`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'registered', letter: freeLetter, sender, recipient }),
  };
  try {
    // Half of what this API and worker take: measured once the worker answers the address check (a
    // rate probed while it bundles its workflows is the check's deadline), every answer checked, and
    // counted when the workflows have started, as intake is: the answers alone run ahead of the
    // starts for a few seconds (up to 256 waiting), which no load can keep up for ten minutes.
    await firstCheckedMailing(options.url, options.headers);
    await sampleAnswers('soak: full rate', { ...options, expect: { status: 201, body: createdMailingProblem } });
    const full = await intakeRate(deps.client, options, 10);
    const rate = Math.max(1, Math.round(full.perSecond / 2));
    console.log(
      `soak: ${MINUTES} minutes at ${rate} POST /v1/mailings per second (half of ${full.perSecond.toFixed(0)}/s counted at workflow start; ${full.answeredPerSecond.toFixed(0)}/s answered), Poisson arrivals`,
    );
    // Warm-up, not measured: the worker's bundle and first tasks, the caches, the JIT.
    await steadyLoad('soak warm-up', { ...options, rate, arrivals: 'poisson', durationSeconds: 59, expect: { status: 201, body: createdMailingProblem } });
    const p99s: number[] = [];
    let first: { api: ProcessMemory; worker: ProcessMemory } | undefined;
    let last = first;
    for (let minute = 1; minute <= MINUTES; minute++) {
      const result = await steadyLoad(`soak minute ${minute}`, {
        ...options,
        rate,
        arrivals: 'poisson',
        durationSeconds: 59,
        expect: { status: 201, body: createdMailingProblem },
      });
      last = { api: await memoryOf(api), worker: await memoryOf(worker) };
      first ??= last;
      p99s.push(result.p99Ms);
      console.log(
        `soak minute ${minute}: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms; API RSS ${last.api.rssMb} MB heap ${last.api.heapUsedMb} MB; worker RSS ${last.worker.rssMb} MB heap ${last.worker.heapUsedMb} MB, browser ${last.worker.childrenRssMb} MB`,
      );
    }
    const part = 'soak';
    // Each minute's p99 is printed; the soak's verdicts are on growth (the p99 at half load has its own target in the intake part).
    console.log(`soak p99 per minute: ${p99s.join(', ')} ms`);
    report.add({
      part,
      name: `worst p99 of a minute (${MINUTES} minutes at ${rate}/s with a worker, Poisson, after a minute of warm-up)`,
      value: Math.max(...p99s),
      unit: 'ms',
    });
    report.add({ part, name: 'p99 of the last minute ÷ the first', value: p99s.at(-1)! / p99s[0]!, unit: 'ratio' });
    for (const who of ['api', 'worker'] as const) {
      report.add({ part, name: `${who} RSS at minute 1`, value: first![who].rssMb, unit: 'MB' });
      report.add({ part, name: `${who} live heap at minute 1`, value: first![who].heapUsedMb, unit: 'MB' });
      report.add({
        part,
        name: `${who} RSS at minute ${MINUTES} ÷ minute 1`,
        value: last![who].rssMb / first![who].rssMb,
        unit: 'ratio',
        target: { atMost: GROWTH_LIMIT },
      });
      report.add({
        part,
        name: `${who} live heap at minute ${MINUTES} ÷ minute 1`,
        value: last![who].heapUsedMb / first![who].heapUsedMb,
        unit: 'ratio',
        target: { atMost: GROWTH_LIMIT },
      });
    }
  } finally {
    await stopProcess(worker);
    await stopProcess(api);
  }
}
