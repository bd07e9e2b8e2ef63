import type { Knex } from 'knex';

/**
 * Budgets of the developer space (sign-in attempts, emails, password hashes) as one counter per
 * subject and window, reserved atomically before the work (domain/developers/throttle.ts); it
 * replaces the failure rows, which were counted before a check and written after it (a race).
 * UNLOGGED like them: a crash forgets recent attempts, never an account's data.
 *
 * The outbox of the developer space's emails (domain/developers/outbox.ts): written by the request,
 * sent by the API process after the answer, retried until sent; the message is sealed (it carries
 * a link's token) and the row deleted once sent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE developer_signin_failures;
    CREATE UNLOGGED TABLE developer_throttle (
      subject text PRIMARY KEY,
      window_ends_at timestamptz NOT NULL,
      used integer NOT NULL
    );
    CREATE INDEX developer_throttle_window_ends_at ON developer_throttle (window_ends_at);
    CREATE TABLE developer_outbox (
      id bigserial PRIMARY KEY,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text
    );
    CREATE INDEX developer_outbox_next_attempt_at ON developer_outbox (next_attempt_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE developer_outbox;
    DROP TABLE developer_throttle;
    CREATE UNLOGGED TABLE developer_signin_failures (
      subject text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX developer_signin_failures_subject ON developer_signin_failures (subject, at);
  `);
}
