import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { distRoot, projectRoot } from '../lib/paths.js';
import { freePort } from '../lib/net/ports.js';
import { createWebhookEndpoint } from '../domain/webhooks/endpoints.js';
import { WebhookReceiver } from '../test/support/webhook-receiver.js';
import { ScenarioFailed, startProcess, stopProcess } from './support.js';
import { GEOCODING_QUEUE, interactiveQueue, mailingWorkflowId } from '../workflows/contract.js';
import { countActions, type ActionCount } from '../test/support/temporal-actions.js';
import { middle, pairedRatio, roundRatios, summary } from './stats.js';
import { benchIntake, postMailing } from './intake.js';
import { memoryOf } from './memory.js';
import type { Figure, Report } from './report.js';
import type { BenchDeps } from './deps.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { createAccount } from '../domain/access/accounts.js';
import { createApiKey } from '../domain/access/keys.js';
import { SCOPES } from '../domain/access/scopes.js';
import { topUp } from '../domain/billing/ledger.js';
import { bareActivities, type BareStep } from './bare-workflow.js';
import { cpuBetween, cpuSnapshot, type ProcessCpu } from './process-cpu.js';
import { createdTimeline, TIMELINE_STAGES, type CreatedTimeline } from './created-timeline.js';
import { freshNamespace } from './namespaces.js';

/** The API and worker processes of the mailing scenarios: limits raised (their work is measured, not their refusals). */
export function mailingEnv(deps: BenchDeps): Record<string, string> {
  return {
    DATABASE_URL: deps.databaseUrl,
    TEMPORAL_ADDRESS: deps.temporalAddress,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SANDBOX_DAILY_QUOTA: '100000000',
    WEBHOOK_ALLOW_PRIVATE: '1',
    NODE_EXTRA_CA_CERTS: join(projectRoot, 'test', 'fixtures', 'tls', 'cert.pem'),
  };
}

/**
 * Mailings end to end, with a worker: intake against bare starts and the p99 at half load
 * (bench/intake.ts); webhook latency (POST → mailing.created, advance → mailing.printed); the
 * Temporal actions of one AR mailing with its children; live AR throughput; the worker's memory.
 */
export async function benchMailings(deps: BenchDeps, report: Report): Promise<void> {
  const env = mailingEnv(deps);
  await benchIntake(deps, env, report);

  const apiPort = await freePort();
  const api = await startProcess(join(distRoot, 'server', 'main.js'), { ...env, PORT: String(apiPort) }, `http://127.0.0.1:${apiPort}/v1/openapi.json`);
  const receiver = await new WebhookReceiver().start();
  let worker: Awaited<ReturnType<typeof startProcess>> | undefined;
  const part = 'mailings';
  try {
    const url = `http://127.0.0.1:${apiPort}/v1/mailings`;
    const headers = { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' };
    worker = await startProcess(join(distRoot, 'worker', 'main.js'), env, `http://127.0.0.1:${apiPort}/v1/openapi.json`);
    await waitForWorker(deps.client, deps.config.taskQueue);
    const workerIdle = await memoryOf(worker);

    await createWebhookEndpoint(
      deps.db,
      { ...deps.config, webhookAllowPrivate: true },
      { accountId: deps.accountId, url: receiver.url, env: 'test', events: [] /* every event */ },
    );
    const received = (type: string, id: string) => (r: { body: any }[]) => r.some((w) => w.body.type === type && w.body.data.mailing.id === id);
    const post = (): Promise<string> => postMailing(url, headers);
    const advance = async (id: string, step?: number): Promise<void> => {
      const res = await fetch(`${url.replace('/v1/mailings', '/v1/test/mailings')}/${id}/advance`, {
        method: 'POST',
        headers,
        body: JSON.stringify(step ? { step } : {}),
      });
      if (res.status !== 200) throw new Error(`advance answered ${res.status}: ${await res.text()}`);
    };
    // Warm-up: the worker's first workflow tasks, the receiver's connections.
    for (let i = 0; i < 5; i++) {
      const id = await post();
      await receiver.until(received('mailing.created', id));
    }
    const created: number[] = [];
    const printed: number[] = [];
    const marks: { id: string; sent: number; answered: number; received: number }[] = [];
    for (let i = 0; i < WEBHOOK_SAMPLES; i++) {
      const sent = Date.now();
      const id = await post();
      const answered = Date.now();
      const [event] = (await receiver.until(received('mailing.created', id))).filter((w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === id);
      created.push(event!.at - sent);
      marks.push({ id, sent, answered, received: event!.at });
      const advanced = Date.now();
      await advance(id);
      const [print] = (await receiver.until(received('mailing.printed', id))).filter((w) => w.body.type === 'mailing.printed' && w.body.data.mailing.id === id);
      printed.push(print!.at - advanced);
    }
    const c = summary(created);
    const p = summary(printed);
    report.add({
      part,
      name: `webhook POST /v1/mailings → mailing.created received (${WEBHOOK_SAMPLES} mailings): p50`,
      value: c.p50,
      unit: 'ms',
      target: { below: 50 },
    });
    report.add({ part, name: 'webhook POST /v1/mailings → mailing.created received: p99', value: c.p99, unit: 'ms', target: { below: 150 } });
    // Where its time goes, stage by stage (their medians need not add up to the whole's), from the
    // histories read once the samples are taken: no read between a mailing's webhook and its advance.
    const stages: CreatedTimeline[] = [];
    for (const { id, ...mark } of marks)
      stages.push(createdTimeline(mark, (await deps.client.workflow.getHandle(mailingWorkflowId(id)).fetchHistory()).events ?? []));
    for (const [stage, label] of Object.entries(TIMELINE_STAGES) as [keyof CreatedTimeline, string][])
      report.add({ part, name: `POST → mailing.created, p50 of one stage: ${label}`, value: summary(stages.map((t) => t[stage])).p50, unit: 'ms' });
    report.add({ part, name: 'webhook advance → mailing.printed received: p50', value: p.p50, unit: 'ms', target: { below: 100 } });
    report.add({ part, name: 'webhook advance → mailing.printed received: p99', value: p.p99, unit: 'ms', target: { below: 500 } });

    // The whole Temporal bill of one AR mailing taken to its end with that one endpoint: the mailing and its children.
    const ar = await post();
    await advance(ar, 5);
    await deps.client.workflow.getHandle(mailingWorkflowId(ar)).result();
    await receiver.until(received('mailing.ar_signed', ar));
    const actions = await countActions(deps.client, mailingWorkflowId(ar));
    console.log(`actions of an AR test mailing with one endpoint: ${JSON.stringify(actions)}`);
    report.add({
      part,
      name: 'Temporal actions of an AR test mailing to ar_signed, one endpoint, children included',
      value: actions.total,
      unit: 'actions',
      target: { atMost: 30 },
    });

    const workerAfter = await memoryOf(worker);
    report.add({ part, name: 'worker RSS, idle (its browser apart)', value: workerIdle.rssMb, unit: 'MB' });
    report.add({ part, name: 'worker RSS after the mailings part (its browser apart)', value: workerAfter.rssMb, unit: 'MB' });
    report.add({ part, name: "worker's browser RSS after the mailings part", value: workerAfter.childrenRssMb, unit: 'MB' });
  } finally {
    await receiver.stop();
    if (worker) await stopProcess(worker);
    await stopProcess(api);
  }
}

const WEBHOOK_SAMPLES = 50;

/** Waits until a worker polls the queue (its workflow bundle is built): its workflows (type 1) or activities (2). */
async function waitForWorker(client: Client, taskQueue: string, taskQueueType: 1 | 2 = 1): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { pollers } = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name: taskQueue },
      taskQueueType,
    });
    if (pollers?.length) return;
    await sleep(100);
  }
  throw new Error(`no worker polls ${taskQueue}`);
}

/** What one mailing's history holds, once it has ended (children included); its events by kind, printed. */
async function historyParts(client: Client, mailingId: string): Promise<ActionCount> {
  const handle = client.workflow.getHandle(mailingWorkflowId(mailingId));
  await handle.result();
  console.log(`its history's events by kind: ${eventKinds(((await handle.fetchHistory()).events ?? []) as Record<string, unknown>[])}`);
  return countActions(client, mailingWorkflowId(mailingId));
}

/** A history's events counted by kind (activities by name, the workflow tasks apart): where its events come from. */
function eventKinds(events: Record<string, unknown>[]): string {
  const kinds = new Map<string, number>();
  const names = new Map<string, string>();
  for (const e of events) {
    const kind =
      Object.keys(e)
        .find((k) => k.endsWith('EventAttributes') && e[k])
        ?.replace(/EventAttributes$/, '') ?? 'unknown';
    const scheduled = e.activityTaskScheduledEventAttributes as { activityType?: { name?: string } } | undefined;
    if (scheduled) names.set(String(e.eventId), scheduled.activityType?.name ?? '?');
    const of = (e[`${kind}EventAttributes`] as { scheduledEventId?: unknown } | undefined)?.scheduledEventId;
    const activity = scheduled ? names.get(String(e.eventId)) : kind.startsWith('activityTask') && of ? names.get(String(of)) : undefined;
    const key = activity ? `${kind}(${activity})` : kind;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  return [...kinds].map(([k, n]) => `${k} ${n}`).join(', ');
}

function describeParts(p: ActionCount): string {
  return `${p.events} history events, ${p.localActivities} local activities; ${p.total} actions ${JSON.stringify(p.parts)}`;
}

// Enough in flight that the rate is throughput, not the latency of one mailing (its polls and proofs).
const LIVE_MAILINGS = 120;
const LIVE_ROUNDS = 3;
/** Mailings (and bare workflows) of each round's warm-up, not counted. */
const WARM_MAILINGS = 40;

/**
 * The live rounds, a part of their own on a fresh stack (`npm run bench -- live`): within the
 * mailings part, after the intake's thousands of workflows, the dev server spent about half as
 * much again on each workflow task and activity (the bare workflow of the same shape: 41–46 ms of
 * its CPU against 31 on a fresh server, 2026-12-08), the drift that a fresh namespace per round
 * did not remove (the server's store is one for all namespaces).
 */
export async function benchLiveMailings(deps: BenchDeps, report: Report): Promise<void> {
  for (const figure of await liveThroughput(deps, mailingEnv(deps))) report.add({ part: 'live', ...figure });
}

/**
 * Live AR mailings taken to ar_signed by the worker with the operator's step delay at 0, per
 * second, against a bare workflow running as many activities, in the same run and concurrency.
 */
async function liveThroughput(deps: BenchDeps, env: Record<string, string>): Promise<Omit<Figure, 'part'>[]> {
  const account = await createAccount(deps.db, { name: 'bench live', liveEnabled: true });
  await topUp(deps.db, account.id, 10_000_000, 'bench');
  const { key } = await createApiKey(deps.db, account.id, 'live', SCOPES);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  // A mailing is done when its workflow has completed: its status reads ar_signed in PostgreSQL
  // before its last steps (the proofs, the last upsert), which a window closed at that status left
  // to the next measure (the bare round's, run right after). The status first: the API answers
  // before the workflow has started, and a workflow not started yet has no result to wait for.
  const allCompleted = async (client: Client, ids: string[]): Promise<void> => {
    for (;;) {
      const signed = await deps.db('shipments').whereIn('id', ids).andWhere({ status: 'ar_signed' }).count({ n: '*' });
      if (Number(signed[0]!.n) === ids.length) break;
      await sleep(50);
    }
    await Promise.all(ids.map((id) => client.workflow.getHandle(mailingWorkflowId(id)).result()));
  };
  // What the live rounds leave in PostgreSQL (tables, indexes, TOAST: the proofs), for docs/deploy.md's sizing.
  const databaseBytes = async (): Promise<number> =>
    Number(((await deps.db.raw('SELECT pg_database_size(current_database()) AS n')) as { rows: { n: string }[] }).rows[0]!.n);
  let parts: ActionCount | undefined;
  let grown = 0;
  const lives: number[] = [];
  const bares: number[] = [];
  // The bare workflow's code, bundled once for the workers of every round.
  const bareBundle = await bundleWorkflowCode({ workflowsPath: join(distRoot, 'bench', 'bare-workflow.js'), logger: new DefaultLogger('WARN') });
  // Where the CPU goes on each side, per process: where the gap between the two lies.
  const liveCpu = new CpuTally();
  const bareCpu = new CpuTally();

  /**
   * One round: a fresh namespace (bench/namespaces.ts), an API and a worker on it, warmed; then
   * LIVE_MAILINGS live AR mailings at once and as many bare workflows, one after the other.
   */
  const round = async (label: string, measured: boolean): Promise<void> => {
    const { namespace, client } = await freshNamespace(deps, `live-${label}`);
    const inNamespace: BenchDeps = { ...deps, client, config: { ...deps.config, temporalNamespace: namespace } };
    const port = await freePort();
    const liveEnv = {
      ...env,
      PORT: String(port),
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: `bench-live-${randomUUID()}`,
      OPERATOR_STEP_DELAY: '0',
      OPERATOR_POLL_INTERVAL: '100ms',
    };
    const api = await startProcess(join(distRoot, 'server', 'main.js'), liveEnv, `http://127.0.0.1:${port}/v1/openapi.json`);
    const worker = await startProcess(join(distRoot, 'worker', 'main.js'), liveEnv, `http://127.0.0.1:${port}/v1/openapi.json`);
    try {
      // The address check of the first POST runs on the worker (a workflow on the interactive queue,
      // its call on the geocoder's): a worker still starting makes it time out.
      await waitForWorker(client, liveEnv.TEMPORAL_TASK_QUEUE);
      await waitForWorker(client, interactiveQueue(liveEnv.TEMPORAL_TASK_QUEUE));
      await waitForWorker(client, GEOCODING_QUEUE, 2);
      const post = (): Promise<string> => postMailing(`http://127.0.0.1:${port}/v1/mailings`, headers);
      // Warm-up: bundling, the browser's pages, the caches; and the parts of one mailing for the
      // baseline, one made once warm: the very first may start its workflow before its record (the
      // API's connection to Temporal not ready yet) and take the longer path of such mailings.
      await allCompleted(client, [await post()]);
      const warm = await Promise.all(Array.from({ length: 8 }, post));
      await allCompleted(client, warm);
      const bare = await bareWorkflows(inNamespace, mailingWorkflowId(warm.at(-1)!), bareBundle);
      try {
        if (!parts) {
          parts = await historyParts(client, warm.at(-1)!);
          // The baseline asks Temporal for what the mailing asks, or the ratio compares different work.
          const bareParts = await countActions(client, bare.lastWorkflowId());
          console.log(`bare workflow of the same steps: ${describeParts(bareParts)}`);
          if (JSON.stringify(bareParts.parts) !== JSON.stringify(parts.parts) || parts.children > 0) {
            throw new ScenarioFailed(
              `the bare workflow's actions ${JSON.stringify(bareParts.parts)} differ from the live mailing's ${JSON.stringify(parts.parts)}`,
            );
          }
        }
        // Both sides warm (the JIT, the SDK's caches, the workflows' isolates) before they are
        // measured: the bare side sped up round after round without it (11 -> 14 -> 18 /s in one run).
        await allCompleted(client, await Promise.all(Array.from({ length: WARM_MAILINGS }, post)));
        await bare.round(WARM_MAILINGS);
        if (!measured) return;
        const snapshot = () => cpuSnapshot(process.pid, cpuGroups(api.pid!, worker.pid!));
        const bytesBefore = await databaseBytes();
        const started = performance.now();
        const liveBefore = snapshot();
        await allCompleted(client, await Promise.all(Array.from({ length: LIVE_MAILINGS }, post)));
        lives.push(LIVE_MAILINGS / ((performance.now() - started) / 1000));
        liveCpu.add(cpuBetween(liveBefore, snapshot()), LIVE_MAILINGS);
        grown += (await databaseBytes()) - bytesBefore;
        const bareBefore = snapshot();
        bares.push(await bare.round(LIVE_MAILINGS));
        bareCpu.add(cpuBetween(bareBefore, snapshot()), LIVE_MAILINGS);
        console.log(`live round ${label}: ${lives.at(-1)!.toFixed(1)} live AR mailings/s, ${bares.at(-1)!.toFixed(1)} bare workflows/s`);
      } finally {
        await bare.close();
      }
    } finally {
      await stopProcess(worker);
      await stopProcess(api);
    }
  };

  // A first round not counted (the dev server's and the machine's warm-up), then LIVE_ROUNDS.
  await round('warm', false);
  for (let r = 1; r <= LIVE_ROUNDS; r++) await round(String(r), true);
  const bytesPerMailing = Math.round(grown / (LIVE_ROUNDS * LIVE_MAILINGS));
  const proofs = (await deps
    .db('shipment_proofs as p')
    .join('shipments as s', 's.id', 'p.shipment_id')
    .where('s.account_id', account.id)
    .select(deps.db.raw('count(DISTINCT p.shipment_id) AS mailings, sum(coalesce(octet_length(p.pdf), p.object_size)) AS bytes'))) as {
    mailings: string;
    bytes: string;
  }[];
  const proofBytesPerMailing = Number(proofs[0]!.bytes) / Number(proofs[0]!.mailings);
  const live = middle(lives);
  const bareRate = middle(bares);
  const steps = parts!;
  console.log(`live AR mailing to ar_signed (operator step delay 0, no endpoint): ${describeParts(steps)}`);
  return [
    {
      name: `live AR mailings completed (${LIVE_MAILINGS} at once, simulator, no endpoint; median of ${LIVE_ROUNDS} rounds, each in a fresh namespace)`,
      value: live,
      unit: '/s',
    },
    {
      name: `bare workflows asking Temporal for the same ${steps.total} actions (${steps.parts.activities} activities, ${steps.localActivities} local activities, ${steps.parts.upserts} upserts, the same search attributes)`,
      value: bareRate,
      unit: '/s',
    },
    {
      name: 'live AR mailings completed ÷ bare workflows',
      value: pairedRatio(lives, bares),
      unit: 'ratio',
      rounds: roundRatios(lives, bares),
      target: { atLeast: 0.6 },
    },
    // Issue 57, part 3: half the 212 ms of 2026-11-25.
    ...liveCpu.figures('live AR mailing', ['temporal', 'worker', 'browser', 'postgres', 'api'], { atMost: 110 }),
    ...bareCpu.figures('bare workflow', ['temporal']),
    { name: 'PostgreSQL growth per live AR mailing (tables, indexes, proofs)', value: Math.round(bytesPerMailing / 1024), unit: 'KiB' },
    { name: 'of which its proofs (PDF bytes)', value: Math.round(proofBytesPerMailing / 1024), unit: 'KiB' },
  ];
}

/** The processes of the live rounds, by what they are (the bench's own process: its client, and the bare workflows' worker). */
const CPU_GROUPS = {
  temporal: "Temporal's dev server",
  worker: 'the worker (its browser apart)',
  browser: "the worker's browser (Chromium)",
  postgres: 'PostgreSQL',
  api: 'the API',
  bench: "the bench's process",
} as const;
type CpuGroup = keyof typeof CPU_GROUPS;

function cpuGroups(apiPid: number, workerPid: number): (p: ProcessCpu, ancestors: ProcessCpu[]) => CpuGroup | undefined {
  return (p, ancestors) => {
    if (p.pid === process.pid) return 'bench';
    if (p.pid === apiPid) return 'api';
    if (p.pid === workerPid) return 'worker';
    if (ancestors.some((a) => a.pid === workerPid)) return 'browser';
    if (p.comm === 'postgres') return 'postgres';
    if (p.comm === 'temporal') return 'temporal';
    return undefined;
  };
}

/** CPU summed over rounds, per group, and the items (mailings, workflows) it was spent on. */
class CpuTally {
  private readonly ms = new Map<string, number>();
  private items = 0;

  add(used: Map<string, number>, items: number): void {
    for (const [group, ms] of used) this.ms.set(group, (this.ms.get(group) ?? 0) + ms);
    this.items += items;
  }

  /** The CPU per item of every process of the run together, then of the groups named. */
  figures(item: string, groups: CpuGroup[], target?: Figure['target']): Omit<Figure, 'part'>[] {
    if (this.items === 0 || this.ms.size === 0) return [];
    const per = (ms: number): number => Math.round((10 * ms) / this.items) / 10;
    const total = [...this.ms.values()].reduce((a, b) => a + b, 0);
    return [
      { name: `CPU per ${item}, every process of the run (bench/process-cpu.ts)`, value: per(total), unit: 'ms', ...(target ? { target } : {}) },
      ...groups.map((group) => ({ name: `CPU per ${item}: ${CPU_GROUPS[group]}`, value: per(this.ms.get(group) ?? 0), unit: 'ms' })),
    ];
  }
}

/** What a workflow asked of Temporal, in order: its local activities, activities and upserts (its children apart). */
async function historySteps(client: Client, workflowId: string): Promise<BareStep[]> {
  const steps: BareStep[] = [];
  for (const e of (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? []) {
    if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') steps.push('local');
    if (e.activityTaskScheduledEventAttributes) steps.push('activity');
    if (e.upsertWorkflowSearchAttributesEventAttributes) steps.push('upsert');
  }
  return steps;
}

/**
 * The baseline: rounds of LIVE_MAILINGS bare workflows at once, on a worker of this process, each
 * replaying the steps of the live mailing `liveWorkflowId` and started with its search attributes and summary.
 */
async function bareWorkflows(
  deps: BenchDeps,
  liveWorkflowId: string,
  workflowBundle: WorkflowBundle,
): Promise<{ round(count: number): Promise<number>; lastWorkflowId(): string; close(): Promise<void> }> {
  // Its status reads final in PostgreSQL before its workflow's last steps (the proof, the upsert): the history once it has ended.
  await deps.client.workflow.getHandle(liveWorkflowId).result();
  const steps = await historySteps(deps.client, liveWorkflowId);
  const mailing = await deps.client.workflow.getHandle(liveWorkflowId).describe();
  const staticSummary = await mailing.staticSummary();
  const taskQueue = `bench-bare-activities-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: deps.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporalNamespace,
    taskQueue,
    workflowBundle,
    activities: { noop: async () => undefined },
  });
  const running = worker.run();
  let lastWorkflowId = '';
  const run = () => {
    lastWorkflowId = `bench-bare-${randomUUID()}`;
    return deps.client.workflow.execute(bareActivities, {
      taskQueue,
      workflowId: lastWorkflowId,
      args: [steps],
      staticSummary,
      typedSearchAttributes: mailing.typedSearchAttributes,
    });
  };
  await Promise.all(Array.from({ length: 8 }, run));
  return {
    async round(count: number) {
      const started = performance.now();
      await Promise.all(Array.from({ length: count }, run));
      return count / ((performance.now() - started) / 1000);
    },
    lastWorkflowId: () => lastWorkflowId,
    async close() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
