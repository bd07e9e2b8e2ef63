import type { Knex } from 'knex';

/**
 * The developer space: its users (one per account for now), the single-use tokens of emailed links,
 * server-side sessions, failed sign-ins (throttling), and when each API key was last used.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    // Written at most once a minute per key and process; approximate by design.
    t.timestamp('last_used_at', { useTz: true });
  });
  // Noting a key's use changes nothing the key cache holds: it must not drop the account's keys.
  await knex.raw(`
    DROP TRIGGER api_keys_auth_changed ON api_keys;
    CREATE TRIGGER api_keys_auth_changed AFTER UPDATE ON api_keys
      FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
      EXECUTE FUNCTION notify_auth_changed('account_id');
    CREATE TRIGGER api_keys_auth_deleted AFTER DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION notify_auth_changed('account_id');
  `);

  await knex.schema.createTable('developer_users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().unique().references('accounts.id');
    // Lower-cased before it is stored: one account per address.
    t.text('email').notNullable().unique();
    // The password hash in a self-describing format (algorithm, parameters and salt inside).
    t.text('password_hash').notNullable();
    t.timestamp('email_confirmed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('developer_tokens', (t) => {
    // SHA-256 of the token sent by email: the token itself is never stored.
    t.binary('token_hash').primary();
    t.uuid('user_id').notNullable().references('developer_users.id').onDelete('CASCADE');
    t.text('purpose').notNullable().checkIn(['confirm_email', 'reset_password']);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['user_id']);
  });

  await knex.schema.createTable('developer_sessions', (t) => {
    // SHA-256 of the cookie's value.
    t.binary('id_hash').primary();
    // Empty before sign-in (a session holds the CSRF token of the sign-in and sign-up forms).
    t.uuid('user_id').references('developer_users.id').onDelete('CASCADE');
    t.text('csrf_token').notNullable();
    // A value shown once on the next page (a new key, sealed with SECRET_KEY).
    t.text('flash');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
    t.index(['user_id']);
  });

  await knex.raw(`
    CREATE UNLOGGED TABLE developer_signin_failures (
      subject text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX developer_signin_failures_subject ON developer_signin_failures (subject, at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['developer_signin_failures', 'developer_sessions', 'developer_tokens', 'developer_users']) await knex.schema.dropTableIfExists(table);
  await knex.raw(`
    DROP TRIGGER IF EXISTS api_keys_auth_deleted ON api_keys;
    DROP TRIGGER IF EXISTS api_keys_auth_changed ON api_keys;
    CREATE TRIGGER api_keys_auth_changed AFTER UPDATE OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION notify_auth_changed('account_id');
  `);
  await knex.schema.alterTable('api_keys', (t) => t.dropColumn('last_used_at'));
}
