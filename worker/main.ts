import { loadConfig } from '../lib/config.js';
import { createDb, migrateLatest } from '../db/knex.js';
import { connectTemporal, ensureSearchAttributes } from '../temporal/connection.js';
import { logger } from '../lib/logger.js';
import { answerMemoryProbe } from '../lib/memory-probe.js';
import { createWorker, ensureSchedules } from './worker.js';

/** Worker process for deployments (docker-compose `worker`): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  answerMemoryProbe();
  const config = loadConfig();
  if (!config.databaseUrl || !config.temporalAddress) throw new Error('the worker process needs DATABASE_URL and TEMPORAL_ADDRESS');
  const db = createDb(config.databaseUrl);
  await migrateLatest(db);
  const temporal = await connectTemporal(config.temporalAddress, config.temporalNamespace);
  await ensureSearchAttributes(temporal.connection, config.temporalNamespace);
  const worker = await createWorker({ config, db, address: config.temporalAddress });
  await ensureSchedules(temporal.client, config);
  logger.info({ taskQueue: config.taskQueue }, 'worker running');
  process.once('SIGINT', () => worker.shutdown());
  process.once('SIGTERM', () => worker.shutdown());
  // Resolves once shutdown has drained the tasks in flight.
  await worker.run();
  await temporal.connection.close();
  await db.destroy();
}

main().catch((error) => {
  logger.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
