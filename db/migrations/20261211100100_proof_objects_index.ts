import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from '../concurrent-index.js';

/**
 * The proofs that name an object, by key: whether any row still names an object released by an
 * erasure (domain/documents/deletions.ts). Partial: rows whose bytes are in PostgreSQL are not in it.
 *
 * Built concurrently: shipment_proofs keeps taking proofs while it builds.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await createIndexConcurrently(knex, 'shipment_proofs_object_key', 'shipment_proofs (object_key) WHERE object_key IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await dropIndexConcurrently(knex, 'shipment_proofs_object_key');
}
