import type { Knex } from 'knex';

/**
 * Closing an account (issue 53 item 2). `accounts.closure`: null while the account is open,
 * `closing` from the owner's confirmation on (its keys refused, its webhooks stopped: the change
 * is announced on `auth_changed` like a suspension), `closed` once the grace period is over and its
 * data erased. `account_closings`: each closing asked, its emailed confirmation link (SHA-256 of the
 * token), its grace period, its end and the refund due. A webhook endpoint that the closing
 * disabled is marked so, and enabled again when the closing is canceled. A closed account's
 * remaining credit leaves the ledger as a `closing_refund` entry (negative, the balance to zero).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE accounts ADD COLUMN closure text CHECK (closure IN ('closing', 'closed'));

    CREATE TABLE account_closings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id),
      requested_at timestamptz(3) NOT NULL DEFAULT now(),
      -- Who asked: a developer (their user id) or an operator (the admin CLI).
      requested_by uuid REFERENCES developer_users(id) ON DELETE SET NULL,
      requested_by_label text,
      -- SHA-256 of the emailed confirmation token; null for an operator's closing (confirmed at once).
      token_hash bytea UNIQUE,
      token_expires_at timestamptz(3),
      confirmed_at timestamptz(3),
      -- The end of the grace period: the account is closed at the first run of the closing schedule after it.
      closes_at timestamptz(3),
      canceled_at timestamptz(3),
      closed_at timestamptz(3),
      -- The prepaid credit left at the end, owed back to the customer, and its ledger entry.
      refund_due_cents bigint,
      refund_ledger_entry_id bigint REFERENCES ledger_entries(id),
      -- What the erasure did (counts), for the record.
      erased jsonb
    );
    -- At most one closing in progress per account (asked, or confirmed and in its grace period).
    CREATE UNIQUE INDEX account_closings_one_open ON account_closings (account_id) WHERE canceled_at IS NULL AND closed_at IS NULL;
    CREATE INDEX account_closings_due ON account_closings (closes_at) WHERE confirmed_at IS NOT NULL AND canceled_at IS NULL AND closed_at IS NULL;

    ALTER TABLE webhook_endpoints ADD COLUMN disabled_by_closing boolean NOT NULL DEFAULT false;

    ALTER TABLE ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_kind_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('topup', 'debit', 'refund', 'closing_refund'));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('topup', 'debit', 'refund')) NOT VALID;
    ALTER TABLE webhook_endpoints DROP COLUMN disabled_by_closing;
    DROP TABLE account_closings;
    ALTER TABLE accounts DROP COLUMN closure;
  `);
}
