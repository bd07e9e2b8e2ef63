import type { Knex } from 'knex';

/**
 * The charge of a paid request done outside the database (a partner, a PDF, the LLM), recorded
 * with its idempotency claim in the debit's transaction and cleared when its answer is stored.
 * A claim taken over after its lease (the process died between the debit and the answer) still
 * holds it: the new request refunds it before it runs, so a retry never pays twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE idempotency_keys ADD COLUMN charge jsonb`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE idempotency_keys DROP COLUMN charge`);
}
