import type { Knex } from 'knex';

/**
 * Production opened at once when the directory confirms the company (active, legal name as given),
 * by an operator otherwise; a request made while the directory could not be reached is kept
 * without its check (company null) and checked again later by a workflow. `decided_by` says who
 * opened it; a request the later check refuses (unknown or closed company, another name) ends
 * `refused` with its reason, and a new one may be made.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE production_access_requests DROP CONSTRAINT IF EXISTS production_access_requests_status_check');
  await knex.schema.alterTable('production_access_requests', (t) => {
    t.jsonb('company').nullable().alter();
    t.text('decided_by').checkIn(['operator', 'automatic']);
    t.text('refusal');
  });
  await knex.raw(
    "ALTER TABLE production_access_requests ADD CONSTRAINT production_access_requests_status_check CHECK (status IN ('pending', 'approved', 'refused'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('production_access_requests').where({ status: 'refused' }).delete();
  await knex('production_access_requests').whereNull('company').delete();
  await knex.raw('ALTER TABLE production_access_requests DROP CONSTRAINT IF EXISTS production_access_requests_status_check');
  await knex.schema.alterTable('production_access_requests', (t) => {
    t.dropColumns('decided_by', 'refusal');
    t.jsonb('company').notNullable().alter();
  });
  await knex.raw("ALTER TABLE production_access_requests ADD CONSTRAINT production_access_requests_status_check CHECK (status IN ('pending', 'approved'))");
}
