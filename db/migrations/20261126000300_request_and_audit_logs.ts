import type { Knex } from 'knex';

/**
 * Issue 15, "Beyond the anchors":
 * - `api_request_log`: the API calls made with a known key (method, path as logged, status,
 *   duration, request id, time; never a query string, header or body), kept 7 days. Each API process
 *   writes its calls in batches; a batch becomes one row per key, its calls one line each in `calls`
 *   ("request id TAB epoch ms TAB method TAB status TAB duration ms TAB path", latin1 bytes as the
 *   request line came), stored uncompressed (compression would cost more CPU than the rest of the
 *   insert). One row, one index entry and one
 *   text value per key and batch: Postgres spends about half a microsecond per call, against about
 *   5 µs for a row per call (docs/performance.md). The page walks a key's batches newest first by
 *   `last_at` and reads the lines itself; the purge deletes whole batches (BRIN on `last_at`: rows
 *   arrive in time order).
 * - `audit_log`: append-only record of changes to keys, webhooks and access, each written in the
 *   transaction of its change; a trigger refuses UPDATE and DELETE.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE api_request_log (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL,
      key_id uuid NOT NULL,
      mode text NOT NULL,
      first_at timestamptz(3) NOT NULL,
      last_at timestamptz(3) NOT NULL,
      call_count integer NOT NULL,
      calls bytea NOT NULL
    );
    ALTER TABLE api_request_log ALTER COLUMN calls SET STORAGE EXTERNAL;
    CREATE INDEX api_request_log_key ON api_request_log (key_id, last_at DESC, id DESC);
    CREATE INDEX api_request_log_last_at ON api_request_log USING brin (last_at);

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
