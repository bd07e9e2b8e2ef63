import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from '../concurrent-index.js';

/**
 * An event's deliveries, by event: a batch's mailings read their `mailing.created` deliveries as
 * their workflows start (domain/webhooks/events.ts, mailingsCreated), and deleting an event (its
 * mailing's retention) cascades to its deliveries; both would otherwise scan every delivery.
 *
 * Built concurrently: webhook_deliveries keeps taking deliveries while it builds.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await createIndexConcurrently(knex, 'webhook_deliveries_event_id', 'webhook_deliveries (event_id)');
}

export async function down(knex: Knex): Promise<void> {
  await dropIndexConcurrently(knex, 'webhook_deliveries_event_id');
}
