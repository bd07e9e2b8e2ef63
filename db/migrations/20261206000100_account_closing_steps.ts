import type { Knex } from 'knex';

/**
 * An account's close is a sequence of short transactions (domain/access/closing.ts, `closeAccount`)
 * rather than one that erased every mailing at once: `close_started_at` records that the first
 * step is done (the balance settled into its `closing_refund` entry, the keys revoked, both
 * recorded on the row) and that the mailings are being erased, one transaction each; `closed_at`
 * still marks the last step. A close interrupted between them is resumed by the next run, and a
 * started close can no longer be canceled. A column without a default: no rewrite of the table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE account_closings ADD COLUMN close_started_at timestamptz(3)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE account_closings DROP COLUMN close_started_at');
}
