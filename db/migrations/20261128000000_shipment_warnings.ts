import type { Knex } from 'knex';

/**
 * What was done with a mailing's request instead of refusing it (a field of an earlier catalogue
 * read under its new name, a value replaced by the validated sender or recipient): shown with the
 * mailing as `warnings`. Empty for every mailing recorded before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.jsonb('warnings').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.dropColumn('warnings');
  });
}
