import type { Knex } from 'knex';

/**
 * Mailing batches (POST /v1/mailing-batches): one row per batch, paid once, and the batch of each
 * of its mailings (`shipments.batch_id`, null for a mailing of its own). GET /v1/mailings?batch=
 * walks its own index in the list's order (built without locking shipments by the next migration,
 * 20261204000100_batch_list_index_concurrently: it was built here, in this transaction, before).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mailing_batches', (t) => {
    t.uuid('id').primary();
    t.uuid('account_id').notNullable().references('accounts.id');
    t.boolean('test').notNullable();
    t.string('mode', 20).notNullable();
    t.integer('row_count').notNullable();
    t.integer('amount_cents').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('finished_at', { useTz: true, precision: 3 }).nullable();
    t.index(['account_id', 'test', 'created_at', 'id'], 'mailing_batches_list');
  });
  await knex.schema.alterTable('shipments', (t) => {
    t.uuid('batch_id').nullable().references('mailing_batches.id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS shipments_list_by_batch');
  await knex.schema.alterTable('shipments', (t) => {
    t.dropColumn('batch_id');
  });
  await knex.schema.dropTable('mailing_batches');
}
