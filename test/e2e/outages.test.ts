import { expect } from 'chai';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, eventually, IsolatedServices, type ApiResponse } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { createDb, migrateLatest, type Db } from '../../db/knex.js';
import { createAccount } from '../../domain/access/accounts.js';
import { createApiKey } from '../../domain/access/keys.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { topUp } from '../../domain/billing/ledger.js';
import { loadConfig } from '../../lib/config.js';
import { freePort } from '../../lib/net/ports.js';
import { startLocalPostgres, type LocalPostgres } from '../../scripts/local/postgres.js';
import { resolveTemporalCli } from '../../scripts/local/temporal-cli.js';
import { startTemporalDevServer, type LocalTemporal } from '../../scripts/local/temporal-server.js';

/**
 * A Postgres and a Temporal dev server of this file's own, which it stops and starts again on the
 * same port and the same data (the shared test stack is never touched), with an API process and
 * a worker on them.
 */
class OwnComponents {
  readonly dir = mkdtempSync(join(tmpdir(), 'svc-outage-'));
  pgPort = 0;
  temporalPort = 0;
  cli = '';
  postgres: LocalPostgres | undefined;
  temporal: LocalTemporal | undefined;
  pgDataDir = '';

  async init(): Promise<void> {
    // The postgres user (when we are root) must reach the cluster folder.
    chmodSync(this.dir, 0o755);
    this.pgPort = await freePort();
    this.temporalPort = await freePort();
    this.cli = await resolveTemporalCli(loadConfig().temporalCliPath, () => undefined);
  }

  get databaseUrl(): string {
    return this.postgres!.url;
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.temporalPort}`;
  }

  async startPostgres(): Promise<void> {
    // Persistent: stopping keeps the cluster, so the restart finds every row.
    this.postgres = await startLocalPostgres(join(this.dir, 'postgres'), this.pgPort, true);
    this.pgDataDir = this.postgres.dataDir;
  }

  async stopPostgres(): Promise<void> {
    await this.postgres?.stop();
  }

  async startTemporal(): Promise<void> {
    this.temporal = await startTemporalDevServer({
      cli: this.cli,
      port: this.temporalPort,
      uiPort: null,
      dbFile: join(this.dir, 'temporal.db'),
      logFile: join(this.dir, 'temporal.log'),
    });
  }

  async stopTemporal(): Promise<void> {
    await this.temporal?.stop();
  }

  async destroy(): Promise<void> {
    await this.stopTemporal();
    await this.stopPostgres();
    // The cluster lives in our folder, or was moved to a folder of its own (see dataLocation).
    if (this.pgDataDir && this.pgDataDir !== resolve(join(this.dir, 'postgres'))) rmSync(dirname(this.pgDataDir), { recursive: true, force: true });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Keys {
  testKey: string;
  liveKey: string;
}

async function newAccount(db: Db): Promise<Keys> {
  const account = await createAccount(db, { name: 'outage test', liveEnabled: true });
  await topUp(db, account.id, 10_000, 'test setup');
  return { testKey: (await createApiKey(db, account.id, 'test', [...SCOPES])).key, liveKey: (await createApiKey(db, account.id, 'live', [...SCOPES])).key };
}

/** The outage answer: 503 service_unavailable with a Retry-After in seconds. */
function expectUnavailable(res: ApiResponse, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(503);
  expect(res.body.error.code, what).to.equal('service_unavailable');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter, `${what}: Retry-After`).to.be.within(1, 30);
}

/** What /health may say: which component is down, never an address, a port or a driver's message. */
function expectNoInternals(res: ApiResponse, ports: number[]): void {
  for (const secret of ['127.0.0.1', 'localhost', 'ECONNREFUSED', 'connect', ...ports.map(String)]) expect(res.text, res.text).to.not.include(secret);
}

describe('outages of Postgres and Temporal', function () {
  this.timeout(300_000);
  const own = new OwnComponents();
  let services: IsolatedServices;
  let db: Db;
  let keys: Keys;
  let api: string;

  const mail = (key: string, mode = 'registered'): Promise<ApiResponse> =>
    call('POST', '/v1/mailings', { baseUrl: api, key, body: { mode, letter: freeLetter, sender, recipient } });
  const get = (key: string, id: string): Promise<ApiResponse> => call('GET', `/v1/mailings/${id}`, { baseUrl: api, key });
  const advance = (id: string): Promise<ApiResponse> => call('POST', `/v1/test/mailings/${id}/advance`, { baseUrl: api, key: keys.testKey, body: {} });

  /** Until the mailing reaches its last step: a live one by the simulated operator, a test one by advances. */
  async function finalState(id: string, key: string): Promise<ApiResponse> {
    return eventually(
      () => get(key, id),
      (r) => r.status === 200 && r.body.step === r.body.lastStep,
      120_000,
      250,
    );
  }

  before(async () => {
    await own.init();
    await Promise.all([own.startPostgres(), own.startTemporal()]);
    db = createDb(own.databaseUrl, { role: 'api', poolMax: 2 });
    await migrateLatest(db);
    keys = await newAccount(db);
    services = await new IsolatedServices({
      DATABASE_URL: own.databaseUrl,
      TEMPORAL_ADDRESS: own.temporalAddress,
      TEMPORAL_TASK_QUEUE: 'outages',
      // Slow enough that a live mailing is in flight during the outage.
      OPERATOR_STEP_DELAY: '1500ms',
      OPERATOR_FAIL_FIRST_FILINGS: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
    }).start();
    services.startWorker();
    api = services.api.url;
  });

  after(async () => {
    await services?.stop();
    await db?.destroy();
    await own.destroy();
  });

  /** A live mailing already filed and a test mailing at its start, both to finish after the outage. */
  async function mailingsInFlight() {
    const live = await mail(keys.liveKey);
    expect(live.status, live.text).to.equal(201);
    const sandbox = await mail(keys.testKey);
    expect(sandbox.status, sandbox.text).to.equal(201);
    await eventually(
      () => get(keys.liveKey, live.body.id),
      (r) => r.body.step >= 1,
      60_000,
      200,
    );
    return { live, sandbox };
  }

  it('Postgres down: 503 with Retry-After, answers again at once when it is back, and mailings in flight complete', async () => {
    const { live, sandbox } = await mailingsInFlight();

    await db.destroy();
    await own.stopPostgres();
    expectUnavailable(await get(keys.liveKey, live.body.id), 'GET /v1/mailings/{id}');
    expectUnavailable(await mail(keys.testKey), 'POST /v1/mailings');
    expectUnavailable(await advance(sandbox.body.id), 'POST /v1/test/mailings/{id}/advance');
    const health = await eventually(
      () => call('GET', '/health', { baseUrl: api }),
      (r) => r.status === 503,
      10_000,
      200,
    );
    expect(health.status).to.equal(503);
    expect(health.body.postgres.ok).to.equal(false);
    expect(health.headers.get('retry-after')).to.match(/^\d+$/);
    expectNoInternals(health, [own.pgPort, own.temporalPort]);
    // Without its database the process cannot serve: out of its Service until it is back.
    const unready = await eventually(
      () => call('GET', '/ready', { baseUrl: api }),
      (r) => r.status === 503,
      10_000,
      200,
    );
    expect(unready.body).to.deep.include({ status: 'unready', postgres: { ok: false, latencyMs: unready.body.postgres.latencyMs } });
    expect(unready.headers.get('retry-after')).to.match(/^\d+$/);
    expectNoInternals(unready, [own.pgPort, own.temporalPort]);
    // The outage lasts long enough for the worker's activities to fail and be retried.
    await sleep(8000);
    expectUnavailable(await get(keys.liveKey, live.body.id), 'GET /v1/mailings/{id}, later');

    await own.startPostgres();
    db = createDb(own.databaseUrl, { role: 'api', poolMax: 2 });
    // Back within a couple of seconds: a fresh connection per request once the old ones are gone.
    const back = await eventually(
      () => get(keys.liveKey, live.body.id),
      (r) => r.status === 200,
      3000,
      100,
    );
    expect(back.status, back.text).to.equal(200);
    // Ready again once the shared result of the outage has expired.
    const readyAgain = await eventually(
      () => call('GET', '/ready', { baseUrl: api }),
      (r) => r.status === 200,
      10_000,
      200,
    );
    expect(readyAgain.body.status).to.equal('ready');

    // Nothing lost: the live mailing reaches its last step with every event once; the test
    // mailing advances to its end.
    const done = await finalState(live.body.id, keys.liveKey);
    expect(done.body.events.map((e: { status: string }) => e.status)).to.deep.equal(['paid', 'printed', 'posted', 'in_transit', 'delivered']);
    for (let step = 0; step < 4; step++) expect((await advance(sandbox.body.id)).status).to.equal(200);
    expect((await get(keys.testKey, sandbox.body.id)).body.status).to.equal('delivered');
  });

  it('Temporal down: 503 with Retry-After for what needs it, reads still served, and back at once when it returns', async () => {
    const { live, sandbox } = await mailingsInFlight();

    await own.stopTemporal();
    expectUnavailable(await mail(keys.testKey), 'POST /v1/mailings');
    expectUnavailable(await advance(sandbox.body.id), 'POST /v1/test/mailings/{id}/advance');
    // Reads come from Postgres.
    expect((await get(keys.liveKey, live.body.id)).status).to.equal(200);
    const health = await eventually(
      () => call('GET', '/health', { baseUrl: api }),
      (r) => r.status === 503,
      10_000,
      200,
    );
    expect([health.body.postgres.ok, health.body.temporal.ok]).to.deep.equal([true, false]);
    expectNoInternals(health, [own.pgPort, own.temporalPort]);
    // The process stays ready (the readiness probe keeps it in its Service): reads are served.
    const ready = await call('GET', '/ready', { baseUrl: api });
    expect(ready.status).to.equal(200);
    expect(ready.body).to.include({ status: 'ready' });
    // Long enough for gRPC's default reconnection backoff (1 s, ×1.6 per attempt, up to 120 s) to
    // leave a gap of tens of seconds between attempts: the server comes back in such a gap.
    await sleep(45_000);
    expectUnavailable(await mail(keys.testKey), 'POST /v1/mailings, later');

    await own.startTemporal();
    const back = await eventually(
      () => mail(keys.testKey),
      (r) => r.status === 201,
      3000,
      100,
    );
    expect(back.status, back.text).to.equal(201);

    const done = await finalState(live.body.id, keys.liveKey);
    expect(done.body.events.map((e: { status: string }) => e.status)).to.deep.equal(['paid', 'printed', 'posted', 'in_transit', 'delivered']);
    for (let step = 0; step < 4; step++) expect((await advance(sandbox.body.id)).status).to.equal(200);
    expect((await get(keys.testKey, sandbox.body.id)).body.status).to.equal('delivered');
  });
});
