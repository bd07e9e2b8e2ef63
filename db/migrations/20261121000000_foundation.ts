import type { Knex } from 'knex';

/**
 * Accounts, keys, the money ledger, idempotency records, shared rate-limit and quota counters,
 * and webhook endpoints.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');

  await knex.schema.createTable('accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'suspended']);
    t.boolean('live_enabled').notNullable().defaultTo(false);
    // Kept in the same transaction as every ledger row; never negative.
    t.bigInteger('balance_cents').notNullable().defaultTo(0).checkBetween([0, Number.MAX_SAFE_INTEGER]);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id');
    t.text('mode').notNullable().checkIn(['test', 'live']);
    // SHA-256 of the whole key: the key itself is never stored.
    t.binary('key_hash').notNullable().unique();
    t.text('last4').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id']);
  });

  await knex.schema.createTable('ledger_entries', (t) => {
    t.bigIncrements('id');
    t.uuid('account_id').notNullable().references('accounts.id');
    t.text('kind').notNullable().checkIn(['topup', 'debit', 'refund']);
    // Positive credits the balance, negative debits it.
    t.bigInteger('amount_cents').notNullable();
    t.bigInteger('balance_after_cents').notNullable();
    t.text('unit');
    t.text('reference');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id', 'id']);
  });
  // The ledger is append-only: history is corrected by new rows, never rewritten.
  await knex.raw(`
    CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'ledger_entries is append-only'; END $$;
    CREATE TRIGGER ledger_entries_no_rewrite BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
  `);

  // Free monthly quota of data lookups and calculations, per account and month (Europe/Paris).
  await knex.schema.createTable('usage_counters', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id');
    t.text('period').notNullable();
    t.integer('count').notNullable();
    t.primary(['account_id', 'period']);
  });

  // Counters that are cheap to lose in a crash: unlogged, so each request costs no WAL flush.
  await knex.raw(`
    CREATE UNLOGGED TABLE rate_limit_windows (
      key_id uuid NOT NULL,
      window_start bigint NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (key_id, window_start)
    );
    CREATE UNLOGGED TABLE sandbox_usage (
      account_id uuid NOT NULL,
      day date NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (account_id, day)
    );
  `);

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id');
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable().checkIn(['running', 'done']);
    t.integer('response_status');
    t.text('response_type');
    t.binary('response_body');
    t.jsonb('response_headers');
    // A running claim whose process died is taken over after this time.
    t.timestamp('locked_until', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['account_id', 'key']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id');
    t.text('url').notNullable();
    t.text('env').notNullable().checkIn(['test', 'live']);
    // Empty means every event type.
    t.specificType('events', 'text[]').notNullable().defaultTo('{}');
    t.text('secret_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'webhook_endpoints',
    'idempotency_keys',
    'sandbox_usage',
    'rate_limit_windows',
    'usage_counters',
    'ledger_entries',
    'api_keys',
    'accounts',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw('DROP FUNCTION IF EXISTS ledger_entries_append_only');
}
