import type { Knex } from 'knex';

/**
 * The electronic channel of registered letters (issue 54). `channel`: paper for every mailing that
 * exists (a constant default: no table rewrite). `electronic`: what the request said of the
 * electronic letter (recipientKind, consent, fallback) and what the run learnt (fallbackUsed,
 * providerReference); null for paper. `fallback_hold_cents`: the paper price held at creation for
 * a paper fallback, and `fallback_hold_settled` once it was refunded or became the charge (once:
 * the row lock of the write that settles it decides). `lre_user_id`, `lre_mail_id`: the provider's
 * ids of the sender user and of the letter (activities/lre/ar24.ts's records), so that status and
 * proofs need no search. The proofs take the provider's four kinds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE shipments
      ADD COLUMN channel text NOT NULL DEFAULT 'paper' CONSTRAINT shipments_channel_check CHECK (channel IN ('paper', 'electronic')),
      ADD COLUMN electronic jsonb,
      ADD COLUMN fallback_hold_cents integer NOT NULL DEFAULT 0,
      ADD COLUMN fallback_hold_settled text CONSTRAINT shipments_fallback_hold_settled_check CHECK (fallback_hold_settled IN ('refunded', 'charged')),
      ADD COLUMN lre_user_id text,
      ADD COLUMN lre_mail_id text;
    ALTER TABLE shipment_proofs DROP CONSTRAINT IF EXISTS shipment_proofs_kind_check;
    ALTER TABLE shipment_proofs ADD CONSTRAINT shipment_proofs_kind_check
      CHECK (kind IN ('filing', 'delivery', 'return', 'deposit', 'acceptance', 'refusal', 'negligence'));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DELETE FROM shipment_proofs WHERE kind IN ('deposit', 'acceptance', 'refusal', 'negligence');
    ALTER TABLE shipment_proofs DROP CONSTRAINT IF EXISTS shipment_proofs_kind_check;
    ALTER TABLE shipment_proofs ADD CONSTRAINT shipment_proofs_kind_check CHECK (kind IN ('filing', 'delivery', 'return'));
    ALTER TABLE shipments DROP COLUMN lre_mail_id, DROP COLUMN lre_user_id, DROP COLUMN fallback_hold_settled, DROP COLUMN fallback_hold_cents, DROP COLUMN electronic, DROP COLUMN channel;
  `);
}
