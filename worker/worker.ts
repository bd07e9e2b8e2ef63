import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { fileURLToPath } from 'node:url';
import { WORKER_ROLES, type Config, type WorkerRole } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import { createActivities } from '../activities/index.js';
import { temporalWorkflows } from '../temporal/domain-deps.js';
import { BrowserPool } from '../activities/pdf/browser.js';
import {
  COMPANIES_QUEUE,
  deliveriesQueue,
  FUEL_QUEUE,
  GEOCODING_QUEUE,
  interactiveQueue,
  LLM_QUEUE,
  printingQueue,
  ROUTING_QUEUE,
  trackingQueue,
} from '../workflows/contract.js';
import { temporalConnectionOptions } from '../temporal/connection.js';
import { applyRetention, closeAccounts, purgeExpiredData, purgeWebhookDeliveries, reconcileMailings } from '../workflows/index.js';
import { logger } from '../lib/logger.js';
import { startWorkerMetrics } from './metrics.js';
import { SdkLogger } from './sdk-logger.js';

const workflowsPath = fileURLToPath(new URL('../workflows/index.js', import.meta.url));

export interface WorkerDeps {
  config: Config;
  db: Db;
  address: string;
}

let runtimeInstalled = false;

/** The SDK's logs as our JSON lines, and shutdown driven by our own signal handlers rather than the SDK's. */
function installRuntime(config: Config, sdkMetricsAddress: string | undefined): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  // The same level for the SDK's native (Rust) logs, forwarded to the same logger.
  const level = config.temporalLogLevel;
  const logging = { filter: { core: level, other: level }, forward: {} };
  // The SDK's metrics, read through the worker's METRICS_PORT (worker/metrics.ts); durations in seconds, as Prometheus has them.
  const metrics = sdkMetricsAddress && { prometheus: { bindAddress: sdkMetricsAddress, useSecondsForDurations: true, countersTotalSuffix: true } };
  Runtime.install({ logger: new SdkLogger(level), shutdownSignals: [], telemetryOptions: { logging, ...(metrics && { metrics }) } });
}

export interface RunnableWorker {
  /** The roles of this process (WORKER_ROLES) and the task queues it polls. */
  roles: WorkerRole[];
  taskQueues: string[];
  /** The PDF browser pool; disabled (never starts a browser) without the `printing` role. */
  browsers: BrowserPool;
  /** Runs until shutdown, then closes what the activities opened. */
  run(): Promise<void>;
  /**
   * Stops polling and lets the running tasks finish: activities get SHUTDOWN_GRACE, then are
   * told to stop, and run() rejects (GracefulShutdownPeriodExpiredError) a little later if some still run.
   */
  shutdown(): void;
}

/** Short interactive runs kept in memory by one process (each lasts seconds). */
const INTERACTIVE_CACHED_WORKFLOWS = 100;

/** After the grace period, what an activity told to stop has to report it before the worker gives up on it. */
const CANCEL_REPORT_MS = 2_000;

/** A task queue a role polls, and the settings of its worker. */
interface RoleQueue {
  taskQueue: string;
  /** Its worker runs the workflows too (the others run activities only). */
  workflows?: true;
  settings(config: Config): Pick<WorkerOptions, 'maxConcurrentActivityTaskExecutions' | 'maxCachedWorkflows' | 'maxTaskQueueActivitiesPerSecond'>;
}

const activitySlots = (config: Config): Pick<WorkerOptions, 'maxConcurrentActivityTaskExecutions'> => ({
  maxConcurrentActivityTaskExecutions: config.workerActivitySlots,
});

/** One activity-only worker per partner: the task queue's rate is enforced by the server, so all workers together never exceed what the partner allows. */
const partnerQueue = (taskQueue: string, perSecond: (config: Config) => number): RoleQueue => ({
  taskQueue,
  settings: (config) => ({ maxTaskQueueActivitiesPerSecond: perSecond(config) }),
});

/**
 * The task queues each role polls (docs/operators.md, "Worker roles"), one worker each; `main` is
 * TEMPORAL_TASK_QUEUE. `mailings` and `partners` run workflows; the others run activities only.
 */
function roleTaskQueues(main: string): Record<WorkerRole, RoleQueue[]> {
  return {
    // Mailings, their deliveries' retries, top-ups and the schedules' runs, with the projection writes.
    mailings: [
      {
        taskQueue: main,
        workflows: true,
        settings: (config) => ({ ...activitySlots(config), maxCachedWorkflows: config.workerCachedWorkflows }),
      },
    ],
    // Each event's first webhook attempts, all endpoints at once.
    deliveries: [{ taskQueue: deliveriesQueue(main), settings: activitySlots }],
    // A letter's printing and filing, proofs and letter PDFs: the processes with the browser.
    printing: [{ taskQueue: printingQueue(main), settings: activitySlots }],
    // The operator's tracking polls: each one short, none held while a letter is in transit.
    tracking: [{ taskQueue: trackingQueue(main), settings: () => ({}) }],
    partners: [
      // Short interactive runs (lookups, PDFs, AI): apart, so that neither kind waits for the other.
      // Its runs last seconds: a small cache holds every one in flight.
      { taskQueue: interactiveQueue(main), workflows: true, settings: () => ({ maxCachedWorkflows: INTERACTIVE_CACHED_WORKFLOWS }) },
      partnerQueue(GEOCODING_QUEUE, (config) => config.partners.geocodingPerSecond),
      partnerQueue(COMPANIES_QUEUE, (config) => config.partners.companiesPerSecond),
      partnerQueue(ROUTING_QUEUE, (config) => config.partners.routingPerSecond),
      partnerQueue(FUEL_QUEUE, (config) => config.partners.fuelPerSecond),
      partnerQueue(LLM_QUEUE, (config) => config.llm.perSecond),
    ],
  };
}

/** The task queues each role polls, by name (roleTaskQueues). */
export function roleQueues(main: string): Record<WorkerRole, string[]> {
  const queues = roleTaskQueues(main);
  return Object.fromEntries(WORKER_ROLES.map((role) => [role, queues[role].map((queue) => queue.taskQueue)])) as Record<WorkerRole, string[]>;
}

/** The one worker bootstrap: workflows bundled from workflows/, activities from activities/; the roles choose the task queues. */
export async function createWorker({ config, db, address }: WorkerDeps): Promise<RunnableWorker> {
  const roles = config.workerRoles;
  const metrics = config.metricsPort === undefined ? undefined : await startWorkerMetrics(config, db, roles);
  installRuntime(config, metrics?.sdkBindAddress);
  const has = (role: WorkerRole): boolean => roles.includes(role);
  const options = temporalConnectionOptions(address, config.temporalNamespace, config);
  const connection = await NativeConnection.connect(options);
  // The reconciler starts workflows again: a client of its own, connected on first use.
  const clientConnection = Connection.lazy({ ...options, connectTimeout: '5s' });
  const temporal = new Client({ connection: clientConnection, namespace: config.temporalNamespace });
  const browsers = new BrowserPool({
    pages: config.pdf.pages,
    executablePath: config.pdf.executablePath,
    ...(!has('printing') && { disabled: `WORKER_ROLES=${roles.join(',')} has no printing role` }),
  });
  const activities = createActivities({ db, config, browsers, workflows: temporalWorkflows(temporal, config), counters: metrics?.counters });
  const namespace = config.temporalNamespace;
  // Shutdown: running activities get the grace period, then are told to stop; the worker gives up on them soon after.
  const drain = { shutdownGraceTime: config.shutdownGraceMs, shutdownForceTime: config.shutdownGraceMs + CANCEL_REPORT_MS };
  const base = { connection, namespace, activities, ...drain };
  const polled = roles.flatMap((role) => roleTaskQueues(config.taskQueue)[role]);
  // Bundled once for the workers that run workflows.
  const workflowBundle = polled.some((queue) => queue.workflows) ? await bundleWorkflowCode({ workflowsPath, logger: new SdkLogger('WARN') }) : undefined;
  const all = await Promise.all(
    polled.map((queue) => Worker.create({ ...base, taskQueue: queue.taskQueue, ...(queue.workflows && { workflowBundle }), ...queue.settings(config) })),
  );
  const taskQueues = polled.map((queue) => queue.taskQueue);
  logger.info(
    { roles, taskQueues, browser: browsers.enabled },
    browsers.enabled ? 'worker ready (prints: PDF browser on first use)' : 'worker ready (no printing role: no PDF browser)',
  );
  return {
    roles,
    taskQueues,
    browsers,
    run: () =>
      Promise.all(all.map((w) => w.run()))
        .then(() => undefined)
        .finally(() => Promise.all([browsers.close(), connection.close(), clientConnection.close(), metrics?.endpoint.close()])),
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
    { scheduleId: 'mailing-retention', every: '1h', workflowType: applyRetention },
    // Accounts whose closing's grace period is over (docs/developer-space.md, "Closing the account").
    { scheduleId: 'account-closing', every: '1h', workflowType: closeAccounts },
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
