import type { Knex } from 'knex';

/**
 * Each filter of GET /v1/mailings walks an index in the list's own order (created_at, id, newest
 * first) and stops after one page, whatever the account holds: a rare status or reference no longer
 * scans the account's whole history (a status matched by 1 in 1,000 mailings read about 20,000 index
 * entries for a page of 20). The reference index gains the order columns (no sort of every match).
 * Two indexes in all on the intake path: the unfiltered list keeps its (account_id, test,
 * created_at, id) index. test/e2e/mailing-list-plans.test.ts checks each filter's plan at 100,000 mailings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.dropIndex(['account_id', 'test', 'reference']);
    t.index(['account_id', 'test', 'reference', 'created_at', 'id'], 'shipments_list_by_reference');
    t.index(['account_id', 'test', 'status', 'created_at', 'id'], 'shipments_list_by_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.dropIndex([], 'shipments_list_by_status');
    t.dropIndex([], 'shipments_list_by_reference');
    t.index(['account_id', 'test', 'reference']);
  });
}
