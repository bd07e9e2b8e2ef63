import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { eventually } from '../support/api.js';
import { track } from '../support/processes.js';
import { createDb, migrateLatest, type Db } from '../../db/knex.js';
import { freePort } from '../../lib/net/ports.js';
import { distRoot } from '../../lib/paths.js';
import { startLocalPostgres, type LocalPostgres } from '../../scripts/local/postgres.js';

/**
 * `node dist/scripts/migrate.js` on a database in use: a migration that must wait for a lock
 * waits MIGRATION_LOCK_TIMEOUT at most, then fails and is rolled back, to be run again. Without
 * that, an ALTER TABLE queued behind one long transaction holds every later reader of the table
 * behind it, and the API stalls for as long as that transaction lasts. On a database of its own:
 * the test undoes the last migrations to have something to apply.
 */
/** The simulated operator's document columns (an ALTER TABLE), and the batch list's index, built concurrently. */
const SIMULATOR_DOCUMENTS = '20261203000100_simulator_documents.js';
const BATCH_INDEX = '20261204000100_batch_list_index_concurrently.js';

/** Every migration from `first` on, in the order they run. */
const migrationsFrom = (first: string): string[] =>
  readdirSync(join(distRoot, 'db', 'migrations'))
    .filter((file) => file.endsWith('.js') && file >= first)
    .sort();

/** Undoes the latest migrations, newest first, down to `first` included (whatever later ones were added). */
async function undoFrom(db: Db, first: string): Promise<void> {
  for (let undone = 0; undone < migrationsFrom(first).length; undone += 1) await db.migrate.down();
}

describe('migrations give way to traffic (MIGRATION_LOCK_TIMEOUT)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'svc-migration-locks-'));
  let postgres: LocalPostgres;

  before(async () => {
    chmodSync(dir, 0o755);
    postgres = await startLocalPostgres(join(dir, 'postgres'), await freePort(), false);
    const db = createDb(postgres.url, { role: 'tool' });
    try {
      await migrateLatest(db);
      await undoFrom(db, SIMULATOR_DOCUMENTS);
    } finally {
      await db.destroy();
    }
  });

  after(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The migration runner as a deployment runs it, in the background: its exit code and output. */
  function migrate(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    const child = track(spawn(process.execPath, [join(distRoot, 'scripts', 'migrate.js')], { env: { ...process.env, DATABASE_URL: postgres.url, ...env } }));
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
  }

  async function connect(config: pg.ClientConfig = {}): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: postgres.url, ...config });
    await client.connect();
    return client;
  }

  /** Whether the migration runner is waiting for a lock it was not granted. */
  async function migrationWaiting(admin: pg.Client): Promise<boolean> {
    const { rows } = await admin.query(
      "SELECT 1 FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE NOT l.granted AND a.application_name = 'svc-postal-migrate'",
    );
    return rows.length > 0;
  }

  async function batchIndex(admin: pg.Client): Promise<{ valid: boolean } | undefined> {
    const { rows } = await admin.query<{ valid: boolean }>(
      "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'shipments_list_by_batch'",
    );
    return rows[0];
  }

  it('an ALTER TABLE behind a long transaction gives up, and the readers queued behind it are answered', async () => {
    const [admin, longReader] = await Promise.all([connect(), connect()]);
    try {
      await longReader.query('BEGIN');
      await longReader.query('SELECT count(*) FROM operator_filings');
      const run = migrate({ MIGRATION_LOCK_TIMEOUT: '3s' });
      expect(await eventually(() => migrationWaiting(admin), Boolean, 20_000, 50)).to.equal(true);
      // Arrives behind the waiting ALTER TABLE: without the timeout it would wait for the long
      // transaction, which ends only after this answer; its own 30 s limit would fail the test.
      const reader = await connect({ statement_timeout: 30_000 });
      try {
        const { rows } = await reader.query<{ count: string }>('SELECT count(*) FROM operator_filings');
        expect(rows[0]!.count).to.equal('0');
      } finally {
        await reader.end();
      }
      const { code, output } = await run;
      expect(code, output).to.not.equal(0);
      expect(output).to.match(/lock timeout/);
      const { rows } = await admin.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'operator_filings' AND column_name = 'tracking_number'");
      expect(rows, 'rolled back').to.have.length(0);
    } finally {
      await longReader.query('ROLLBACK').catch(() => undefined);
      await Promise.all([admin.end(), longReader.end()]);
    }
    const again = await migrate({ MIGRATION_LOCK_TIMEOUT: '3s' });
    expect(again.code, again.output).to.equal(0);
    expect((JSON.parse(again.output) as { applied: string[] }).applied).to.deep.equal(migrationsFrom(SIMULATOR_DOCUMENTS));
  });

  it('an index built concurrently waits for writers within the timeout; the next run replaces what a failed build left', async () => {
    const db = createDb(postgres.url, { role: 'tool' });
    await undoFrom(db, BATCH_INDEX).finally(() => db.destroy());
    const [admin, writer] = await Promise.all([connect(), connect()]);
    try {
      expect(await batchIndex(admin)).to.equal(undefined);
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE shipments IN ROW EXCLUSIVE MODE'); // what an INSERT holds until its commit
      const { code, output } = await migrate({ MIGRATION_LOCK_TIMEOUT: '2s' });
      expect(code, output).to.not.equal(0);
      expect(output).to.match(/lock timeout/);
      // CREATE INDEX CONCURRENTLY commits its catalogue entry before it waits: an invalid index stays.
      expect(await batchIndex(admin)).to.deep.equal({ valid: false });
    } finally {
      await writer.query('ROLLBACK').catch(() => undefined);
      await writer.end();
    }
    try {
      const again = await migrate({});
      expect(again.code, again.output).to.equal(0);
      expect(await batchIndex(admin)).to.deep.equal({ valid: true });
    } finally {
      await admin.end();
    }
  });
});
