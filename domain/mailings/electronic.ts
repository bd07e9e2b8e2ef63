/**
 * The electronic path of a registered letter (a qualified electronic registered letter, LRE:
 * CPCE L100, R53-1 to R53-4; eIDAS art. 44), in terms of no provider: its states, its proofs, what
 * a sending carries about its recipient. Plain data only; the providers are in activities/lre/
 * (docs/electronic-registered-letters.md).
 */

/**
 * Where an electronic letter stands. `sent`: the provider took it and holds its deposit proof;
 * `notified`: the recipient was told a letter awaits (when the provider reports it); then one end:
 * `accepted` (the recipient identified itself and took it), `refused` (identified, and refused it),
 * `unclaimed` (neither within the legal 15 days, R53-3), `bounced` (the address could not be reached).
 */
export const ELECTRONIC_STATES = ['sent', 'notified', 'accepted', 'refused', 'unclaimed', 'bounced'] as const;
export type ElectronicState = (typeof ELECTRONIC_STATES)[number];

/** The states after which nothing changes. */
export const FINAL_ELECTRONIC_STATES: ReadonlySet<ElectronicState> = new Set(['accepted', 'refused', 'unclaimed', 'bounced']);

/** Each proof the provider issues: deposit (R53-2), acceptance (R53-3 II), refusal or negligence (R53-3 III). */
export const ELECTRONIC_PROOF_KINDS = ['deposit', 'acceptance', 'refusal', 'negligence'] as const;
export type ElectronicProofKind = (typeof ELECTRONIC_PROOF_KINDS)[number];

/** The days a recipient has to accept or refuse, from the day after it was told (CPCE R53-3 I). */
export const CLAIM_DAYS = 15;

/** The proofs a letter in this state has: the deposit one from `sent` on, and the one of its end. */
export function proofKindsOf(state: ElectronicState): ElectronicProofKind[] {
  const end: Partial<Record<ElectronicState, ElectronicProofKind>> = { accepted: 'acceptance', refused: 'refusal', unclaimed: 'negligence' };
  return end[state] ? ['deposit', end[state]] : ['deposit'];
}

/** What a provider reports of a sending, asked now: its state, since when, and which proofs it can hand. */
export interface ElectronicNews {
  state: ElectronicState;
  /** When the provider says the state began (ISO 8601). */
  at: string;
  proofs: ElectronicProofKind[];
  /** The provider's own id of the sending (shown in its proofs). */
  providerReference: string;
}

/**
 * The sender's statement that a consumer recipient agreed beforehand to receive registered letters
 * electronically (CPCE L100 I, second paragraph): when, and by what means (e.g. "clause 12 of the
 * lease signed 2026-01-10", "form on our site"). The provider does not ask for it; we keep it.
 */
export interface ConsumerConsent {
  /** YYYY-MM-DD. */
  date: string;
  means: string;
}

/** Who an electronic letter goes to: a professional, or a consumer with the sender's statement of consent. */
export type ElectronicRecipient = {
  email: string;
  firstName: string;
  lastName: string;
  company?: string;
} & ({ professional: true } | { professional: false; consent: ConsumerConsent });

/** Where the sender's identity check stands at the provider (a qualified sending needs `verified`). */
export type SenderIdentity = 'unverified' | 'requested' | 'verified';

/** A customer account as the provider's sender, and where its identity check stands. */
export interface SenderAccount {
  /** The provider's id of the sender user. */
  providerUserId: string;
  identity: SenderIdentity;
}

/** One of our customer accounts as the provider's sender: who sends, as the qualified letter names it. */
export interface ElectronicSender {
  /** Our account id. */
  accountId: string;
  email: string;
  firstName: string;
  lastName: string;
  company?: string;
  /** SIRET of a company sender (the provider asks it of a French professional). */
  siret?: string;
  address: { line: string; postcode: string; city: string; country: 'FR' };
}

/** What sending one electronic letter takes. */
export interface ElectronicSending {
  mailingId: string;
  sender: ElectronicSender;
  recipient: ElectronicRecipient;
  /** The letter, one PDF. */
  pdf: Uint8Array;
  /** The line the recipient's notice shows (no content of the letter: the law keeps the sender unnamed until accepted). */
  subject: string;
}

/** Why a sending cannot be asked of a provider at all, or undefined: checked before any call. */
export function electronicRecipientProblem(recipient: ElectronicRecipient): string | undefined {
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(recipient.email)) return 'the recipient has no valid email address';
  if (!recipient.firstName.trim() && !recipient.lastName.trim() && !recipient.company?.trim()) return 'the recipient has no name';
  if (recipient.professional) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(recipient.consent.date) || Number.isNaN(Date.parse(recipient.consent.date)))
    return "a consumer recipient's prior consent needs its date (YYYY-MM-DD)";
  if (!recipient.consent.means.trim()) return "a consumer recipient's prior consent needs its means";
  return undefined;
}
