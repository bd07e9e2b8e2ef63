import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel, type LogMetadata } from '@temporalio/worker';
import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { fileURLToPath } from 'node:url';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import { createActivities } from '../activities/index.js';
import { temporalWorkflows } from '../temporal/workflow-runner.js';
import { BrowserPool } from '../activities/pdf/browser.js';
import { COMPANIES_QUEUE, FUEL_QUEUE, GEOCODING_QUEUE, interactiveQueue, LLM_QUEUE, ROUTING_QUEUE, trackingQueue } from '../workflows/contract.js';
import { purgeExpiredData, purgeWebhookDeliveries, reconcileMailings } from '../workflows/index.js';
import { logger } from '../lib/logger.js';
import { accessOptions } from '../temporal/connection.js';

const workflowsPath = fileURLToPath(new URL('../workflows/index.js', import.meta.url));

export interface WorkerDeps {
  config: Config;
  db: Db;
  address: string;
}

let runtimeInstalled = false;

/** The SDK's logger, without the warning every activity-only worker (tracking, partners) gets at start: expected here. */
class QuietLogger extends DefaultLogger {
  override log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (message.startsWith('No workflows registered')) return;
    super.log(level, message, meta);
  }
}

/** Quiet SDK logs, and shutdown driven by our own signal handlers rather than the SDK's. */
function installRuntime(config: Config): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  // The same level for the SDK's native (Rust) logs, which are printed apart from the logger.
  const level = config.temporalLogLevel;
  Runtime.install({ logger: new QuietLogger(level), shutdownSignals: [], telemetryOptions: { logging: { filter: { core: level, other: level } } } });
}

export interface RunnableWorker {
  worker: Worker;
  browsers: BrowserPool;
  /** Runs until shutdown, then closes what the activities opened. */
  run(): Promise<void>;
  shutdown(): void;
}

/** Short interactive runs kept in memory by one process (each lasts seconds). */
const INTERACTIVE_CACHED_WORKFLOWS = 100;

/** The one worker bootstrap: workflows bundled from workflows/, activities from activities/. */
export async function createWorker({ config, db, address }: WorkerDeps): Promise<RunnableWorker> {
  installRuntime(config);
  const access = accessOptions(config.temporalAccess);
  const connection = await NativeConnection.connect({ address, ...access });
  // The reconciler starts workflows again: a client of its own, connected on first use.
  const clientConnection = Connection.lazy({ address, connectTimeout: '5s', ...access });
  const temporal = new Client({ connection: clientConnection, namespace: config.temporalNamespace });
  const browsers = new BrowserPool({ pages: config.pdf.pages, executablePath: config.pdf.executablePath });
  const activities = createActivities({ db, config, browsers, workflows: temporalWorkflows(temporal, config) });
  const namespace = config.temporalNamespace;
  // Bundled once for the two workers that run workflows.
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
  // Mailings, their deliveries and the schedules' runs: filing and proofs take these slots.
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue: config.taskQueue,
    workflowBundle,
    activities,
    maxConcurrentActivityTaskExecutions: config.workerActivitySlots,
    maxCachedWorkflows: config.workerCachedWorkflows,
    shutdownGraceTime: config.shutdownGraceMs,
  });
  // Short interactive runs (lookups, PDFs, AI): apart, so that neither kind waits for the other.
  // Its runs last seconds: a small cache holds every one in flight.
  const interactive = await Worker.create({
    connection,
    namespace,
    taskQueue: interactiveQueue(config.taskQueue),
    workflowBundle,
    activities,
    maxCachedWorkflows: INTERACTIVE_CACHED_WORKFLOWS,
    shutdownGraceTime: config.shutdownGraceMs,
  });
  // The operator's tracking polls: each one short, none held while a letter is in transit.
  const shutdownGraceTime = config.shutdownGraceMs;
  const tracking = await Worker.create({ connection, namespace, taskQueue: trackingQueue(config.taskQueue), activities, shutdownGraceTime });
  // One activity-only worker per partner: the task queue's rate is enforced by the server, so all
  // workers together never exceed what the partner allows.
  const partnerQueues: [string, number][] = [
    [GEOCODING_QUEUE, config.partners.geocodingPerSecond],
    [COMPANIES_QUEUE, config.partners.companiesPerSecond],
    [ROUTING_QUEUE, config.partners.routingPerSecond],
    [FUEL_QUEUE, config.partners.fuelPerSecond],
    [LLM_QUEUE, config.llm.perSecond],
  ];
  const partners = await Promise.all(
    partnerQueues.map(([taskQueue, perSecond]) =>
      Worker.create({ connection, namespace, taskQueue, activities, maxTaskQueueActivitiesPerSecond: perSecond, shutdownGraceTime }),
    ),
  );
  const all = [worker, interactive, tracking, ...partners];
  return {
    worker,
    browsers,
    run: () =>
      Promise.all(all.map((w) => w.run()))
        .then(() => undefined)
        .finally(() => Promise.all([browsers.close(), connection.close(), clientConnection.close()])),
    shutdown: () => {
      for (const w of all) if (w.getState() === 'RUNNING') w.shutdown();
    },
  };
}

/** Schedules that the service relies on; creating them again is a no-op. */
export async function ensureSchedules(client: Client, config: Config): Promise<void> {
  const schedules = [
    { scheduleId: 'maintenance-purge', every: '10m', workflowType: purgeExpiredData },
    { scheduleId: 'webhook-history-purge', every: '1h', workflowType: purgeWebhookDeliveries },
    { scheduleId: 'mailing-reconciler', every: '10m', workflowType: reconcileMailings },
  ];
  for (const { scheduleId, every, workflowType } of schedules) {
    try {
      await client.schedule.create({
        scheduleId,
        spec: { intervals: [{ every }] },
        action: { type: 'startWorkflow', workflowType, taskQueue: config.taskQueue, args: [] },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
      logger.info({ scheduleId }, 'created schedule');
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    }
  }
}
