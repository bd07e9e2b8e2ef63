import type { Knex } from 'knex';

/**
 * Top-ups paid through Stripe Checkout: one row per attempt, made before the Checkout session exists
 * (its id travels as the session's client_reference_id), with the amount to credit. Stripe's own
 * answers never say how much to credit: this row does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('topups', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id');
    // Credit bought, excluding VAT; the VAT charged on top of it; what the card paid.
    t.integer('amount_cents').notNullable().checkPositive();
    t.integer('vat_cents').notNullable();
    t.integer('total_cents').notNullable();
    // pending → paid (credited once), or failed / expired; a success reported later still credits.
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'paid', 'failed', 'expired']);
    t.text('stripe_session_id').unique();
    t.text('checkout_url');
    t.bigInteger('ledger_entry_id').references('ledger_entries.id');
    t.text('invoice_id');
    t.text('invoice_number');
    t.text('invoice_url');
    t.text('invoice_pdf_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('settled_at', { useTz: true });
    t.index(['account_id', 'created_at']);
  });
  // A top-up's credit is one ledger row, whatever retries or replays happen: keyed by the top-up.
  await knex.raw(`CREATE UNIQUE INDEX ledger_entries_one_credit_per_topup ON ledger_entries (reference) WHERE kind = 'topup' AND reference LIKE 'topup:%'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS ledger_entries_one_credit_per_topup');
  await knex.schema.dropTableIfExists('topups');
}
