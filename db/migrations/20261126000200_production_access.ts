import type { Knex } from 'knex';

/**
 * Requests to open production (issue 15): the company (SIRET checked in the national business
 * directory, legal name, address) and the use case, waiting for an operator. One open request per
 * account; `account live-enable` approves it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('production_access_requests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('siret').notNullable();
    t.text('legal_name').notNullable();
    t.text('address').notNullable();
    t.text('use_case').notNullable();
    // What the directory said of the establishment when the request was made (name, status, address).
    t.jsonb('company').notNullable();
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'approved']);
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true, precision: 3 });
    t.index(['account_id', 'created_at']);
  });
  await knex.raw(`CREATE UNIQUE INDEX production_access_one_pending ON production_access_requests (account_id) WHERE status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('production_access_requests');
}
