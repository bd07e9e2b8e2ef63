import { loadConfig, requireDeployedSettings } from '../lib/config.js';
import { createDb, prepareSchema } from '../db/knex.js';
import { useConfiguredDocumentStore } from '../domain/documents/configured.js';
import { connectTemporal, prepareSearchAttributes } from '../temporal/connection.js';
import { logger, setLogRole } from '../lib/logger.js';
import { serveLiveness } from '../lib/metrics.js';
import { answerMemoryProbe } from '../lib/memory-probe.js';
import { createWorker, ensureSchedules } from './worker.js';

/** Worker process for deployments (docker-compose `worker`, the Helm chart): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  answerMemoryProbe();
  const config = loadConfig();
  setLogRole('worker', { workerRoles: config.workerRoles.join(',') });
  const { databaseUrl, temporalAddress } = requireDeployedSettings(config, 'worker');
  // First: the liveness probe must answer while the start (migrations, the workflow bundle) runs.
  const liveness = config.healthPort === undefined ? undefined : await serveLiveness(config.healthPort);
  const db = createDb(databaseUrl, { role: 'worker', poolMax: config.database.poolMax });
  useConfiguredDocumentStore(config);
  await prepareSchema(databaseUrl, db, config);
  const temporal = await connectTemporal(temporalAddress, config.temporalNamespace, config);
  const mailings = config.workerRoles.includes('mailings');
  // The workflows that set search attributes, and the schedules, are the mailings role's.
  if (mailings) await prepareSearchAttributes(temporal.connection, config);
  const worker = await createWorker({ config, db, address: temporalAddress });
  if (mailings) await ensureSchedules(temporal.client, config);
  logger.info({ taskQueue: config.taskQueue, roles: worker.roles, taskQueues: worker.taskQueues }, 'worker running');
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'worker draining: no new tasks, running activities finish');
    worker.shutdown();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Resolves once shutdown has drained the tasks in flight; rejects when activities outlived the grace period.
  try {
    await worker.run();
    logger.info('worker stopped');
  } finally {
    await temporal.connection.close();
    await db.destroy();
    await liveness?.close();
  }
}

main().catch((error: unknown) => {
  if ((error as Error).name === 'GracefulShutdownPeriodExpiredError')
    logger.warn('activities still ran when SHUTDOWN_GRACE ended: stopped without them (Temporal retries their attempts after their timeout)');
  else logger.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
