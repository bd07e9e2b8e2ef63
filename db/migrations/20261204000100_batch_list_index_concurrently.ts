import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from '../concurrent-index.js';

/**
 * GET /v1/mailings?batch= walks this index in the list's order; it is partial, so single mailings
 * cost it nothing. Built concurrently: shipments keeps taking mailings while it builds. A database
 * that has it already (built by 20261202000100 before that migration stopped doing so) keeps it.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await createIndexConcurrently(knex, 'shipments_list_by_batch', 'shipments (batch_id, created_at, id) WHERE batch_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await dropIndexConcurrently(knex, 'shipments_list_by_batch');
}
