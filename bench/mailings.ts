import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/knex.js';
import { distRoot, projectRoot } from '../lib/paths.js';
import { freePort } from '../scripts/local/ports.js';
import { createWebhookEndpoint } from '../domain/webhooks/endpoints.js';
import type { Config } from '../lib/config.js';
import { WebhookReceiver } from '../test/support/webhook-receiver.js';
import { load, startProcess, steadyLoad, stopProcess, table } from './support.js';
import type { MailingWorkflowInput } from '../domain/mailings/workflow-input.js';
import { mailingWorkflowId } from '../workflows/contract.js';
import { healthCheck } from '../workflows/index.js';
import { temporalWorkflows } from '../temporal/workflow-runner.js';
import { summary } from './stats.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createAccount } from '../domain/access/accounts.js';
import { createApiKey } from '../domain/access/keys.js';
import { SCOPES } from '../domain/access/scopes.js';
import { topUp } from '../domain/billing/ledger.js';
import { bareActivities } from './bare-workflow.js';
import { freeLetter, recipient, sender } from '../test/support/fixtures.js';

const body = JSON.stringify({ mode: 'ar', letter: freeLetter, sender, recipient });

/** What a bare loop starts: the mailing workflow exactly as the API starts it, or a trivial one. */
type BareStart = 'mailing' | 'trivial';

/**
 * Bare workflow starts against the same server, with the same concurrency as the HTTP load. Each
 * run gets a task queue of its own: no worker polls these queues, and a queue's growing backlog
 * slows the server's starts down (measured: -25 % over 30 s on one queue, flat on fresh ones).
 */
async function bareStarts(client: Client, config: Config, kind: BareStart, seconds: number, concurrency: number): Promise<number> {
  const taskQueue = `bench-bare-${randomUUID()}`;
  // The same start as the API's (id, input, search attributes), on a queue no worker polls.
  const workflows = temporalWorkflows(client, { ...config, taskQueue });
  const { webhookRetryDelaysMs } = config;
  const deadline = Date.now() + seconds * 1000;
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        if (kind === 'trivial') {
          await client.workflow.start(healthCheck, { taskQueue, workflowId: `bench-${randomUUID()}`, args: [] });
        } else {
          const input: MailingWorkflowInput = { shipmentId: randomUUID(), accountId: randomUUID(), mode: 'ar', test: true, webhookRetryDelaysMs };
          await workflows.startMailing(input, '');
        }
        started += 1;
      }
    }),
  );
  return Math.round(started / seconds);
}

export interface MailingBenchDeps {
  config: Config;
  db: Db;
  client: Client;
  databaseUrl: string;
  temporalAddress: string;
  testKey: string;
  accountId: string;
}

/**
 * Mailing intake (POST /v1/mailings, test key) against bare workflow starts; p99 at half load;
 * webhook latency from advance to receipt; Temporal history of one AR mailing.
 */
export async function benchMailings(deps: MailingBenchDeps): Promise<string[]> {
  const lines: string[] = [];
  const apiPort = await freePort();
  const intakePort = await freePort();
  const env = {
    DATABASE_URL: deps.databaseUrl,
    TEMPORAL_ADDRESS: deps.temporalAddress,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SANDBOX_DAILY_QUOTA: '100000000',
    WEBHOOK_ALLOW_PRIVATE: '1',
    NODE_EXTRA_CA_CERTS: join(projectRoot, 'test', 'fixtures', 'tls', 'cert.pem'),
  };
  // Intake goes to a fresh queue no worker polls (both sides of the ratio only start workflows);
  // the latency and history measures use the service's queue and a worker.
  const intakeApi = await startProcess(
    join(distRoot, 'api', 'main.js'),
    { ...env, PORT: String(intakePort), TEMPORAL_TASK_QUEUE: `bench-intake-${randomUUID()}` },
    `http://127.0.0.1:${intakePort}/v1/openapi.json`,
  );
  const api = await startProcess(join(distRoot, 'api', 'main.js'), { ...env, PORT: String(apiPort) }, `http://127.0.0.1:${apiPort}/v1/openapi.json`);
  const receiver = await new WebhookReceiver().start();
  let worker: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    const url = `http://127.0.0.1:${apiPort}/v1/mailings`;
    const intakeUrl = `http://127.0.0.1:${intakePort}/v1/mailings`;
    const headers = { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' };
    // The baseline starts the mailing workflow exactly as the API does (same input, same search
    // attributes), so the ratio is what the API adds. The intake is bracketed by two baseline runs
    // and compared with their mean (A-B-A), which cancels what drift remains.
    const bareBefore = await bareStarts(deps.client, deps.config, 'mailing', 8, 20);
    const intake = await load('POST /v1/mailings (test key)', { url: intakeUrl, method: 'POST', headers, body, connections: 20, durationSeconds: 8 });
    const bareAfter = await bareStarts(deps.client, deps.config, 'mailing', 8, 20);
    const trivial = await bareStarts(deps.client, deps.config, 'trivial', 8, 20);
    const bare = Math.round((bareBefore + bareAfter) / 2);
    lines.push(`bare workflow.start of the mailing workflow (20 concurrent): ${bareBefore} starts/s before, ${bareAfter} after, mean ${bare}`);
    lines.push(`(for reference, bare starts of a trivial workflow without input or search attributes: ${trivial} starts/s)`);
    lines.push(table([intake]));
    lines.push(`ratio intake / bare start: ${(intake.requestsPerSecond / bare).toFixed(2)} (target ≥ 0.80)`);
    // Half load as clients send it: an open-loop fixed rate, evenly spaced (as wrk2) and at random
    // (Poisson, independent clients), latency from each request's due time (bench/support.ts).
    const halfRate = Math.max(1, Math.round(intake.requestsPerSecond / 2));
    for (const arrivals of ['uniform', 'poisson'] as const) {
      const half = await steadyLoad('POST /v1/mailings at half load', {
        url: intakeUrl,
        method: 'POST',
        headers,
        body,
        durationSeconds: 15,
        rate: halfRate,
        arrivals,
      });
      lines.push(
        `at half load (${halfRate} req/s, ${arrivals === 'uniform' ? 'evenly spaced' : 'Poisson arrivals'}): p50 ${half.p50Ms} ms, p99 ${half.p99Ms} ms (target p99 < 50 ms), non-2xx ${half.non2xx}, errors ${half.errors}`,
      );
    }

    worker = await startProcess(join(distRoot, 'worker', 'main.js'), env, `http://127.0.0.1:${apiPort}/v1/openapi.json`);
    await new Promise((resolve) => setTimeout(resolve, 8000)); // bundling workflows

    // Webhook latency: one endpoint; time from the advance request to the receipt of mailing.printed.
    await createWebhookEndpoint(
      deps.db,
      { ...deps.config, webhookAllowPrivate: true },
      {
        accountId: deps.accountId,
        url: receiver.url,
        env: 'test',
        events: [
          'mailing.printed',
          'mailing.created',
          'mailing.posted',
          'mailing.in_transit',
          'mailing.delivered',
          'mailing.ar_signed',
          'mailing.proof_available',
        ],
      },
    );
    const samples: number[] = [];
    for (let i = 0; i < 30; i++) {
      const created = (await (await fetch(url, { method: 'POST', headers, body })).json()) as { id: string };
      await receiver.until((r) => r.some((w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === created.id));
      const started = performance.now();
      await fetch(`http://127.0.0.1:${apiPort}/v1/test/mailings/${created.id}/advance`, { method: 'POST', headers, body: '{}' });
      await receiver.until((r) => r.some((w) => w.body.type === 'mailing.printed' && w.body.data.mailing.id === created.id));
      samples.push(performance.now() - started);
    }
    const s = summary(samples);
    lines.push(`webhook latency advance → receipt (30 mailings): p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms (targets 100 / 500 ms)`);

    // History of one AR mailing taken to its end, with that one endpoint.
    const ar = (await (await fetch(url, { method: 'POST', headers, body })).json()) as { id: string };
    await fetch(`http://127.0.0.1:${apiPort}/v1/test/mailings/${ar.id}/advance`, { method: 'POST', headers, body: JSON.stringify({ step: 5 }) });
    const parts = await historyParts(deps.client, ar.id);
    lines.push(`AR test mailing to ar_signed (advance { step: 5 }) with one endpoint: ${describeParts(parts)}`);

    lines.push(...(await liveThroughput(deps, env)));
  } finally {
    await receiver.stop();
    if (worker) await stopProcess(worker);
    await stopProcess(api);
    await stopProcess(intakeApi);
  }
  return lines;
}

interface HistoryParts {
  events: number;
  activities: number;
  localActivities: number;
  childDeliveries: number;
  updates: number;
  upserts: number;
  timers: number;
  actions: number;
}

/** What one mailing's history holds, once it has ended; actions as Temporal Cloud bills them, roughly. */
async function historyParts(client: Client, shipmentId: string): Promise<HistoryParts> {
  const handle = client.workflow.getHandle(mailingWorkflowId(shipmentId));
  await handle.result();
  const events = ((await handle.fetchHistory()).events ?? []) as Record<string, { markerName?: string } | undefined>[];
  // Each event carries exactly one "<kind>EventAttributes" field naming its type.
  const count = (attributes: string): number => events.filter((e) => e[attributes]).length;
  const parts = {
    activities: count('activityTaskScheduledEventAttributes'),
    // Patch markers are not local activities.
    localActivities: events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
    childDeliveries: count('startChildWorkflowExecutionInitiatedEventAttributes'),
    updates: count('workflowExecutionUpdateAcceptedEventAttributes'),
    upserts: count('upsertWorkflowSearchAttributesEventAttributes'),
    timers: count('timerStartedEventAttributes'),
  };
  return { events: events.length, ...parts, actions: 1 + Object.values(parts).reduce((a, b) => a + b, 0) };
}

function describeParts(p: HistoryParts): string {
  return `${p.events} history events; ${p.actions} actions (1 start, ${p.activities} activities, ${p.localActivities} local activities, ${p.childDeliveries} child deliveries, ${p.updates} updates, ${p.upserts} search-attribute upserts, ${p.timers} timers)`;
}

const LIVE_MAILINGS = 40;

/**
 * Live AR mailings taken to ar_signed by the worker with the operator's step delay at 0, per
 * second, against a bare workflow running as many activities, in the same run and concurrency.
 */
async function liveThroughput(deps: MailingBenchDeps, env: Record<string, string>): Promise<string[]> {
  const account = await createAccount(deps.db, { name: 'bench live', liveEnabled: true });
  await topUp(deps.db, account.id, 10_000_000, 'bench');
  const { key } = await createApiKey(deps.db, account.id, 'live', SCOPES);
  const taskQueue = `bench-live-${randomUUID()}`;
  const port = await freePort();
  const liveEnv = { ...env, PORT: String(port), TEMPORAL_TASK_QUEUE: taskQueue, OPERATOR_STEP_DELAY: '0', OPERATOR_POLL_INTERVAL: '100ms' };
  const api = await startProcess(join(distRoot, 'api', 'main.js'), liveEnv, `http://127.0.0.1:${port}/v1/openapi.json`);
  const worker = await startProcess(join(distRoot, 'worker', 'main.js'), liveEnv, `http://127.0.0.1:${port}/v1/openapi.json`);
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = async (): Promise<string> =>
      ((await (await fetch(`http://127.0.0.1:${port}/v1/mailings`, { method: 'POST', headers, body })).json()) as { id: string }).id;
    // Warm-up: bundling, the browser's first pages; and the parts of one mailing for the baseline.
    const first = await post();
    const parts = await historyParts(deps.client, first);
    const started = performance.now();
    const ids = await Promise.all(Array.from({ length: LIVE_MAILINGS }, post));
    for (;;) {
      const done = await deps.db('shipments').whereIn('id', ids).andWhere({ status: 'ar_signed' }).count({ n: '*' });
      if (Number(done[0]!.n) === LIVE_MAILINGS) break;
      await sleep(50);
    }
    const live = LIVE_MAILINGS / ((performance.now() - started) / 1000);
    const bare = await bareWorkflows(deps, parts);
    return [
      `live AR mailing to ar_signed (operator step delay 0, no endpoint): ${describeParts(parts)}`,
      `live AR mailings completed (${LIVE_MAILINGS} at once): ${live.toFixed(1)}/s; bare workflows with the same ${parts.activities} activities and ${parts.localActivities} local activities: ${bare.toFixed(1)}/s; ratio ${(live / bare).toFixed(2)}`,
    ];
  } finally {
    await stopProcess(worker);
    await stopProcess(api);
  }
}

/** The baseline: LIVE_MAILINGS bare workflows at once, on a worker of this process. */
async function bareWorkflows(deps: MailingBenchDeps, parts: HistoryParts): Promise<number> {
  const taskQueue = `bench-bare-activities-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: deps.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporalNamespace,
    taskQueue,
    workflowsPath: join(distRoot, 'bench', 'bare-workflow.js'),
    activities: { noop: async () => undefined },
  });
  const running = worker.run();
  try {
    const run = () =>
      deps.client.workflow.execute(bareActivities, { taskQueue, workflowId: `bench-bare-${randomUUID()}`, args: [parts.activities, parts.localActivities] });
    await run();
    const started = performance.now();
    await Promise.all(Array.from({ length: LIVE_MAILINGS }, run));
    return LIVE_MAILINGS / ((performance.now() - started) / 1000);
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
}
