import type { Knex } from 'knex';

/**
 * Test keys can be shown again in the developer space (they move no money and post nothing):
 * sealed with the service's SECRET_KEY, like webhook secrets. Live keys are never kept, only their
 * SHA-256. Test keys created before this column stay shown once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('key_sealed');
  });
  await knex.raw("ALTER TABLE api_keys ADD CONSTRAINT api_keys_only_test_sealed CHECK (key_sealed IS NULL OR mode = 'test')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('key_sealed');
  });
}
