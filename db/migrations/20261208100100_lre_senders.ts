import type { Knex } from 'knex';

/**
 * Each account's sender identity at the electronic registered letter provider (issue 54): a
 * qualified LRE identifies its sender (CPCE R53-1, eIDAS art. 44), so an account sends none until
 * the provider has verified it. One row per account and provider (LRE_PROVIDER may change: the
 * simulator's verification says nothing of AR24's). Written by domain/developers/sender-identity.ts
 * alone. The person named is who the provider's letter with the OTP key is for; their email is
 * the provider's key of the sender user, so it is kept as first given.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE lre_senders (
      account_id uuid NOT NULL REFERENCES accounts(id),
      provider text NOT NULL CHECK (provider IN ('simulator', 'ar24')),
      provider_user_id text,
      email text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      identity text NOT NULL DEFAULT 'unverified' CHECK (identity IN ('unverified', 'requested', 'verified')),
      requested_at timestamptz(3),
      verified_at timestamptz(3),
      checked_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, provider),
      CHECK (identity <> 'requested' OR requested_at IS NOT NULL),
      CHECK ((identity = 'verified') = (verified_at IS NOT NULL))
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('lre_senders');
}
