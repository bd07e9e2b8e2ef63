import { loadConfig } from '../lib/config.js';
import { createDb, migrateLatest } from '../db/knex.js';
import { lazyTemporal } from '../temporal/connection.js';
import { logger } from '../lib/logger.js';
import { answerMemoryProbe } from '../lib/memory-probe.js';
import { startApiServer } from './server.js';

/** API process for deployments (docker-compose `api`, or several side by side): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  answerMemoryProbe();
  const config = loadConfig();
  if (!config.databaseUrl || !config.temporalAddress) throw new Error('the API process needs DATABASE_URL and TEMPORAL_ADDRESS');
  // Refused at start rather than as a 500 at the first sign-up: the developer space emails links with it.
  if (config.appEnv !== 'local' && !config.dashboard.publicUrl) throw new Error('PUBLIC_URL must be set outside APP_ENV=local (e.g. https://api.example.fr)');
  const db = createDb(config.databaseUrl);
  // knex takes a lock, so several processes starting together migrate once.
  await migrateLatest(db);
  const temporal = lazyTemporal(config.temporalAddress, config.temporalNamespace, config);
  const api = await startApiServer({ config, db, databaseUrl: config.databaseUrl, temporal: temporal.client }, config.port);
  logger.info({ url: api.url }, 'API listening');
  const stop = async (): Promise<void> => {
    await api.close();
    await temporal.connection.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error) => {
  logger.fatal({ err: error }, 'API failed to start');
  process.exit(1);
});
