import type { Knex } from 'knex';

/** Letters, calculators and AI tools that organisations ask us to add to the catalogue (free). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('service_requests', (t) => {
    t.uuid('id').primary();
    t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('title').notNullable();
    t.text('description').notNullable();
    t.text('example');
    t.text('use_case');
    t.text('contact_email');
    t.text('status').notNullable().defaultTo('received');
    t.text('status_note');
    // Milliseconds, like the cursor that points into this list.
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id', 'created_at', 'id']);
    t.index(['status', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('service_requests');
}
