import type { Knex } from 'knex';

/**
 * Webhook endpoints managed from the developer space:
 * - disabled (`disabled_at`) or deleted (`deleted_at`, soft: the row stays while its delivery
 *   history is kept, its secrets erased); neither receives anything more;
 * - secret rotation: the replaced secret keeps signing until `previous_secret_expires_at`;
 * - a delivery can end `canceled` (its endpoint was disabled or deleted before it succeeded);
 * - a resend is a new delivery of the same event, `resent_from` the delivery it repeats.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_endpoints', (t) => {
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.text('previous_secret_sealed');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('secret_rotated_at', { useTz: true });
  });
  // A deleted endpoint keeps no secret.
  await knex.raw('ALTER TABLE webhook_endpoints ALTER COLUMN secret_sealed DROP NOT NULL');
  await knex.raw(`
    ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_status_check;
    ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
      CHECK (status IN ('pending', 'delivered', 'abandoned', 'canceled'));
  `);
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.uuid('resent_from').references('webhook_deliveries.id').onDelete('SET NULL');
    // The delivery log of one endpoint, most recent first.
    t.index(['endpoint_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropIndex(['endpoint_id', 'created_at']);
    t.dropColumn('resent_from');
  });
  await knex.raw(`
    UPDATE webhook_deliveries SET status = 'abandoned' WHERE status = 'canceled';
    ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_status_check;
    ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'delivered', 'abandoned'));
  `);
  await knex.raw('DELETE FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE deleted_at IS NOT NULL)');
  await knex.raw('DELETE FROM webhook_endpoints WHERE deleted_at IS NOT NULL');
  await knex.raw('ALTER TABLE webhook_endpoints ALTER COLUMN secret_sealed SET NOT NULL');
  await knex.schema.alterTable('webhook_endpoints', (t) => {
    t.dropColumn('disabled_at');
    t.dropColumn('deleted_at');
    t.dropColumn('previous_secret_sealed');
    t.dropColumn('previous_secret_expires_at');
    t.dropColumn('secret_rotated_at');
  });
}
