import type { Knex } from 'knex';

/**
 * The bundled electronic registered letter provider's own state (activities/lre/simulator.ts), as
 * operator_filings is the simulated postal operator's: its sender users with their identity check,
 * and the letters it took, once each (the mailing id is the key of every retried send).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('lre_simulator_senders', (t) => {
    t.uuid('account_id').primary();
    t.text('email').notNullable();
    t.timestamp('identity_requested_at', { useTz: true, precision: 3 });
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('lre_simulator_mails', (t) => {
    t.uuid('mailing_id').primary();
    t.uuid('account_id').notNullable();
    t.text('reference').notNullable();
    t.text('sender_name').notNullable();
    t.text('recipient_name').notNullable();
    t.text('recipient_email').notNullable();
    t.text('subject').notNullable();
    t.text('pdf_sha256').notNullable();
    t.timestamp('sent_at', { useTz: true, precision: 3 }).notNullable();
    t.text('outcome');
    t.timestamp('outcome_at', { useTz: true, precision: 3 });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('lre_simulator_mails');
  await knex.schema.dropTableIfExists('lre_simulator_senders');
}
