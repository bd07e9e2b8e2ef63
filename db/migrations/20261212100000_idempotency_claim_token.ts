import type { Knex } from 'knex';

/**
 * Whose claim a running key is: each claim of an Idempotency-Key writes a token of its own, and
 * every later write of that request (its charge, its answer, its release) names it. A request that
 * lost its claim (its lease ran out and a retry took the key over) can then no longer store an
 * answer or release the taker's claim: its transaction fails, and the request's effects happen
 * once. Null for the keys recorded before, which no running request holds any more.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.uuid('claim_token');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('claim_token');
  });
}
