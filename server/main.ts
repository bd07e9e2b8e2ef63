import { loadConfig, requireDeployedSettings } from '../lib/config.js';
import { createDb, prepareSchema } from '../db/knex.js';
import { useConfiguredDocumentStore } from '../domain/documents/configured.js';
import { lazyTemporal } from '../temporal/connection.js';
import { logger, setLogRole } from '../lib/logger.js';
import { answerMemoryProbe } from '../lib/memory-probe.js';
import { startApiServer } from './server.js';

/** API process for deployments (docker-compose `api`, the Helm chart, or several side by side): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  answerMemoryProbe();
  const config = loadConfig();
  setLogRole('api');
  const { databaseUrl, temporalAddress } = requireDeployedSettings(config, 'API');
  // Refused at start rather than as a 500 at the first sign-up: the developer space emails links with it.
  if (config.appEnv !== 'local' && !config.dashboard.publicUrl) throw new Error('PUBLIC_URL must be set outside APP_ENV=local (e.g. https://api.example.fr)');
  // In production the developer space's emails (sign-up confirmations, resets) must leave the container.
  if (config.appEnv === 'production' && !config.mail.smtpUrl)
    throw new Error('SMTP_URL must be set when APP_ENV=production (the developer space would write its emails to a local folder)');
  const db = createDb(databaseUrl, { role: 'api', poolMax: config.database.poolMax });
  useConfiguredDocumentStore(config);
  await prepareSchema(databaseUrl, db, config);
  const temporal = lazyTemporal(temporalAddress, config.temporalNamespace, config);
  const api = await startApiServer({ config, db, databaseUrl, temporal: temporal.client }, config.port);
  logger.info({ url: api.url }, 'API listening');
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Requests in flight finish (SHUTDOWN_GRACE); new connections are refused from now on.
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'API stopping');
    await api.close(config.shutdownGraceMs);
    await temporal.connection.close();
    await db.destroy();
    logger.info('API stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  logger.fatal({ err: error }, 'API failed to start');
  process.exit(1);
});
