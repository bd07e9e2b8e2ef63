import type { Knex } from 'knex';

/**
 * When each attempt of a delivery was made, in order (the first is attempt 1): the time of the
 * delivery workflow that made it, written by the attempt itself. With `attempts` and
 * `last_http_status`, the whole story of a delivery that was retried or abandoned.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhook_deliveries ADD COLUMN attempted_at timestamptz(3)[] NOT NULL DEFAULT '{}'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('attempted_at');
  });
}
