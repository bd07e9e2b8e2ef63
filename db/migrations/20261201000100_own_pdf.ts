import type { Knex } from 'knex';

/**
 * The customer's own PDF (letter.pdf): stored once, byte for byte, with its SHA-256 and page
 * count, in the transaction that records (and debits) its mailing; filing reads it back. Its own
 * table keeps the shipments rows (read on every GET) small. The bundled simulator keeps the PDF it
 * was handed, as a real operator keeps what it prints: tests compare it with what was sent. An
 * own-PDF mailing has no layout (it is not laid out again): the column takes null.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shipment_pdfs', (t) => {
    t.uuid('shipment_id').primary().references('id').inTable('shipments').onDelete('CASCADE');
    t.binary('pdf').notNullable();
    t.string('sha256', 64).notNullable();
    t.integer('pages').notNullable();
    t.string('address_placement', 20).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('operator_filings', (t) => {
    t.binary('pdf');
  });
  await knex.raw('ALTER TABLE shipments ALTER COLUMN layout DROP NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE shipments SET layout = '{}'::jsonb WHERE layout IS NULL`);
  await knex.raw('ALTER TABLE shipments ALTER COLUMN layout SET NOT NULL');
  await knex.schema.alterTable('operator_filings', (t) => {
    t.dropColumn('pdf');
  });
  await knex.schema.dropTable('shipment_pdfs');
}
