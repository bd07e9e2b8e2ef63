import { createHash, randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Db } from '../../db/knex.js';
import {
  electronicRecipientProblem,
  proofKindsOf,
  type ElectronicNews,
  type ElectronicProofKind,
  type ElectronicSender,
  type ElectronicSending,
  type ElectronicState,
} from '../../domain/mailings/electronic.js';
import { ProviderRejectedError, type ElectronicProvider, type SenderAccount } from './electronic-provider.js';

/** How a simulated letter ends, when the sandbox's `advance` (or a test) says so. */
export type SimulatedOutcome = Extract<ElectronicState, 'accepted' | 'refused' | 'unclaimed' | 'bounced'>;

export interface LreSimulatorSettings {
  /** Time from sent to notified, and from an identity check asked to verified (OPERATOR_STEP_DELAY). */
  stepDelayMs: number;
}

/** The PDF's Producer: tells the simulator's proofs apart from a provider's. */
export const LRE_SIMULATOR_PRODUCER = 'svc-postal, prestataire de LRE simulé';

const PROOF_TITLES: Record<ElectronicProofKind, string> = {
  deposit: 'Preuve de dépôt et d’envoi',
  acceptance: 'Preuve de réception (acceptation)',
  refusal: 'Preuve de refus',
  negligence: 'Preuve de négligence (non-réclamation)',
};

interface MailRow {
  mailing_id: string;
  reference: string;
  sender_name: string;
  recipient_name: string;
  recipient_email: string;
  subject: string;
  pdf_sha256: string;
  sent_at: Date;
  outcome: SimulatedOutcome | null;
  outcome_at: Date | null;
}

/**
 * A qualified electronic registered letter provider that keeps its own records
 * (lre_simulator_senders, lre_simulator_mails), for local runs and the sandbox. A sender's
 * identity is verified one step after it is asked; a letter is `sent` when taken and `notified`
 * one step later; it ends only when told (advance), as a recipient decides. Sending is idempotent:
 * the row is created once, whatever the number of attempts.
 */
export class LreSimulator implements ElectronicProvider {
  readonly name = 'simulator';

  constructor(
    private readonly db: Db,
    private readonly settings: LreSimulatorSettings,
  ) {}

  async ensureSender(sender: ElectronicSender): Promise<SenderAccount> {
    await this.db.raw(`INSERT INTO lre_simulator_senders (account_id, email) VALUES (?, ?) ON CONFLICT (account_id) DO NOTHING`, [
      sender.accountId,
      sender.email,
    ]);
    return this.account(sender.accountId);
  }

  async requestIdentityCheck(sender: ElectronicSender): Promise<SenderAccount> {
    await this.ensureSender(sender);
    await this.db('lre_simulator_senders')
      .where({ account_id: sender.accountId })
      .whereNull('identity_requested_at')
      .update({ identity_requested_at: this.db.fn.now() });
    return this.account(sender.accountId);
  }

  private async account(accountId: string): Promise<SenderAccount> {
    const row = (await this.db('lre_simulator_senders').where({ account_id: accountId }).first('identity_requested_at')) as
      { identity_requested_at: Date | null } | undefined;
    const requested = row?.identity_requested_at;
    const identity = !requested ? 'unverified' : Date.now() - requested.getTime() >= this.settings.stepDelayMs ? 'verified' : 'requested';
    return { providerUserId: accountId, identity };
  }

  async send(sending: ElectronicSending): Promise<ElectronicNews> {
    const problem = electronicRecipientProblem(sending.recipient);
    if (problem) throw new ProviderRejectedError(problem);
    const account = await this.ensureSender(sending.sender);
    if (account.identity !== 'verified') throw new ProviderRejectedError("the sender's identity is not verified: a qualified letter cannot be sent");
    const { sender, recipient } = sending;
    await this.db.raw(
      `INSERT INTO lre_simulator_mails (mailing_id, account_id, reference, sender_name, recipient_name, recipient_email, subject, pdf_sha256, sent_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, now()) ON CONFLICT (mailing_id) DO NOTHING`,
      [
        sending.mailingId,
        sender.accountId,
        `SIM-LRE-${randomBytes(5).toString('hex').toUpperCase()}`,
        sender.company ?? `${sender.firstName} ${sender.lastName}`,
        recipient.company ?? `${recipient.firstName} ${recipient.lastName}`,
        recipient.email,
        sending.subject,
        createHash('sha256').update(sending.pdf).digest('hex'),
      ],
    );
    return this.status(sending.mailingId);
  }

  /** Ends a letter as its recipient would (the sandbox's advance, the tests); once: a later call changes nothing. */
  async advance(mailingId: string, outcome: SimulatedOutcome): Promise<ElectronicNews> {
    await this.db('lre_simulator_mails').where({ mailing_id: mailingId }).whereNull('outcome').update({ outcome, outcome_at: this.db.fn.now() });
    return this.status(mailingId);
  }

  private async row(mailingId: string): Promise<MailRow> {
    const row = (await this.db('lre_simulator_mails').where({ mailing_id: mailingId }).first()) as MailRow | undefined;
    if (!row) throw new Error(`mailing ${mailingId} was never sent to the simulated provider`);
    return row;
  }

  private news(row: MailRow): ElectronicNews {
    const notifiedAt = row.sent_at.getTime() + this.settings.stepDelayMs;
    const state: ElectronicState = row.outcome ?? (Date.now() >= notifiedAt ? 'notified' : 'sent');
    const at = row.outcome_at ?? (state === 'notified' ? new Date(notifiedAt) : row.sent_at);
    return { state, at: at.toISOString(), proofs: state === 'bounced' ? ['deposit'] : proofKindsOf(state), providerReference: row.reference };
  }

  async status(mailingId: string): Promise<ElectronicNews> {
    return this.news(await this.row(mailingId));
  }

  async proof(mailingId: string, kind: ElectronicProofKind): Promise<Uint8Array> {
    const row = await this.row(mailingId);
    const news = this.news(row);
    if (!news.proofs.includes(kind)) throw new Error(`the simulated provider has no ${kind} proof for mailing ${mailingId} (${news.state})`);
    const pdf = await PDFDocument.create({ updateMetadata: false });
    const at = kind === 'deposit' ? row.sent_at : (row.outcome_at ?? row.sent_at);
    pdf.setTitle(`${PROOF_TITLES[kind]} ${row.reference}`);
    pdf.setProducer(LRE_SIMULATOR_PRODUCER);
    pdf.setCreationDate(at);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595.28, 841.89]);
    const lines = [
      'Prestataire de LRE simulé (document de test, sans valeur légale)',
      PROOF_TITLES[kind],
      `Envoi n° ${row.reference}`,
      `Expéditeur : ${row.sender_name}`,
      `Destinataire : ${row.recipient_name} <${row.recipient_email}>`,
      `Objet : ${row.subject}`,
      `Horodatage : ${at.toISOString()}`,
      `Empreinte SHA-256 du contenu : ${row.pdf_sha256}`,
    ];
    lines.forEach((text, i) => page.drawText(winAnsi(text), { x: 56, y: 780 - i * 20, size: i === 1 ? 16 : 10, font }));
    return pdf.save({ useObjectStreams: false });
  }

  /** The simulator's callbacks are its own calls: their body is `{ mailingId }`. */
  async callbackMailing(body: unknown): Promise<string | undefined> {
    const id = (body as { mailingId?: unknown } | null)?.mailingId;
    return typeof id === 'string' ? id : undefined;
  }
}

/** Helvetica encodes WinAnsi only. */
function winAnsi(text: string): string {
  return text.replace(/[’]/g, "'").replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');
}
