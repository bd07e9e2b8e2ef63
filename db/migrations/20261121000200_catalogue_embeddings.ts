import type { Knex } from 'knex';

/** Vectors of the catalogue entries for the semantic search, computed once per model and text. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalogue_embeddings', (t) => {
    t.text('model').notNullable();
    t.text('text_hash').notNullable();
    t.specificType('embedding', 'real[]').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['model', 'text_hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('catalogue_embeddings');
}
