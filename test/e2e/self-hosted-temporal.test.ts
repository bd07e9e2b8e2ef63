import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Connection, Client } from '@temporalio/client';
import { eventually, spawnApiProcess, type ApiProcess } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { killAbruptly, spawnNode, track } from '../support/processes.js';
import { stack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createDb, migrateLatest, type Db } from '../../db/knex.js';
import { createAccount } from '../../domain/access/accounts.js';
import { createApiKey } from '../../domain/access/keys.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { topUp } from '../../domain/billing/ledger.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { distRoot } from '../../lib/paths.js';
import { retryWhilePortTaken } from '../../scripts/local/ports.js';
import { resolveTemporalCli } from '../../scripts/local/temporal-cli.js';
import {
  resolveTemporalClusterTools,
  setUpClusterSchema,
  startTemporalCluster,
  type ClusterPostgres,
  type TemporalCluster,
} from '../../scripts/local/temporal-cluster.js';
import { ensureSearchAttributes, searchAttributeTypes } from '../../temporal/connection.js';
import { ACCOUNT_ID, DELIVERY_STATUS, MAILING_STATUS, MAILING_TEST, mailingWorkflowId } from '../../workflows/contract.js';

const run = promisify(execFile);
const MAILINGS = 60;

/**
 * The deployment values-self-hosted-temporal.yaml describes, run: Temporal's own server (not the dev
 * server) on PostgreSQL persistence and visibility, its schema set up by its SQL tool, the
 * namespace created as docs/deploy.md says, and our processes as the chart runs them (two APIs,
 * workers split by role, search attributes registered by the mailings worker), on an application
 * database of their own. Mailings go through with a worker killed mid-run; operators find them by
 * our search attributes; the pre-upgrade replay check reads the live namespace.
 */
describe('a self-hosted Temporal server on PostgreSQL', function () {
  this.timeout(900_000);
  const suffix = randomBytes(4).toString('hex');
  const namespace = `svc-postal-selfhosted-${suffix}`;
  const taskQueue = `selfhosted-${suffix}`;
  const dir = mkdtempSync(join(tmpdir(), 'svc-temporal-cluster-'));
  const appDatabase = `svc_selfhosted_${suffix}`;
  let clusterPostgres: ClusterPostgres;
  let cluster: TemporalCluster | undefined;
  let connection: Connection | undefined;
  let client: Client;
  let db: Db | undefined;
  let env: Record<string, string>;
  let apis: ApiProcess[] = [];
  const workers: ChildProcess[] = [];
  let receiver: WebhookReceiver | undefined;

  before(async () => {
    chmodSync(dir, 0o755);
    const url = new URL(stack().local.databaseUrl);
    clusterPostgres = {
      host: url.hostname,
      port: Number(url.port),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      persistenceDatabase: `temporal_${suffix}`,
      visibilityDatabase: `temporal_visibility_${suffix}`,
    };
    // Building the server takes minutes the first time on a machine (then it is cached by version).
    const tools = await resolveTemporalClusterTools((line) => console.log(`      ${line}`));
    setUpClusterSchema(tools, clusterPostgres);
    cluster = await retryWhilePortTaken(() => startTemporalCluster(tools, clusterPostgres, dir));
    // The namespace, as docs/deploy.md creates it on a self-hosted cluster.
    const cli = await resolveTemporalCli(undefined);
    await run(cli, ['operator', 'namespace', 'create', '--address', cluster.address, '--namespace', namespace, '--retention', '720h']);
    connection = await Connection.connect({ address: cluster.address });
    client = new Client({ connection, namespace });

    await stack().db.raw(`CREATE DATABASE ${appDatabase}`);
    const appUrl = new URL(url);
    appUrl.pathname = `/${appDatabase}`;
    db = createDb(appUrl.toString(), { role: 'tool' });
    await migrateLatest(db);
    receiver = await new WebhookReceiver().start();
    env = {
      DATABASE_URL: appUrl.toString(),
      TEMPORAL_ADDRESS: cluster.address,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: '1',
      MIGRATE_ON_START: '0',
      OPERATOR_STEP_DELAY: '100ms',
      OPERATOR_FAIL_FIRST_FILINGS: '0',
      IDEMPOTENCY_LEASE: '15s',
    };
    // As the chart splits them: the mailings worker first (it registers the search attributes and the schedules).
    workers.push(spawnNode('worker', { ...env, WORKER_ROLES: 'mailings,deliveries,tracking,partners' }));
    await eventually(
      async () => Object.keys((await connection!.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {}),
      (names) => Object.keys(searchAttributeTypes()).every((name) => names.includes(name)),
      120_000,
      500,
    );
    workers.push(spawnNode('worker', { ...env, WORKER_ROLES: 'printing' }));
    workers.push(spawnNode('worker', { ...env, WORKER_ROLES: 'mailings,deliveries,printing,tracking' }));
    apis = await Promise.all([spawnApiProcess(env), spawnApiProcess(env)]);
  });

  after(async () => {
    await Promise.all(workers.map(killAbruptly));
    await Promise.all(apis.map((api) => api.stop()));
    await receiver?.stop();
    await connection?.close();
    await cluster?.stop();
    await db?.destroy();
    for (const database of [appDatabase, clusterPostgres?.persistenceDatabase, clusterPostgres?.visibilityDatabase])
      if (database) await stack().db.raw(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('has our search attributes with their types, registered by the mailings worker, and its schedules', async () => {
    const { customAttributes } = await connection!.operatorService.listSearchAttributes({ namespace });
    for (const [name, type] of Object.entries(searchAttributeTypes())) expect(customAttributes?.[name], name).to.equal(type);
    // Listed through visibility, which lags their creation a moment.
    const listSchedules = async (): Promise<string[]> => {
      const ids: string[] = [];
      for await (const schedule of client.schedule.list()) ids.push(schedule.scheduleId);
      return ids.sort();
    };
    expect(await eventually(listSchedules, (ids) => ids.length === 5, 30_000, 500)).to.deep.equal([
      'account-closing',
      'mailing-reconciler',
      'mailing-retention',
      'maintenance-purge',
      'webhook-history-purge',
    ]);
  });

  it('can start a workflow with the search attributes a worker has just registered (the frontends learn them before the worker goes on)', async () => {
    const fresh = `${namespace}-fresh`;
    const cli = await resolveTemporalCli(undefined);
    await run(cli, ['operator', 'namespace', 'create', '--address', cluster!.address, '--namespace', fresh, '--retention', '24h']);
    // A new namespace too is unknown to the frontend until its cache refreshes.
    await eventually(
      () =>
        connection!.workflowService.countWorkflowExecutions({ namespace: fresh, query: '' }).then(
          () => true,
          () => false,
        ),
      Boolean,
      30_000,
      250,
    );
    await ensureSearchAttributes(connection!, fresh);
    const freshClient = new Client({ connection: connection!, namespace: fresh });
    const handle = await freshClient.workflow.start('mailing', {
      taskQueue: `${taskQueue}-nobody`,
      workflowId: `fresh-${suffix}`,
      typedSearchAttributes: [
        { key: ACCOUNT_ID, value: 'a' },
        { key: MAILING_STATUS, value: 'paid' },
        { key: MAILING_TEST, value: true },
        { key: DELIVERY_STATUS, value: 'pending' },
      ],
    });
    await handle.terminate('test');
  });

  it(`takes ${MAILINGS} live mailings through two APIs, a worker killed mid-run; operators find them by account, status and delivery`, async () => {
    const account = await createAccount(db!, { name: 'self-hosted', liveEnabled: true });
    const { key } = await createApiKey(db!, account.id, 'live', [...SCOPES]);
    await topUp(db!, account.id, 1_000_000, 'test setup');
    await createWebhookEndpoint(db!, stack().config, { accountId: account.id, url: receiver!.url, env: 'live', events: ['mailing.posted'] });
    const body = JSON.stringify({ mode: 'simple', letter: freeLetter, sender, recipient });
    const ids: string[] = [];
    for (let i = 0; i < MAILINGS; i++) {
      if (i === MAILINGS / 3) await killAbruptly(workers[2]!);
      const res = await fetch(`${apis[i % 2]!.url}/v1/mailings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `self-hosted-${i}` },
        body,
      });
      const answer = (await res.json()) as { id: string };
      expect(res.status, JSON.stringify(answer)).to.equal(201);
      ids.push(answer.id);
    }
    const posted = await eventually(
      async () => Number((await db!('shipments').where({ account_id: account.id, status: 'posted' }).count({ n: '*' }))[0]!.n),
      (n) => n === MAILINGS,
      300_000,
      1_000,
    );
    expect(posted).to.equal(MAILINGS);
    await receiver!.until(
      (received) => new Set(received.filter((w) => w.body.type === 'mailing.posted').map((w) => w.body.data?.mailing?.id)).size === MAILINGS,
      120_000,
    );

    // What an operator types in the Temporal UI, answered by SQL visibility (it lags the histories a moment).
    const count = (query: string) =>
      eventually(
        async () => (await client.workflow.count(query)).count,
        (n) => n === MAILINGS,
        60_000,
        1_000,
      );
    expect(await count(`WorkflowType = "mailing" AND AccountId = "${account.id}" AND MailingStatus = "posted" AND MailingTest = false`)).to.equal(MAILINGS);
    expect(await count(`WorkflowType = "mailing" AND ExecutionStatus = "Completed" AND AccountId = "${account.id}"`)).to.equal(MAILINGS);
    // Listed page by page, as the UI and the replay check read them: each mailing once.
    const listed: string[] = [];
    for await (const execution of client.workflow.list({ query: `WorkflowType = "mailing" AND AccountId = "${account.id}"`, pageSize: 25 }))
      listed.push(execution.workflowId);
    expect(listed.sort()).to.deep.equal(ids.map((id) => mailingWorkflowId(id)).sort());
  });

  it('advances a test mailing (a workflow update) and cancels another', async () => {
    const account = await createAccount(db!, { name: 'self-hosted sandbox', liveEnabled: false });
    const { key } = await createApiKey(db!, account.id, 'test', [...SCOPES]);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const create = async (): Promise<string> => {
      const res = await fetch(`${apis[0]!.url}/v1/mailings`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ mode: 'ar', letter: freeLetter, sender, recipient }),
      });
      expect(res.status).to.equal(201);
      return ((await res.json()) as { id: string }).id;
    };
    const [advanced, canceled] = await Promise.all([create(), create()]);
    const advance = await fetch(`${apis[1]!.url}/v1/test/mailings/${advanced}/advance`, { method: 'POST', headers: { authorization: headers.authorization } });
    expect(advance.status, await advance.clone().text()).to.equal(200);
    const cancel = await fetch(`${apis[0]!.url}/v1/mailings/${canceled}/cancel`, { method: 'POST', headers: { authorization: headers.authorization } });
    expect(cancel.status, await cancel.clone().text()).to.equal(200);
    expect(((await cancel.json()) as { status: string }).status).to.equal('canceled');
  });

  it('passes the pre-upgrade replay check against the live namespace (the chart hook)', async () => {
    // The hook replays running workflows; here every mailing of the namespace, ended ones too (the histories of the tests above).
    const replay = track(
      execFile(process.execPath, [join(distRoot, 'scripts', 'replay.js'), '--query', 'WorkflowType = "mailing"'], {
        env: { ...process.env, ...env },
      }),
    );
    let output = '';
    replay.stdout!.on('data', (chunk) => (output += chunk));
    const [code] = (await once(replay, 'close')) as [number];
    const report = JSON.parse(output) as { replayed: number; failed: unknown[] };
    expect(code, output).to.equal(0);
    expect(report.failed).to.deep.equal([]);
    expect(report.replayed).to.be.at.least(MAILINGS);
  });
});
