import type { Knex } from 'knex';

/** Partner answers that may be reused for a while, shared by every API process. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partner_cache', (t) => {
    t.text('key').primary();
    t.jsonb('value').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('partner_cache');
}
