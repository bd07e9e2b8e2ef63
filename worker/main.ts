import { loadConfig, requireDeployedSettings } from '../lib/config.js';
import { createDb, prepareSchema } from '../db/knex.js';
import { connectTemporal, ensureSearchAttributes } from '../temporal/connection.js';
import { logger } from '../lib/logger.js';
import { answerMemoryProbe } from '../lib/memory-probe.js';
import { createWorker, ensureSchedules } from './worker.js';

/** Worker process for deployments (docker-compose `worker`, the Helm chart): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  answerMemoryProbe();
  const config = loadConfig();
  const { databaseUrl, temporalAddress } = requireDeployedSettings(config, 'worker');
  const db = createDb(databaseUrl);
  await prepareSchema(db, config.migrateOnStart);
  const temporal = await connectTemporal(temporalAddress, config.temporalNamespace, config.temporalAccess);
  // Temporal Cloud refuses this to a worker: there the operator registers them (docs/deploy.md).
  if (config.temporalAccess.registerSearchAttributes) await ensureSearchAttributes(temporal.connection, config.temporalNamespace);
  const worker = await createWorker({ config, db, address: temporalAddress });
  await ensureSchedules(temporal.client, config);
  logger.info({ taskQueue: config.taskQueue }, 'worker running');
  const stop = (signal: string): void => {
    // Stops polling; activities in flight get SHUTDOWN_GRACE to finish, then are cancelled.
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'worker stopping');
    worker.shutdown();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Resolves once shutdown has drained the tasks in flight.
  await worker.run();
  await temporal.connection.close();
  await db.destroy();
  logger.info('worker stopped');
}

main().catch((error) => {
  logger.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
