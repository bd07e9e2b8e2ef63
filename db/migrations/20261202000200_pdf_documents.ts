import type { Knex } from 'knex';

/**
 * A customer's PDF is stored once by its SHA-256, however many mailings print it: a batch of
 * 4,000 rows with one 200 KB PDF keeps 200 KB, not 800 MB. `shipment_pdfs` keeps, per mailing,
 * which document it prints (its SHA-256), its pages and the address placement.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('pdf_documents', (t) => {
    t.string('sha256', 64).primary();
    t.binary('pdf').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('INSERT INTO pdf_documents (sha256, pdf) SELECT DISTINCT ON (sha256) sha256, pdf FROM shipment_pdfs ORDER BY sha256');
  await knex.schema.alterTable('shipment_pdfs', (t) => {
    t.dropColumn('pdf');
    t.foreign('sha256').references('sha256').inTable('pdf_documents');
    t.index('sha256');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipment_pdfs', (t) => {
    t.dropForeign('sha256');
    t.dropIndex('sha256');
    t.binary('pdf');
  });
  await knex.raw('UPDATE shipment_pdfs p SET pdf = d.pdf FROM pdf_documents d WHERE d.sha256 = p.sha256');
  await knex.raw('ALTER TABLE shipment_pdfs ALTER COLUMN pdf SET NOT NULL');
  await knex.schema.dropTable('pdf_documents');
}
