import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from '../concurrent-index.js';

/**
 * The mailings not yet erased, by account and age: the hourly `mailing-retention` scan
 * (`mailingsPastRetention`, domain/mailings/erase.ts) walks it account by account only as far as
 * the account's term, and an account's closing pages through its mailings on it. Partial: an
 * erased mailing leaves it, so it shrinks as the history ages past its terms.
 *
 * Measured 2026-12-01 on 3a540140 (local PostgreSQL of scripts/local/postgres.ts, warm cache):
 * 100,000 mailings of 200 accounts over 6 years, 83,181 not erased (those past the default five
 * years erased by earlier runs), two events each, nothing left to erase (the usual hourly run).
 * Before: a sequential scan of shipments and the last-event subquery for each of the 83,142 final
 * mailings kept, 420,829 buffers, 540-590 ms per run. After (this index, and the query walking it
 * per account): 1,425 buffers, 3-4 ms. With 20 accounts shortened to 30 days (8,170 mailings to
 * erase, the first 500 asked): 754 ms before, 115 ms after. The index alone does not change the
 * old query's plan: it is the per-account walk bounded by `created_at` that uses it.
 *
 * Built concurrently: shipments keeps taking mailings while it builds.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await createIndexConcurrently(knex, 'shipments_unerased_by_account', 'shipments (account_id, created_at, id) WHERE erased_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await dropIndexConcurrently(knex, 'shipments_unerased_by_account');
}
