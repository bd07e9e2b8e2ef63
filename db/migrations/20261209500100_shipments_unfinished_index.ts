import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from '../concurrent-index.js';

/**
 * The mailings that are not final, by age: the reconciler's scans (domain/mailings/reconcile.ts,
 * the newest first and its sweep from a cursor) walk it in (created_at, id) order. Partial: a
 * mailing leaves it at its end, so it holds what is under way (sandbox mailings wait up to 30
 * days), not the history. Its predicate is the scan's own (`step < last_step`, a paper mailing's
 * last_step being its mode's last step since its record was written).
 *
 * Built concurrently: shipments keeps taking mailings while it builds.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await createIndexConcurrently(
    knex,
    'shipments_unfinished',
    "shipments (created_at, id) WHERE step < last_step AND status NOT IN ('canceled', 'error', 'returned')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await dropIndexConcurrently(knex, 'shipments_unfinished');
}
