import type { Db } from '../../db/knex.js';
import type { Deps } from '../deps.js';
import { recordAudit, type Actor } from '../access/audit.js';
import { findBillingProfile, type BillingProfile } from '../billing/profiles.js';
import { unprocessable, upstreamError, type DomainError } from '../errors.js';
import type { ElectronicSender, SenderAccount, SenderIdentity } from '../mailings/electronic.js';
import type { SenderCall } from './port.js';
import { ownerEmails } from './users.js';

/**
 * An account's sender identity at the electronic registered letter provider (issue 54). A
 * qualified LRE identifies its sender "with a high level of confidence" (eIDAS art. 44; CPCE
 * R53-1): the provider checks it once, AR24 by posting the sender a paper registered letter with
 * an OTP key to type at its site. Until the provider says it is verified, the account sends no
 * live electronic letter (`assertSenderVerified`). The sender is the company of the account's
 * billing profile (name, SIRET, address) and the person who requested the check (the letter's
 * addressee at the company: their name, and their email, the provider's key of the sender user).
 *
 * The table `lre_senders` is this module's alone: one row per account and provider (a change of
 * LRE_PROVIDER starts again from unverified). Provider calls go through the sender workflows
 * (`deps.workflows.senders`, domain/developers/port.ts).
 */

export type SenderProvider = 'simulator' | 'ar24';

/** Where an account's sender identity stands at the configured provider. */
export interface SenderIdentityView {
  provider: SenderProvider;
  identity: SenderIdentity;
  /** When we asked the provider (AR24 then posts its letter); null before. */
  requestedAt: Date | null;
  verifiedAt: Date | null;
  /** When the provider was last read. */
  checkedAt: Date | null;
  /** The person the check is for, once requested. */
  person: SenderPerson | null;
}

/** Who the provider's identity letter is for, at the company. */
export interface SenderPerson {
  email: string;
  firstName: string;
  lastName: string;
}

/** What a request lacks: no billing profile at all, or a part of it or of the person the sender needs. */
export type SenderMissing = 'billing_profile' | 'siret' | 'first_name' | 'last_name';

const MISSING_TEXT: Record<SenderMissing, string> = {
  billing_profile: 'a billing profile (company name and address)',
  siret: "the company's SIRET in the billing profile",
  first_name: 'the first name of the person the identity letter is for',
  last_name: 'the last name of the person the identity letter is for',
};

/** The longest name kept (the provider's field; longer is a typing accident). */
export const SENDER_NAME_MAX = 100;

/** What a request for this profile and person lacks, in order; empty when the sender is complete. Pure. */
export function senderMissing(profile: Pick<BillingProfile, 'siret'> | undefined, person: Pick<SenderPerson, 'firstName' | 'lastName'>): SenderMissing[] {
  const missing: SenderMissing[] = [];
  if (!profile) missing.push('billing_profile');
  else if (!profile.siret) missing.push('siret');
  if (!person.firstName.trim()) missing.push('first_name');
  if (!person.lastName.trim()) missing.push('last_name');
  return missing;
}

/** The provider's sender for an account: the billing profile's company, the person's name and email. Pure. */
export function electronicSenderOf(
  accountId: string,
  profile: Pick<BillingProfile, 'legalName' | 'siret' | 'addressLine1' | 'addressLine2' | 'postalCode' | 'city'>,
  person: SenderPerson,
): ElectronicSender {
  return {
    accountId,
    email: person.email,
    firstName: person.firstName.trim(),
    lastName: person.lastName.trim(),
    company: profile.legalName,
    ...(profile.siret ? { siret: profile.siret } : {}),
    address: {
      line: [profile.addressLine1, profile.addressLine2].filter(Boolean).join(', '),
      postcode: profile.postalCode,
      city: profile.city,
      country: 'FR',
    },
  };
}

/**
 * What we record after the provider answered. It can only move forward: AR24 tells a verified
 * sender apart and nothing else, so "not verified" after a request stays `requested`; once
 * verified, it stays so. Pure.
 */
export function identityAfter(recorded: SenderIdentity, told: SenderIdentity): SenderIdentity {
  const order: SenderIdentity[] = ['unverified', 'requested', 'verified'];
  return order[Math.max(order.indexOf(recorded), order.indexOf(told))]!;
}

/** YYYY-MM-DD in Paris, the day the developer space shows. */
const parisDay = (at: Date): string => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', dateStyle: 'short' }).format(at);

/** The 422 a refused request answers: what is missing, named. */
export function senderIncomplete(missing: SenderMissing[]): DomainError {
  return unprocessable(`The sender identity cannot be requested without ${missing.map((m) => MISSING_TEXT[m]).join(', ')}.`, { missing });
}

/**
 * 422 `sender_identity_unverified`: a live electronic letter of an account whose sender identity
 * the provider has not verified (CPCE R53-1: a qualified letter identifies its sender). Says what
 * to do; nothing was sent or billed.
 */
export function senderIdentityUnverified(view: Pick<SenderIdentityView, 'identity' | 'requestedAt'>): DomainError {
  const where =
    view.identity === 'requested'
      ? `was requested on ${parisDay(view.requestedAt!)} and is not verified yet: the provider posted a registered letter with a key, which its addressee enters at the provider's site`
      : 'has not been requested';
  return unprocessable(
    `A qualified electronic registered letter identifies its sender (CPCE R53-1), and this account's sender identity ${where}. ` +
      'An owner of the account requests it in the developer space ("Identité d’expéditeur"); the page says when it is verified. Nothing was sent or billed.',
    { identity: view.identity },
    'sender_identity_unverified',
  );
}

const providerOf = (deps: Pick<Deps, 'config'>): SenderProvider => deps.config.lreProvider.kind;

interface Row {
  provider_user_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  identity: SenderIdentity;
  requested_at: Date | null;
  verified_at: Date | null;
  checked_at: Date | null;
}

function view(provider: SenderProvider, row: Row | undefined): SenderIdentityView {
  if (!row) return { provider, identity: 'unverified', requestedAt: null, verifiedAt: null, checkedAt: null, person: null };
  return {
    provider,
    identity: row.identity,
    requestedAt: row.requested_at,
    verifiedAt: row.verified_at,
    checkedAt: row.checked_at,
    person: { email: row.email, firstName: row.first_name, lastName: row.last_name },
  };
}

const readRow = (db: Db, accountId: string, provider: SenderProvider): Promise<Row | undefined> =>
  db('lre_senders').where({ account_id: accountId, provider }).first();

/** Where the account's sender identity stands at the configured provider, as last recorded (unverified when never requested). */
export async function senderIdentityOf(deps: Pick<Deps, 'db' | 'config'>, accountId: string): Promise<SenderIdentityView> {
  const provider = providerOf(deps);
  return view(provider, await readRow(deps.db, accountId, provider));
}

/** One provider call through the sender workflows; a refusal for good is a 422 with the provider's reason. */
async function callProvider(deps: Deps, name: 'senderIdentityRequest' | 'senderIdentityRead', sender: ElectronicSender): Promise<SenderAccount> {
  const answer: SenderCall = await deps.workflows.senders.run(name, [sender], {
    idPrefix: name === 'senderIdentityRequest' ? 'sender-identity-request' : 'sender-identity-read',
    timeout: '60s',
    failure: () => upstreamError('The electronic registered letter provider could not be reached; nothing was changed. Please retry.'),
  });
  if (answer.kind === 'refused')
    throw unprocessable(`The provider refused the sender: ${answer.reason}`, { provider: providerOf(deps), reason: answer.reason });
  return answer.account;
}

/**
 * Requests the account's sender identity check: the provider's sender user created when missing,
 * and its check asked, once. Idempotent: a request already made (or verified) asks nothing more,
 * and two at once (two owners clicking together) make one call, the second waiting on the row's
 * lock while the first asks the provider (a minute at most, the workflow's deadline), then finding
 * it done. A failed call leaves nothing recorded (the transaction rolls back): asked again, the
 * provider's own idempotence (AR24's `identity_already_requested`) covers a call that did land.
 * Audited as `sender_identity.requested`.
 */
export async function requestSenderIdentity(
  deps: Deps,
  accountId: string,
  actor: Actor,
  person: Pick<SenderPerson, 'firstName' | 'lastName'>,
): Promise<{ outcome: 'requested' | 'already'; view: SenderIdentityView }> {
  const provider = providerOf(deps);
  const profile = await findBillingProfile(deps.db, accountId);
  const missing = senderMissing(profile, person);
  if (missing.length) throw senderIncomplete(missing);
  // The provider's key of the sender user: the requesting developer's email, else the account's first owner's.
  const email = actor.kind === 'developer' ? actor.email : (await ownerEmails(deps.db, accountId))[0];
  if (!email) throw unprocessable('The account has no owner to name as the sender.');
  const names = { first_name: person.firstName.trim().slice(0, SENDER_NAME_MAX), last_name: person.lastName.trim().slice(0, SENDER_NAME_MAX) };
  return deps.db.transaction(async (trx) => {
    await trx.raw(
      `INSERT INTO lre_senders (account_id, provider, email, first_name, last_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, provider) DO NOTHING`,
      [accountId, provider, email, names.first_name, names.last_name],
    );
    const row = (await trx('lre_senders').where({ account_id: accountId, provider }).forUpdate().first()) as Row;
    if (row.identity !== 'unverified') return { outcome: 'already' as const, view: view(provider, row) };
    const sender = electronicSenderOf(accountId, profile!, { email: row.email, firstName: row.first_name, lastName: row.last_name });
    const account = await callProvider(deps, 'senderIdentityRequest', sender);
    const identity = identityAfter('requested', account.identity);
    const [saved] = (await trx('lre_senders')
      .where({ account_id: accountId, provider })
      .update({
        provider_user_id: account.providerUserId,
        identity,
        requested_at: trx.fn.now(),
        verified_at: identity === 'verified' ? trx.fn.now() : null,
        checked_at: trx.fn.now(),
      })
      .returning('*')) as Row[];
    await recordAudit(trx, actor, {
      accountId,
      action: 'sender_identity.requested',
      target: { type: 'account', id: accountId },
      details: { provider, providerUserId: account.providerUserId, email: row.email, legalName: profile!.legalName, siret: profile!.siret },
    });
    return { outcome: 'requested' as const, view: view(provider, saved) };
  });
}

/**
 * Reads the provider's state again (AR24: `is_identity_verified` once the sender typed the OTP key
 * it received by post; the simulator: verified one OPERATOR_STEP_DELAY after the request). Only a
 * requested identity is read: never requested, there is nothing to ask; verified, nothing changes.
 */
export async function refreshSenderIdentity(deps: Deps, accountId: string): Promise<SenderIdentityView> {
  const provider = providerOf(deps);
  const row = await readRow(deps.db, accountId, provider);
  if (!row || row.identity !== 'requested') return view(provider, row);
  const profile = await findBillingProfile(deps.db, accountId);
  if (!profile) return view(provider, row);
  const account = await callProvider(
    deps,
    'senderIdentityRead',
    electronicSenderOf(accountId, profile, { email: row.email, firstName: row.first_name, lastName: row.last_name }),
  );
  const verified = identityAfter(row.identity, account.identity) === 'verified';
  // Only forward: a concurrent refresh that recorded verified first is kept as it is.
  const [saved] = (await deps
    .db('lre_senders')
    .where({ account_id: accountId, provider })
    .update({
      checked_at: deps.db.fn.now(),
      ...(verified ? { identity: 'verified', verified_at: deps.db.raw('COALESCE(verified_at, now())') } : {}),
      provider_user_id: deps.db.raw('COALESCE(provider_user_id, ?)', [account.providerUserId]),
    })
    .returning('*')) as Row[];
  return view(provider, saved);
}

/**
 * Throws `sender_identity_unverified` (422) unless the account's sender identity is verified at the
 * configured provider; a requested one is read again first, so a sender verified since passes.
 * For live electronic letters only: test keys' sandbox letters never need it.
 */
export async function assertSenderVerified(deps: Deps, accountId: string): Promise<void> {
  let current = await senderIdentityOf(deps, accountId);
  if (current.identity === 'requested') current = await refreshSenderIdentity(deps, accountId);
  if (current.identity !== 'verified') throw senderIdentityUnverified(current);
}

/** The verified sender of an account, as a live electronic letter names it (its billing profile as it is now). */
export async function verifiedSenderOf(deps: Deps, accountId: string): Promise<ElectronicSender> {
  await assertSenderVerified(deps, accountId);
  const sender = await recordedSenderOf(deps.db, accountId, providerOf(deps));
  if (!sender) throw senderIncomplete(['billing_profile']);
  return sender;
}

/**
 * The sender an account's letters name at this provider: the person recorded by its identity
 * request (the provider knows the sender user by that email) and the billing profile's company.
 * Undefined without either. Reads only: the sending activity calls it, after creation checked
 * the identity verified (assertSenderVerified).
 */
export async function recordedSenderOf(db: Db, accountId: string, provider: SenderProvider): Promise<ElectronicSender | undefined> {
  const [row, profile] = await Promise.all([readRow(db, accountId, provider), findBillingProfile(db, accountId)]);
  if (!row || !profile) return undefined;
  return electronicSenderOf(accountId, profile, { email: row.email, firstName: row.first_name, lastName: row.last_name });
}

/** The account's sender identities, every provider's, for its export (domain/privacy/export.ts). */
export async function exportSenderIdentities(db: Db, accountId: string): Promise<(SenderIdentityView & { providerUserId: string | null })[]> {
  const rows = (await db('lre_senders').where({ account_id: accountId }).orderBy('provider')) as (Row & { provider: SenderProvider })[];
  return rows.map((row) => ({ ...view(row.provider, row), providerUserId: row.provider_user_id }));
}

/**
 * A closed account's sender identities: the person's name and email erased, within the closing's
 * transaction (domain/access/closing.ts); the state and its dates stay, as the audit log's. The
 * sender user at the provider is the provider's to delete (its own retention; docs/privacy.md).
 */
export async function eraseSenderContacts(trx: Db, accountId: string): Promise<number> {
  return trx('lre_senders').where({ account_id: accountId }).update({ email: 'erased@erased.invalid', first_name: '', last_name: '' });
}
