import type { Knex } from 'knex';

/**
 * The simulated operator keeps what its documents show, as a real operator does: the tracking
 * number and both addresses of each letter it takes (its deposit proof and acknowledgment of
 * receipt are made from them, activities/operator/simulator.ts). Letters it took before have none:
 * their proofs are printed by us, as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('operator_filings', (t) => {
    t.text('tracking_number');
    t.specificType('sender_lines', 'text[]');
    t.specificType('recipient_lines', 'text[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('operator_filings', (t) => {
    t.dropColumn('tracking_number');
    t.dropColumn('sender_lines');
    t.dropColumn('recipient_lines');
  });
}
