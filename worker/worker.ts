import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { fileURLToPath } from 'node:url';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import { createActivities } from '../activities/index.js';
import { BrowserPool } from '../activities/pdf/browser.js';
import { COMPANIES_QUEUE, FUEL_QUEUE, GEOCODING_QUEUE, LLM_QUEUE, ROUTING_QUEUE } from '../workflows/contract.js';
import { purgeExpiredData, purgeWebhookDeliveries } from '../workflows/index.js';
import { logger } from '../lib/logger.js';

const workflowsPath = fileURLToPath(new URL('../workflows/index.js', import.meta.url));

export interface WorkerDeps {
  config: Config;
  db: Db;
  address: string;
}

let runtimeInstalled = false;

/** Quiet SDK logs, and shutdown driven by our own signal handlers rather than the SDK's. */
function installRuntime(config: Config): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  // The same level for the SDK's native (Rust) logs, which are printed apart from the logger.
  const level = config.temporalLogLevel;
  Runtime.install({ logger: new DefaultLogger(level), shutdownSignals: [], telemetryOptions: { logging: { filter: { core: level, other: level } } } });
}

export interface RunnableWorker {
  worker: Worker;
  browsers: BrowserPool;
  /** Runs until shutdown, then closes what the activities opened. */
  run(): Promise<void>;
  shutdown(): void;
}

/** The one worker bootstrap: workflows bundled from workflows/, activities from activities/. */
export async function createWorker({ config, db, address }: WorkerDeps): Promise<RunnableWorker> {
  installRuntime(config);
  const connection = await NativeConnection.connect({ address });
  const browsers = new BrowserPool({ pages: config.pdf.pages, executablePath: config.pdf.executablePath });
  const activities = createActivities({ db, config, browsers });
  const worker = await Worker.create({ connection, namespace: config.temporalNamespace, taskQueue: config.taskQueue, workflowsPath, activities });
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
      Worker.create({ connection, namespace: config.temporalNamespace, taskQueue, activities, maxTaskQueueActivitiesPerSecond: perSecond }),
    ),
  );
  const all = [worker, ...partners];
  return {
    worker,
    browsers,
    run: () =>
      Promise.all(all.map((w) => w.run()))
        .then(() => undefined)
        .finally(() => Promise.all([browsers.close(), connection.close()])),
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
