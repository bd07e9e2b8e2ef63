import type { Knex } from 'knex';

/**
 * The customer's own PDF (letter.pdf): stored once, byte for byte, with its SHA-256 and page
 * count, in the transaction that records (and debits) its mailing; filing reads it back. Its own
 * table keeps the shipments rows (read on every GET) small. The bundled simulator keeps the PDF it
 * was handed, as a real operator keeps what it prints: tests compare it with what was sent.
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
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('operator_filings', (t) => {
    t.dropColumn('pdf');
  });
  await knex.schema.dropTable('shipment_pdfs');
}
