import type { Knex } from 'knex';

/**
 * API processes cache keys and accounts; every change to them is announced on the `auth_changed`
 * channel (payload: the account id) so that each process drops its copy at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION notify_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- TG_ARGV[0] names the column that holds the account id.
      PERFORM pg_notify('auth_changed', to_jsonb(OLD) ->> TG_ARGV[0]);
      RETURN NULL;
    END $$;
    CREATE TRIGGER accounts_auth_changed AFTER UPDATE OR DELETE ON accounts
      FOR EACH ROW EXECUTE FUNCTION notify_auth_changed('id');
    CREATE TRIGGER api_keys_auth_changed AFTER UPDATE OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION notify_auth_changed('account_id');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS api_keys_auth_changed ON api_keys;
    DROP TRIGGER IF EXISTS accounts_auth_changed ON accounts;
    DROP FUNCTION IF EXISTS notify_auth_changed();
  `);
}
