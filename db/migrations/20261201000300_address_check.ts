import type { Knex } from 'knex';

/**
 * Each account's default for `options.addressCheck` on POST /v1/mailings. The check against the
 * national address base refuses addresses that were accepted before it existed: accounts opened
 * before it keep posting them (lenient, with a warning) unless a request asks for strict, so that
 * no request that worked stops working within /v1; accounts opened since are strict by default.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE accounts ADD COLUMN address_check_default text NOT NULL DEFAULT 'lenient'
      CHECK (address_check_default IN ('strict', 'lenient'));
    ALTER TABLE accounts ALTER COLUMN address_check_default SET DEFAULT 'strict';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE accounts DROP COLUMN address_check_default`);
}
