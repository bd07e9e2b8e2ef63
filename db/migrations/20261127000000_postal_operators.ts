import type { Knex } from 'knex';

/**
 * Which postal operator took a live letter, and what it calls it: the operator's sending and
 * recipient ids, written before the letter is submitted (a retried filing finds its sending
 * instead of creating another), and the postage the operator charges us, beside what we charged.
 * Empty for test mailings and for letters the bundled simulator took before this column existed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.text('operator');
    t.text('operator_sending_id');
    t.text('operator_recipient_id');
    t.integer('operator_postage_cents');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.dropColumns('operator', 'operator_sending_id', 'operator_recipient_id', 'operator_postage_cents');
  });
}
