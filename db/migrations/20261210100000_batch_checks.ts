import type { Knex } from 'knex';

/**
 * The developer space's check of a CSV batch (issue 56), run as a job the page follows: the form as
 * posted (its CSV holds recipients' addresses), how many rows are checked so far, then the report.
 * A job whose process stopped (its lease over) is run again by the next page that reads it. Kept
 * 24 hours (the maintenance-purge Schedule), erased at the account's closing. Written by
 * domain/batches/checks.ts alone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE batch_checks (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id),
      mode text NOT NULL CHECK (mode IN ('test', 'live')),
      form jsonb NOT NULL,
      row_count integer NOT NULL CHECK (row_count > 0),
      checked_count integer NOT NULL DEFAULT 0 CHECK (checked_count >= 0 AND checked_count <= row_count),
      state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'failed')),
      report jsonb,
      failure text,
      lease_until timestamptz(3) NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      CHECK ((state = 'done') = (report IS NOT NULL))
    )
  `);
  await knex.raw('CREATE INDEX batch_checks_created ON batch_checks (created_at)');
  await knex.raw('CREATE INDEX batch_checks_account ON batch_checks (account_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('batch_checks');
}
