import type { Knex } from 'knex';

/**
 * When a filing attempt may have reached the postal operator. Set in a short transaction right
 * before the operator is called, cleared when the operator certainly refused; a cancellation is
 * accepted only while it is empty (our own record: a real operator has no table of ours to read).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.timestamp('filing_claimed_at', { useTz: true, precision: 3 });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.dropColumn('filing_claimed_at');
  });
}
