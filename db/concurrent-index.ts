import type { Knex } from 'knex';

/**
 * An index on a table that already holds rows, built without locking its writers out: CREATE
 * INDEX CONCURRENTLY (a plain CREATE INDEX holds off every insert and update of the table for the
 * whole build). It cannot run in a transaction, so its migration says `config = { transaction: false }`
 * and does nothing else. A build that failed (a lock or statement timeout, a crash) leaves an
 * invalid index of that name behind: it is dropped and built again, so the migration can simply
 * be run again. test/unit/migrations.test.ts refuses new migrations that index an existing table
 * any other way.
 */
export async function createIndexConcurrently(knex: Knex, name: string, definition: string): Promise<void> {
  const existing = await knex.raw<{ rows: { valid: boolean }[] }>(
    'SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ? AND pg_table_is_visible(c.oid)',
    [name],
  );
  const index = existing.rows[0];
  if (index?.valid) return;
  if (index) await dropIndexConcurrently(knex, name);
  await knex.raw(`CREATE INDEX CONCURRENTLY ?? ON ${definition}`, [name]);
}

export async function dropIndexConcurrently(knex: Knex, name: string): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}
