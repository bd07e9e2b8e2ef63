import type { Knex } from 'knex';

/**
 * Idempotency keys belong to an account and a mode (test or live), as Stripe's do: the same key
 * sent with a test key and then a live key is two requests, never a replay of the other.
 * Records written before (at most 24 hours old) keep answering in both modes until they expire,
 * so that a retry across the deploy is still recognised.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE idempotency_keys ADD COLUMN mode text`);
  await knex.raw(`UPDATE idempotency_keys SET mode = 'live'`);
  await knex.raw(`
    INSERT INTO idempotency_keys (account_id, mode, key, request_hash, state, response_status, response_type, response_body, response_headers, locked_until, created_at)
    SELECT account_id, 'test', key, request_hash, state, response_status, response_type, response_body, response_headers, locked_until, created_at FROM idempotency_keys`);
  await knex.raw(`ALTER TABLE idempotency_keys ALTER COLUMN mode SET NOT NULL, ADD CONSTRAINT idempotency_keys_mode CHECK (mode IN ('test', 'live'))`);
  await knex.raw(`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ADD PRIMARY KEY (account_id, mode, key)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM idempotency_keys WHERE mode = 'test'`);
  await knex.raw(`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ADD PRIMARY KEY (account_id, key)`);
  await knex.raw(`ALTER TABLE idempotency_keys DROP COLUMN mode`);
}
