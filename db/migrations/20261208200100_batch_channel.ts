import type { Knex } from 'knex';

/**
 * A batch's channel (issue 54): every row of a batch goes by the same channel, and an electronic
 * batch has one paper fallback for all its rows. `channel`: paper for every batch that exists (a
 * constant default: no table rewrite); `fallback`: null for paper. The batch's completion reads
 * them: an electronic end is final unless the batch falls back to paper.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE mailing_batches
      ADD COLUMN channel text NOT NULL DEFAULT 'paper' CONSTRAINT mailing_batches_channel_check CHECK (channel IN ('paper', 'electronic')),
      ADD COLUMN fallback text CONSTRAINT mailing_batches_fallback_check CHECK (fallback IN ('none', 'paper')),
      ADD CONSTRAINT mailing_batches_fallback_of_electronic CHECK ((channel = 'electronic') = (fallback IS NOT NULL));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE mailing_batches DROP CONSTRAINT mailing_batches_fallback_of_electronic, DROP COLUMN fallback, DROP COLUMN channel;`);
}
