import type { Knex } from 'knex';

/** Shipments (the projection the API reads), their events and proofs, and webhook events and deliveries. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shipments', (t) => {
    t.uuid('id').primary();
    t.uuid('account_id').notNullable().references('accounts.id');
    t.boolean('test').notNullable();
    t.text('mode').notNullable().checkIn(['simple', 'registered', 'ar']);
    t.text('status').notNullable();
    t.integer('step').notNullable();
    t.integer('last_step').notNullable();
    t.text('title').notNullable();
    t.jsonb('sender').notNullable();
    t.jsonb('recipient').notNullable();
    t.text('recipient_email');
    t.text('reference').notNullable().defaultTo('');
    t.jsonb('options').notNullable();
    t.jsonb('document').notNullable();
    // The letter as laid out for printing (api/letters/render.ts LetterDocument).
    t.jsonb('layout').notNullable();
    t.integer('amount_cents').notNullable();
    t.text('tracking_number').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
    t.index(['account_id', 'test', 'created_at', 'id']);
    t.index(['account_id', 'test', 'reference']);
  });
  await knex.schema.createTable('shipment_events', (t) => {
    t.uuid('shipment_id').notNullable().references('shipments.id').onDelete('CASCADE');
    t.integer('step').notNullable();
    t.text('status').notNullable();
    t.timestamp('at', { useTz: true, precision: 3 }).notNullable();
    t.primary(['shipment_id', 'step']);
  });
  await knex.schema.createTable('shipment_proofs', (t) => {
    t.uuid('shipment_id').notNullable().references('shipments.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['filing', 'delivery', 'return']);
    t.binary('pdf').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.primary(['shipment_id', 'kind']);
  });
  // The simulated postal operator's own records: one filing per shipment, whatever the retries.
  await knex.schema.createTable('operator_filings', (t) => {
    t.uuid('shipment_id').primary();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('pages');
    t.timestamp('filed_at', { useTz: true, precision: 3 });
  });
  await knex.schema.createTable('webhook_events', (t) => {
    t.uuid('id').primary();
    t.uuid('account_id').notNullable().references('accounts.id');
    t.uuid('shipment_id');
    t.text('type').notNullable();
    t.boolean('livemode').notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.index(['created_at']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('event_id').notNullable().references('webhook_events.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id');
    t.uuid('account_id').notNullable().references('accounts.id');
    t.text('status').notNullable().checkIn(['pending', 'delivered', 'abandoned']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_http_status');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true, precision: 3 });
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_events', 'operator_filings', 'shipment_proofs', 'shipment_events', 'shipments']) {
    await knex.schema.dropTableIfExists(table);
  }
}
