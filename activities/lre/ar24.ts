import type { ElectronicNews, ElectronicProofKind, ElectronicSender, ElectronicSending, ElectronicState } from '../../domain/mailings/electronic.js';
import { electronicRecipientProblem } from '../../domain/mailings/electronic.js';
import { Ar24Error, type Ar24Client, type Ar24Mail, type Ar24User } from '../partners/ar24.js';
import { ProviderPendingError, ProviderRejectedError, ProviderUnavailableError, type ElectronicProvider, type SenderAccount } from './electronic-provider.js';

/** AR24's mail states and ours (docs/electronic-registered-letters.md, "Mapping"). `waiting`: AR24 has it, not deposited yet. */
export const AR24_STATES: Record<string, ElectronicState | 'pending'> = {
  waiting: 'pending',
  dp: 'sent',
  ev: 'notified',
  AR: 'accepted',
  refused: 'refused',
  negligence: 'unclaimed',
  bounced: 'bounced',
};

/** Which URL of a mail holds each proof. */
export const AR24_PROOF_URLS: Record<ElectronicProofKind, keyof Ar24Mail> = {
  deposit: 'proof_dp_url',
  acceptance: 'proof_ar_url',
  refusal: 'proof_rf_url',
  negligence: 'proof_ng_url',
};

/** AR24's `YYYY-MM-DD HH:MM:SS` (Paris) as ISO 8601, or undefined. */
export function ar24Instant(text: string | null | undefined): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text ?? '');
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  // Paris is UTC+1 or UTC+2: the offset that brings the wall clock back to itself.
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  for (const offsetHours of [2, 1]) {
    const candidate = new Date(wall - offsetHours * 3_600_000);
    const shown = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', hour: '2-digit', hour12: false }).format(candidate);
    if (Number(shown) === h) return candidate.toISOString();
  }
  return new Date(wall - 3_600_000).toISOString();
}

/** Our news of an AR24 mail; throws ProviderPendingError while it is not deposited, and on a state we do not know. */
export function ar24News(mail: Ar24Mail): ElectronicNews {
  const state = AR24_STATES[mail.status ?? ''];
  if (state === undefined) throw new Error(`AR24 mail ${mail.id} is in a state we do not know: ${mail.status ?? '(none)'}`);
  if (state === 'pending') throw new ProviderPendingError(`AR24 mail ${mail.id} is waiting to be deposited`);
  const since: Record<ElectronicState, string | null | undefined> = {
    sent: mail.date,
    notified: mail.ts_ev_date ?? mail.date,
    accepted: mail.view_date,
    refused: mail.refused_date,
    unclaimed: mail.negligence_date,
    bounced: mail.bounced_date,
  };
  const proofs = (Object.keys(AR24_PROOF_URLS) as ElectronicProofKind[]).filter((kind) => Boolean(mail[AR24_PROOF_URLS[kind]]));
  return { state, at: ar24Instant(since[state]) ?? ar24Instant(mail.date) ?? new Date().toISOString(), proofs, providerReference: String(mail.id) };
}

/** Where the adapter keeps AR24's ids of a mailing (the sender user and the mail), so that status and proofs need no search. */
export interface Ar24Records {
  reference(mailingId: string): Promise<{ userId: string | null; mailId: string | null }>;
  remember(mailingId: string, reference: { userId: string; mailId?: string }): Promise<void>;
}

/** The failure of a call that happened before AR24 could hold the letter: nothing was sent. */
function beforeSending(error: unknown): Error {
  if (!(error instanceof Ar24Error)) return error as Error;
  if (error.kind === 'refused') return new ProviderRejectedError(error.message);
  if (error.kind === 'unknown') return error;
  return new ProviderUnavailableError(error.message);
}

/**
 * AR24 behind ElectronicProvider. Sending: the sender user (found by its email, or created), our
 * earlier mail if there is one (its `ref_dossier` is our mailing id), else the letter uploaded and
 * the qualified (eIDAS) mail sent once. A send whose answer was lost is found on the next attempt.
 */
export class Ar24Provider implements ElectronicProvider {
  readonly name = 'ar24';

  constructor(
    private readonly client: Ar24Client,
    private readonly records: Ar24Records,
  ) {}

  async ensureSender(sender: ElectronicSender): Promise<SenderAccount> {
    try {
      const user = (await this.client.findUser(sender.email)) ?? (await this.createdUser(sender));
      return senderAccount(user);
    } catch (error) {
      throw beforeSending(error);
    }
  }

  /** A new user; one created meanwhile by a concurrent send of the same customer is taken as it is. */
  private async createdUser(sender: ElectronicSender): Promise<Ar24User> {
    try {
      return await this.client.createUser(userFields(sender));
    } catch (error) {
      if (!(error instanceof Ar24Error && error.slug === 'user_already_exist')) throw error;
      const user = await this.client.findUser(sender.email);
      if (!user) throw error;
      return user;
    }
  }

  async requestIdentityCheck(sender: ElectronicSender): Promise<SenderAccount> {
    const account = await this.ensureSender(sender);
    if (account.identity === 'verified') return account;
    try {
      await this.client.requestIdentity(account.providerUserId);
    } catch (error) {
      // Asked before: AR24 says so, and the check goes on.
      if (!(error instanceof Ar24Error && error.slug === 'identity_already_requested')) throw beforeSending(error);
    }
    return { ...account, identity: 'requested' };
  }

  async send(sending: ElectronicSending): Promise<ElectronicNews> {
    const problem = electronicRecipientProblem(sending.recipient);
    if (problem) throw new ProviderRejectedError(problem);
    const account = await this.ensureSender(sending.sender);
    if (account.identity !== 'verified') throw new ProviderRejectedError("the sender's identity is not verified at AR24: a qualified letter cannot be sent");
    const userId = account.providerUserId;
    await this.records.remember(sending.mailingId, { userId });
    let earlier: Ar24Mail | undefined;
    try {
      earlier = await this.client.findMail(userId, sending.mailingId);
    } catch (error) {
      throw beforeSending(error);
    }
    if (earlier) {
      await this.records.remember(sending.mailingId, { userId, mailId: String(earlier.id) });
      return ar24News(earlier);
    }
    let fileId: string;
    try {
      fileId = await this.client.uploadAttachment(userId, sending.pdf, `${sending.mailingId}.pdf`);
    } catch (error) {
      // An attachment alone sends nothing: any failure here leaves no letter at AR24.
      throw error instanceof Ar24Error && error.kind === 'unknown' ? new ProviderUnavailableError(error.message) : beforeSending(error);
    }
    let mail: Ar24Mail;
    try {
      mail = await this.client.sendMail(mailFields(userId, sending, fileId));
    } catch (error) {
      // Maintenance, a refused signature or a refusal: AR24 did nothing. Anything else: unknown, the next attempt looks first.
      throw beforeSending(error);
    }
    await this.records.remember(sending.mailingId, { userId, mailId: String(mail.id) });
    return ar24News(mail);
  }

  private async mail(mailingId: string): Promise<Ar24Mail> {
    const { userId, mailId } = await this.records.reference(mailingId);
    if (!userId) throw new Error(`mailing ${mailingId} has no AR24 sender`);
    if (mailId) return this.client.getMail(userId, mailId);
    const found = await this.client.findMail(userId, mailingId);
    if (!found) throw new Error(`mailing ${mailingId} has no AR24 mail`);
    await this.records.remember(mailingId, { userId, mailId: String(found.id) });
    return found;
  }

  async status(mailingId: string): Promise<ElectronicNews> {
    return ar24News(await this.mail(mailingId));
  }

  async proof(mailingId: string, kind: ElectronicProofKind): Promise<Uint8Array> {
    const mail = await this.mail(mailingId);
    const url = mail[AR24_PROOF_URLS[kind]];
    if (typeof url !== 'string' || !url) throw new Error(`AR24 has no ${kind} proof for mailing ${mailingId} yet`);
    return this.client.download(url);
  }

  /**
   * AR24's callback (its webhook) names its mail: `id_mail` (or `id`), form-encoded or JSON, and
   * our reference when it carries `ref_dossier`. Without the reference, the mail is read to find it.
   */
  async callbackMailing(body: unknown): Promise<string | undefined> {
    const fields = callbackFields(body);
    if (fields.ref_dossier) return fields.ref_dossier;
    const mailId = fields.id_mail ?? fields.id;
    const userId = fields.id_user;
    if (!mailId || !userId) return undefined;
    const mail = await this.client.getMail(userId, mailId);
    return mail.ref_dossier ?? undefined;
  }
}

/** A callback's fields: an object, a JSON text, or a form-encoded text. */
export function callbackFields(body: unknown): Record<string, string | undefined> {
  let value: unknown = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    const text = body.toString();
    try {
      value = JSON.parse(text);
    } catch {
      value = Object.fromEntries(new URLSearchParams(text));
    }
  }
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => [k, String(v)]),
  );
}

function senderAccount(user: Ar24User): SenderAccount {
  const verified =
    user.is_identity_verified !== undefined && user.is_identity_verified !== null && user.is_identity_verified !== false && user.is_identity_verified !== 0;
  return { providerUserId: String(user.id), identity: verified ? 'verified' : 'unverified' };
}

/** POST /user/ (knowledge base, "Créer un compte expéditeur via l'API"): a company sends as itself. */
function userFields(sender: ElectronicSender): Record<string, string | number | undefined> {
  return {
    email: sender.email,
    firstname: sender.firstName,
    lastname: sender.lastName,
    statut: sender.company ? 'professionnel' : 'particulier',
    company: sender.company,
    company_siret: sender.siret,
    is_legal_entity: sender.company ? 1 : undefined,
    address1: sender.address.line,
    zipcode: sender.address.postcode,
    city: sender.address.city,
    country: sender.address.country,
  };
}

/** POST /mail/ as a qualified (eIDAS) letter; `ref_dossier` carries our mailing id, the key of every retry. */
function mailFields(userId: string, sending: ElectronicSending, fileId: string): Record<string, string | number | undefined> {
  const { recipient } = sending;
  return {
    id_user: userId,
    eidas: 1,
    to_email: recipient.email,
    to_firstname: recipient.firstName,
    to_lastname: recipient.lastName,
    to_company: recipient.company,
    dest_statut: recipient.professional ? 'professionnel' : 'particulier',
    ref_dossier: sending.mailingId,
    content: sending.subject,
    'attachment[0]': fileId,
  };
}
