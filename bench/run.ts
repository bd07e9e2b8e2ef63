import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../lib/config.js';
import { startLocalStack } from '../scripts/local/stack.js';
import { createDb, migrateLatest } from '../db/knex.js';
import { createApiKey } from '../domain/access/keys.js';
import { SCOPES } from '../domain/access/scopes.js';
import { ScenarioFailed } from './support.js';
import { Report } from './report.js';
import { benchFrontDoor } from './front-door.js';
import { benchSoak } from './soak.js';
import { benchLexicalSearch } from './search.js';
import { benchPdf } from './pdf.js';
import { benchSettle } from './settle.js';
import { benchLiveMailings, benchMailings, mailingEnv } from './mailings.js';
import type { BenchDeps } from './deps.js';
import { benchIntake, benchPartnerOutage } from './intake.js';
import { benchLookups } from './lookups.js';
import { benchBatches } from './batches.js';
import { connectTemporal } from '../temporal/connection.js';
import { PartnerServer } from '../test/support/partner-server.js';
import { countSteal } from './steal.js';
import { benchTemporalShapes } from './temporal-shapes.js';

/**
 * `npm run bench` (or one part: `npm run bench -- search|pdf|settle|front-door|mailings|batches|lookups`, and
 * `npm run bench -- soak` and `-- temporal-shapes`, which a full run leaves out): in one run, on this machine, our code
 * against a baseline, every answer checked (a wrong answer fails its scenario). A full run writes
 * its figures, targets and verdicts at the top of docs/performance.md (bench/report.ts).
 * - search: lexical search latency over the whole catalogue (target p99 < 1 ms);
 * - pdf: letters per second and p50 with a warm browser;
 * - settle: exact minimum transfers at 10, 15 and 20 balances, against the greedy heuristic;
 * - front door: bare Koa against cheap routes, mailing reads (cache hit, cold) and lists at 100k mailings;
 * - mailings: intake vs bare starts counted at workflow start, p99 at half load, webhook latency,
 *   the Temporal actions of an AR mailing with its children, memory;
 * - live: live AR mailings against bare workflows of the same shape, and the CPU per mailing of each process;
 * - batches: a batch of 1,000 rows against 1,000 single POSTs, until every workflow has started; the
 *   largest batch of new addresses against the idempotency lease;
 * - lookups: a partner lookup through the API and Temporal against a direct call to the fixture;
 * - soak: 10 minutes at half load, memory at minute 1 and 10, p99 of each minute.
 */
async function main(): Promise<void> {
  const only = process.argv[2];
  const report = new Report(only === 'soak' ? 'Last run of `npm run bench -- soak`' : undefined);
  const part = async (name: string, work: () => Promise<void> | void): Promise<void> => {
    if (only ? only !== name : name === 'soak') return;
    const steal = countSteal();
    try {
      await work();
    } catch (error) {
      if (!(error instanceof ScenarioFailed)) throw error;
      report.fail(name, error);
    }
    // What the part's figures were measured on: the share of the CPU other machines took meanwhile.
    const stolen = steal();
    if (stolen !== undefined) report.add({ part: name, name: 'CPU time taken by the hypervisor (steal) during the part', value: stolen, unit: '%' });
  };
  await part('search', () => {
    const s = benchLexicalSearch();
    console.log(s.line);
    report.add({ part: 'search', name: `lexical search over the catalogue: p99`, value: s.p99, unit: 'ms', target: { below: 1 } });
  });
  await part('pdf', async () => {
    const p = await benchPdf();
    console.log(p.lines.join('\n'));
    report.add({ part: 'pdf', name: 'one-page catalogue letter, warm browser: letters/s', value: p.perSecond, unit: '/s', target: { atLeast: 80 } });
    report.add({ part: 'pdf', name: 'one-page catalogue letter: p50', value: p.p50, unit: 'ms', target: { atMost: 30 } });
    report.add({ part: 'pdf', name: 'our PDF path p50 ÷ bare setContent + pdf', value: p.overhead, unit: 'ratio', target: { atMost: 2 } });
  });
  await part('settle', () => console.log(benchSettle().join('\n')));
  await part('front-door', () => withStack((deps) => benchFrontDoor(deps, report)));
  await part('mailings', () => withStack((deps) => benchMailings(deps, report)));
  // Intake alone (a full run measures it within mailings): `npm run bench -- intake`.
  await part('intake', () => (only === 'intake' ? withStack((deps) => benchIntake(deps, mailingEnv(deps), report)) : undefined));
  // The partner outage alone, at BENCH_PARTNER_RATE mailings/s (a full run measures it within intake, at half load).
  await part('partners', () =>
    only === 'partners' ? withStack((deps) => benchPartnerOutage(deps, mailingEnv(deps), report, Number(process.env.BENCH_PARTNER_RATE ?? 80))) : undefined,
  );
  // The live AR rounds on a stack of their own (bench/mailings.ts, benchLiveMailings).
  await part('live', () => withStack((deps) => benchLiveMailings(deps, report)));
  // What each kind of step costs Temporal's dev server (issue 57, part 3), alone: `npm run bench -- temporal-shapes`.
  await part('temporal-shapes', () => (only === 'temporal-shapes' ? withStack((deps) => benchTemporalShapes(deps, report)) : undefined));
  await part('batches', () => withStack((deps) => benchBatches(deps, mailingEnv(deps), report)));
  await part('lookups', () => withStack(async (deps) => console.log((await benchLookups(deps)).join('\n'))));
  await part('soak', () => withStack((deps) => benchSoak(deps, report)));
  console.log(`\n${report.markdown()}`);
  if (!only) report.writeDocs('bench');
  if (only === 'soak') report.writeDocs('soak');
  if (report.failures.length) process.exitCode = 1;
}

/** Its own Postgres and Temporal, an account with a sandbox key. */
async function withStack(work: (deps: BenchDeps) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  chmodSync(dataDir, 0o755);
  process.env.DATA_DIR = dataDir;
  process.env.SECRET_KEY ??= randomBytes(32).toString('hex');
  delete process.env.DATABASE_URL;
  delete process.env.TEMPORAL_ADDRESS;
  // The mailings' address check asks the geocoder, replayed as in the tests (test/fixtures/partners/):
  // the API and worker processes inherit the address (bench/support.ts), a scenario may set its own.
  const geocoder = await new PartnerServer('geoplateforme').start();
  process.env.GEOCODING_BASE_URL = geocoder.baseUrl;
  const config = loadConfig();
  const stack = await startLocalStack(config, { dataDir, persistent: false, uiPort: null, log: (l) => console.error(l) });
  const db = createDb(stack.databaseUrl, { role: 'api' });
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
    await geocoder.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Stopped by a signal (Ctrl-C, a timeout's SIGTERM): exiting runs the exit handlers that stop what
// the bench started (PostgreSQL, Temporal, stripe-mock, the API and worker processes).
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)
  process.once(signal, () => process.exit(code));

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
