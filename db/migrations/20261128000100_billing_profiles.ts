import type { Knex } from 'knex';

/**
 * Issue 25, item 8: the billing profile of an account, which every Stripe invoice carries (the
 * buyer's legal name, postal address, SIRET, VAT number and billing email). `version` grows with
 * each change; `stripe_synced_version` is the last one written to the Stripe Customer
 * `stripe_customer_id`, so a top-up pushes a change Stripe has not seen yet before paying.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE billing_profiles (
      account_id uuid PRIMARY KEY REFERENCES accounts(id),
      legal_name text NOT NULL,
      address_line1 text NOT NULL,
      address_line2 text,
      postal_code text NOT NULL,
      city text NOT NULL,
      country text NOT NULL DEFAULT 'FR' CHECK (country = 'FR'),
      siret text CHECK (siret ~ '^[0-9]{14}$'),
      vat_number text CHECK (vat_number ~ '^FR[0-9]{11}$'),
      email text NOT NULL,
      version integer NOT NULL DEFAULT 1,
      stripe_customer_id text,
      stripe_synced_version integer,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS billing_profiles;');
}
