import type { Knex } from 'knex';

/**
 * Where the reconciler's sweep of unfinished mailings stopped (domain/mailings/reconcile.ts): each
 * run looks at the newest mailings past the grace period, then at the next ones of a sweep that
 * goes on from here, oldest first, and starts again at the oldest once it has passed the newest.
 * So every unfinished mailing is looked at within a bounded number of runs, however many wait
 * with a running workflow. One row per scope: `*` for the Schedule's runs over every account, an
 * account's id for a run limited to it. Written by domain/mailings/reconcile.ts alone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE reconciler_cursors (
      scope text PRIMARY KEY,
      after_created_at timestamptz(3) NOT NULL,
      after_id uuid NOT NULL,
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE reconciler_cursors');
}
