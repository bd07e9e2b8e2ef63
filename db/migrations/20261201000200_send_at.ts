import type { Knex } from 'knex';

/**
 * A mailing's send date (`sendAt`, a Europe/Paris calendar day): the letter stays `paid` until
 * that day and is filed at its start (domain/mailings/send-date-check.ts). Null for every mailing sent
 * at once, so every mailing recorded before reads as it did.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.date('send_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shipments', (t) => {
    t.dropColumn('send_at');
  });
}
