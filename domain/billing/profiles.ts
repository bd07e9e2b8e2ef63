import Joi from 'joi';
import type { Db } from '../../db/knex.js';
import type { Deps } from '../deps.js';
import { recordAudit, type Actor } from '../access/audit.js';
import { siretProblem } from '../lookups/companies.js';
import { upstreamError } from '../errors.js';
import { logger } from '../../lib/logger.js';

/**
 * The billing profile of an account (issue 25, item 8): who the invoices of its top-ups are made
 * out to. It becomes the account's Stripe Customer (activities/payments.ts), which every Checkout
 * session of a top-up then uses, so Stripe's invoice shows the buyer's name, address and VAT number.
 */

export const BILLING_FIELDS = ['legalName', 'addressLine1', 'addressLine2', 'postalCode', 'city', 'country', 'siret', 'vatNumber', 'email'] as const;
export type BillingField = (typeof BILLING_FIELDS)[number];

/** France only for now: French VAT applies to every top-up (docs/billing.md). */
export const BILLING_COUNTRIES = ['FR'] as const;

/** The longest value of each field (Stripe takes more; these keep an invoice readable). */
export const BILLING_MAX: Record<BillingField, number> = {
  legalName: 200,
  addressLine1: 200,
  addressLine2: 200,
  postalCode: 5,
  city: 100,
  country: 2,
  siret: 40,
  vatNumber: 40,
  email: 254,
};

const OPTIONAL: ReadonlySet<BillingField> = new Set(['addressLine2', 'siret', 'vatNumber']);

export interface BillingProfileFields {
  legalName: string;
  addressLine1: string;
  addressLine2: string | null;
  postalCode: string;
  city: string;
  country: (typeof BILLING_COUNTRIES)[number];
  /** 14 digits. */
  siret: string | null;
  /** FR, the 2-digit key, the 9-digit SIREN. */
  vatNumber: string | null;
  email: string;
}

export interface BillingProfile extends BillingProfileFields {
  accountId: string;
  version: number;
  stripeCustomerId: string | null;
  stripeSyncedVersion: number | null;
  updatedAt: Date;
}

/** Why a field was refused; the page says each in French. */
export type BillingProblem =
  'required' | 'too_long' | 'postcode' | 'country' | 'email' | 'siret_format' | 'siret_checksum' | 'vat_format' | 'vat_key' | 'siren_mismatch';

/** The key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97, on two digits. */
export function frenchVatKey(siren: string): string {
  return String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0');
}

const emailSchema = Joi.string().email({ tlds: false });

/**
 * Checks a posted profile: every field's problem (not only the first, so the page can mark each),
 * or the normalized values (spaces and dots out of the SIRET and VAT number, VAT upper-cased).
 */
export function checkBillingProfile(
  raw: Partial<Record<BillingField, string>>,
): { value: BillingProfileFields } | { problems: Partial<Record<BillingField, BillingProblem>> } {
  const problems: Partial<Record<BillingField, BillingProblem>> = {};
  const text: Record<BillingField, string> = Object.fromEntries(BILLING_FIELDS.map((f) => [f, (raw[f] ?? '').trim().replace(/\s+/g, ' ')])) as Record<
    BillingField,
    string
  >;
  if (text.country === '') text.country = 'FR';
  for (const field of BILLING_FIELDS) {
    if (text[field] === '' && !OPTIONAL.has(field)) problems[field] = 'required';
    else if (text[field].length > BILLING_MAX[field] && field !== 'postalCode') problems[field] = 'too_long';
  }
  if (!problems.postalCode && !/^\d{5}$/.test(text.postalCode)) problems.postalCode = 'postcode';
  if (!(BILLING_COUNTRIES as readonly string[]).includes(text.country)) problems.country = 'country';
  if (!problems.email && emailSchema.validate(text.email).error) problems.email = 'email';

  const siret = text.siret.replace(/[\s.]/g, '');
  if (siret && !problems.siret) {
    const problem = siretProblem(siret);
    if (problem) problems.siret = problem === 'format' ? 'siret_format' : 'siret_checksum';
  }
  const vat = text.vatNumber.replace(/[\s.]/g, '').toUpperCase();
  if (vat && !problems.vatNumber) {
    const match = /^FR(\d{2})(\d{9})$/.exec(vat);
    if (!match) problems.vatNumber = 'vat_format';
    else if (frenchVatKey(match[2]!) !== match[1]) problems.vatNumber = 'vat_key';
    else if (siret && !problems.siret && siret.slice(0, 9) !== match[2]) problems.vatNumber = 'siren_mismatch';
  }
  if (Object.keys(problems).length) return { problems };
  return {
    value: {
      legalName: text.legalName,
      addressLine1: text.addressLine1,
      addressLine2: text.addressLine2 || null,
      postalCode: text.postalCode,
      city: text.city,
      country: 'FR',
      siret: siret || null,
      vatNumber: vat || null,
      email: text.email,
    },
  };
}

const COLUMNS: Record<keyof BillingProfileFields, string> = {
  legalName: 'legal_name',
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  postalCode: 'postal_code',
  city: 'city',
  country: 'country',
  siret: 'siret',
  vatNumber: 'vat_number',
  email: 'email',
};

const toProfile = (row: Record<string, unknown>): BillingProfile => ({
  accountId: row.account_id as string,
  legalName: row.legal_name as string,
  addressLine1: row.address_line1 as string,
  addressLine2: row.address_line2 as string | null,
  postalCode: row.postal_code as string,
  city: row.city as string,
  country: row.country as 'FR',
  siret: row.siret as string | null,
  vatNumber: row.vat_number as string | null,
  email: row.email as string,
  version: row.version as number,
  stripeCustomerId: row.stripe_customer_id as string | null,
  stripeSyncedVersion: row.stripe_synced_version as number | null,
  updatedAt: row.updated_at as Date,
});

export async function findBillingProfile(db: Db, accountId: string): Promise<BillingProfile | undefined> {
  const row = await db('billing_profiles').where({ account_id: accountId }).first();
  return row ? toProfile(row) : undefined;
}

/**
 * Writes the profile and its audit entry in one transaction (`billing_profile.created` or
 * `.updated`, with the names of the fields changed). The same profile saved again changes nothing
 * and records nothing.
 */
export async function saveBillingProfile(
  db: Db,
  accountId: string,
  fields: BillingProfileFields,
  actor?: Actor,
): Promise<{ outcome: 'created' | 'updated' | 'unchanged'; profile: BillingProfile }> {
  return db.transaction(async (trx) => {
    const row = await trx('billing_profiles').where({ account_id: accountId }).forUpdate().first();
    const before = row ? toProfile(row) : undefined;
    const changed = (Object.keys(COLUMNS) as (keyof BillingProfileFields)[]).filter((f) => !before || before[f] !== fields[f]);
    if (before && changed.length === 0) return { outcome: 'unchanged', profile: before };
    const values = Object.fromEntries(Object.entries(COLUMNS).map(([f, column]) => [column, fields[f as keyof BillingProfileFields]]));
    const [saved] = before
      ? await trx('billing_profiles')
          .where({ account_id: accountId })
          .update({ ...values, version: trx.raw('version + 1'), updated_at: trx.fn.now() })
          .returning('*')
      : await trx('billing_profiles')
          .insert({ account_id: accountId, ...values })
          .returning('*');
    const outcome = before ? 'updated' : 'created';
    await recordAudit(trx, actor, {
      accountId,
      action: `billing_profile.${outcome}`,
      target: { type: 'account', id: accountId },
      details: { changed, legalName: fields.legalName, siret: fields.siret },
    });
    return { outcome, profile: toProfile(saved) };
  });
}

/**
 * Records the Stripe Customer of a profile and the version written to it (the first customer id
 * recorded stays; the synced version only grows).
 */
export async function recordStripeCustomer(db: Db, accountId: string, customerId: string, version: number): Promise<string> {
  const [row] = await db('billing_profiles')
    .where({ account_id: accountId })
    .update({
      stripe_customer_id: db.raw('COALESCE(stripe_customer_id, ?)', [customerId]),
      stripe_synced_version: db.raw('GREATEST(COALESCE(stripe_synced_version, 0), ?)', [version]),
    })
    .returning('stripe_customer_id');
  if (!row) throw new Error(`no billing profile for account ${accountId}`);
  return row.stripe_customer_id as string;
}

/**
 * Writes the saved profile to the account's Stripe Customer now (short workflow `billingCustomer`),
 * so Stripe's dashboard shows it at once. Best effort: when Stripe cannot be reached the next
 * top-up writes it before its Checkout session (false here).
 */
export async function pushBillingProfile(deps: Deps, accountId: string): Promise<boolean> {
  if (deps.config.stripe.mode === 'disabled') return false;
  try {
    await deps.workflows.billing.run('billingCustomer', [accountId], {
      idPrefix: 'billing-customer',
      timeout: '45s',
      failure: () => upstreamError('Stripe did not take the billing profile.'),
    });
    return true;
  } catch (error) {
    logger.warn({ err: error, accountId }, 'billing profile not written to Stripe; the next top-up writes it');
    return false;
  }
}

/**
 * A closed account's billing contact erased: the billing email goes; the buyer's legal name,
 * address, SIRET and VAT number stay, as the invoices that carry them must (Code de commerce
 * L123-22, ten years). Within the closing's transaction.
 */
export async function eraseBillingContact(trx: Db, accountId: string): Promise<number> {
  return trx('billing_profiles').where({ account_id: accountId }).update({ email: '', updated_at: trx.fn.now() });
}
