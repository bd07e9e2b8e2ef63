import type { Knex } from 'knex';

/**
 * One row per mailing, written either by the API when it records the mailing ('recorded') or by
 * the mailing's workflow when it gives up waiting for that record ('abandoned'). The primary key
 * makes the two mutually exclusive: a record that comes after the workflow gave up fails (nothing
 * is charged), and a workflow never gives up on a mailing that was recorded.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mailing_records', (t) => {
    t.uuid('shipment_id').primary();
    t.text('outcome').notNullable();
    t.timestamp('at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE mailing_records ADD CONSTRAINT mailing_records_outcome CHECK (outcome IN ('recorded', 'abandoned'))`);
  // Mailings recorded before this table existed.
  await knex.raw(`INSERT INTO mailing_records (shipment_id, outcome, at) SELECT id, 'recorded', created_at FROM shipments`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mailing_records');
}
