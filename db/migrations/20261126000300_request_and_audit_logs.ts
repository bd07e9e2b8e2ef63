import type { Knex } from 'knex';

/**
 * Issue 15, "Beyond the anchors":
 * - `api_request_log`: one row per API call made with a known key (method, path as logged, status,
 *   duration, request id; never a query string, header or body), written in batches by each API
 *   process and kept 7 days. No primary key (the request id is random and unique anyway; an index
 *   on it would cost every insert). One B-tree, by key and time: the page reads each of the
 *   account's keys newest first and merges them (an account has a few keys), so a second index by
 *   account, which would cost every insert about as much again, is not needed. The purge goes by
 *   time through a BRIN index (rows arrive in time order; it costs next to nothing to keep).
 * - `audit_log`: append-only record of changes to keys, webhooks and access, each written in the
 *   transaction of its change; a trigger refuses UPDATE and DELETE.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE api_request_log (
      request_id uuid NOT NULL,
      account_id uuid NOT NULL,
      key_id uuid NOT NULL,
      mode text NOT NULL,
      method text NOT NULL,
      path text NOT NULL,
      status smallint NOT NULL,
      duration_ms real NOT NULL,
      at timestamptz(3) NOT NULL
    );
    CREATE INDEX api_request_log_key ON api_request_log (key_id, at DESC, request_id DESC);
    CREATE INDEX api_request_log_at ON api_request_log USING brin (at);

    CREATE TABLE audit_log (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      action text NOT NULL,
      target_type text NOT NULL,
      target_id text,
      actor_type text NOT NULL CHECK (actor_type IN ('developer', 'operator', 'system')),
      actor_user_id uuid,
      actor_label text,
      client_address text,
      details jsonb NOT NULL DEFAULT '{}'
    );
    CREATE INDEX audit_log_account ON audit_log (account_id, created_at DESC, id DESC);

    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only';
    END $$;
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS audit_log;
    DROP FUNCTION IF EXISTS audit_log_append_only();
    DROP TABLE IF EXISTS api_request_log;
  `);
}
