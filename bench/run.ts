import { mkdtempSync, chmodSync, closeSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../db/knex.js';
import { freeLetter, recipient, sender } from '../test/support/fixtures.js';
import { randomBytes } from 'node:crypto';
import { distRoot } from '../lib/paths.js';
import { dataDir, loadConfig } from '../lib/config.js';
import { startLocalStack } from '../scripts/local/stack.js';
import { freePort } from '../scripts/local/ports.js';
import { createDb, migrateLatest } from '../db/knex.js';
import { createApiKey } from '../domain/access/keys.js';
import { SCOPES } from '../domain/access/scopes.js';
import { load, median, startProcess, stopProcess, table, type LoadOptions, type LoadResult } from './support.js';
import { benchLexicalSearch } from './search.js';
import { benchPdf } from './pdf.js';
import { benchSettle } from './settle.js';
import { benchMailings, type MailingBenchDeps } from './mailings.js';
import { benchLookups } from './lookups.js';
import { connectTemporal } from '../temporal/connection.js';

/**
 * `npm run bench` (or `npm run bench -- front-door|search|pdf|settle|mailings|lookups`): in one run, on this machine,
 * - front door: a bare Koa hello-world and our authenticated API, with their ratio (target ≥ 0.5);
 * - search: lexical search latency over the whole catalogue (target p99 < 1 ms);
 * - pdf: letters per second and p50 with a warm browser;
 * - settle: exact minimum transfers at 10, 15 and 20 balances, against the greedy heuristic;
 * - mailings: intake vs bare workflow starts, p99 at half load (open loop), webhook latency, history of one AR mailing;
 * - lookups: a partner lookup through the API and Temporal against a direct call to the fixture.
 */
async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === 'search') console.log(benchLexicalSearch());
  if (!only || only === 'pdf') console.log(await benchPdf());
  if (!only || only === 'settle') console.log(benchSettle().join('\n'));
  if (!only || only === 'front-door') await withStack(benchFrontDoor);
  if (!only || only === 'mailings') await withStack(async (deps) => console.log((await benchMailings(deps)).join('\n')));
  if (!only || only === 'lookups') await withStack(async (deps) => console.log((await benchLookups(deps)).join('\n')));
}

/** Its own Postgres and Temporal, an account with a sandbox key. */
async function withStack(work: (deps: MailingBenchDeps) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  chmodSync(dataDir, 0o755);
  process.env.DATA_DIR = dataDir;
  process.env.SECRET_KEY ??= randomBytes(32).toString('hex');
  delete process.env.DATABASE_URL;
  delete process.env.TEMPORAL_ADDRESS;
  const config = loadConfig();
  const stack = await startLocalStack(config, { dataDir, persistent: false, uiPort: null, log: (l) => console.error(l) });
  const db = createDb(stack.databaseUrl);
  await migrateLatest(db);
  const temporal = await connectTemporal(stack.temporalAddress, config.temporalNamespace);
  try {
    const [account] = await db('accounts').insert({ name: 'bench' }).returning('id');
    const { key } = await createApiKey(db, account.id, 'test', SCOPES);
    await work({
      config,
      db,
      client: temporal.client,
      databaseUrl: stack.databaseUrl,
      temporalAddress: stack.temporalAddress,
      testKey: key,
      accountId: account.id,
    });
  } finally {
    await temporal.connection.close();
    await db.destroy();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ROUNDS = 3;

/**
 * A test mailing as a customer polls it: posted, with three events and its filing proof (written
 * here as the worker would, so that no worker runs during the measure).
 */
async function postedMailing(db: Db, apiUrl: string, auth: Record<string, string>): Promise<string> {
  const res = await fetch(`${apiUrl}/v1/mailings`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'registered', letter: freeLetter, sender, recipient }),
  });
  if (res.status !== 201) throw new Error(`POST /v1/mailings answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const at = new Date();
  await db('shipments').where({ id }).update({ status: 'posted', step: 2 });
  await db('shipment_events').insert([
    { shipment_id: id, step: 1, status: 'printed', at },
    { shipment_id: id, step: 2, status: 'posted', at },
  ]);
  await db('shipment_proofs').insert({ shipment_id: id, kind: 'filing', pdf: Buffer.from('%PDF-1.4 bench') });
  return id;
}

async function benchFrontDoor({ db, databaseUrl, temporalAddress, testKey: key }: MailingBenchDeps): Promise<void> {
  const helloPort = await freePort();
  const apiPort = await freePort();
  const hello = await startProcess(join(distRoot, 'bench', 'hello-koa.js'), { PORT: String(helloPort) }, `http://127.0.0.1:${helloPort}/`);
  // The access log is on, as in production, and written to a file as a log collector would read it.
  const accessLog = join(dataDir(), 'api-access.log');
  const logFd = openSync(accessLog, 'a');
  const api = await startProcess(
    join(distRoot, 'api', 'main.js'),
    {
      PORT: String(apiPort),
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      LOG_LEVEL: process.env.BENCH_API_LOG_LEVEL ?? 'info',
      // The bench measures the work of the limits, not their refusals.
      RATE_LIMIT_PER_MINUTE: '100000000',
      SANDBOX_DAILY_QUOTA: '100000000',
    },
    `http://127.0.0.1:${apiPort}/v1/openapi.json`,
    logFd,
  );

  try {
    const auth = { authorization: `Bearer ${key}` };
    const etag = (await fetch(`http://127.0.0.1:${apiPort}/v1/catalogue`, { headers: auth })).headers.get('etag')!;
    const mailingId = await postedMailing(db, `http://127.0.0.1:${apiPort}`, auth);
    const allScenarios: [string, LoadOptions][] = [
      ['bare Koa hello-world', { url: `http://127.0.0.1:${helloPort}/` }],
      ['GET /v1/catalogue, If-None-Match (304)', { url: `http://127.0.0.1:${apiPort}/v1/catalogue`, headers: { ...auth, 'if-none-match': etag } }],
      ['GET /v1/mailings/{id} (3 events, 1 proof)', { url: `http://127.0.0.1:${apiPort}/v1/mailings/${mailingId}`, headers: auth }],
      ['GET /v1/catalogue (149 KB body)', { url: `http://127.0.0.1:${apiPort}/v1/catalogue`, headers: auth }],
      [
        'POST /v1/expenses/settle (test key)',
        {
          url: `http://127.0.0.1:${apiPort}/v1/expenses/settle`,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ members: [{ id: 'ana' }, { id: 'ben' }, { id: 'cyd' }], expenses: [{ amountCents: 3000, paidBy: 'ana' }] }),
        },
      ],
    ];
    // BENCH_ONLY=<text>: the baseline and the scenarios whose name contains it (e.g. to profile one route).
    const only = process.env.BENCH_ONLY;
    const scenarios = only ? allScenarios.filter(([name], i) => i === 0 || name.includes(only)) : allScenarios;
    // This machine is noisy: the scenarios alternate over several rounds and the medians count.
    const rounds: LoadResult[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const results: LoadResult[] = [];
      for (const [name, options] of scenarios) results.push(await load(name, { ...options, durationSeconds: 5 }));
      rounds.push(results);
      console.log(`round ${round + 1}: ` + results.map((r) => `${r.requestsPerSecond}`).join(' / ') + ' req/s');
    }
    const medians = scenarios.map((_, i) => median(rounds.map((r) => r[i]!)));
    console.log(table(medians));
    if (only) return;
    const [baseline, cheap, mailing, , settle] = medians as [LoadResult, LoadResult, LoadResult, LoadResult, LoadResult];
    const ratio = (r: LoadResult): string => (r.requestsPerSecond / baseline.requestsPerSecond).toFixed(2);
    console.log(`\nratio cheap authenticated route (GET /v1/catalogue, 304) / bare Koa: ${ratio(cheap)} (target ≥ 0.50)`);
    console.log(`ratio GET /v1/mailings/{id} (one mailing from Postgres) / bare Koa: ${ratio(mailing)} (target ≥ 0.25)`);
    console.log(`ratio POST /v1/expenses/settle (body, Joi validation, computation) / bare Koa: ${ratio(settle)}`);
  } finally {
    await stopProcess(api);
    await stopProcess(hello);
    closeSync(logFd);
    console.log(`access log of the API: ${statSync(accessLog).size} bytes written`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
