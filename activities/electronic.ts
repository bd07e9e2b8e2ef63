import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex.js';
import { ELECTRONIC_PROOF_KINDS, type ElectronicProofKind, type ElectronicState } from '../domain/mailings/electronic.js';
import { electronicLetterOf, rememberProviderReference } from '../domain/mailings/electronic-sending.js';
import { recordedSenderOf } from '../domain/developers/sender-identity.js';
import { findOwnPdf } from '../domain/mailings/own-pdf-store.js';
import { claimElectronicSending as claimFiling, recordProof, releaseFilingClaim, type Announced } from '../domain/mailings/projection.js';
import type { LetterDocument } from '../domain/letters/render.js';
import type { NewEvent } from '../domain/webhooks/events.js';
import { ELECTRONIC_REJECTED, NO_NEWS } from '../workflows/contract.js';
import type { BrowserPool } from './pdf/browser.js';
import { whileHeartbeating } from './heartbeats.js';
import { pdfPageCount, printLetter } from './pdf.js';
import { ProviderPendingError, ProviderRejectedError, ProviderUnavailableError, type ElectronicProvider } from './lre/electronic-provider.js';

/** A mailing the workflow names does not exist (or is not electronic): final, never retried. */
const missing = (mailingId: string): ApplicationFailure =>
  ApplicationFailure.nonRetryable(`electronic mailing ${mailingId} does not exist`, 'shipment_missing');

/** The order of the electronic path's states: news is a state further on. */
const ORDER: Record<ElectronicState, number> = { sent: 1, notified: 2, accepted: 3, refused: 3, unclaimed: 3, bounced: 3 };

/**
 * The mailing workflow's activities of the electronic channel (issue 54): thin adapters over the
 * provider (activities/lre/, LRE_PROVIDER) and our records (domain/mailings/electronic-sending.ts).
 */
export function electronicActivities(db: Db, provider: ElectronicProvider, browsers: BrowserPool) {
  /** A catalogue or free letter, printed as the postal filing prints it; one that cannot be laid out is refused for good. */
  const letterPdf = async (layout: LetterDocument | null): Promise<Uint8Array> => {
    if (!layout || typeof layout !== 'object' || !Array.isArray(layout.body))
      throw ApplicationFailure.nonRetryable('the letter has no printable layout', ELECTRONIC_REJECTED);
    const pdf = await printLetter(browsers, layout);
    if (pdfPageCount(pdf) === 0) throw ApplicationFailure.nonRetryable('the printed letter has no page', ELECTRONIC_REJECTED);
    return pdf;
  };

  /** The body of sendElectronicLetter (see there): printed, claimed, sent once. */
  const sendLetter = async (mailingId: string): Promise<'sent' | 'canceled'> => {
    const letter = await electronicLetterOf(db, mailingId);
    if (!letter) throw missing(mailingId);
    // The sandbox stays local: a test mailing never reaches a provider, whatever LRE_PROVIDER says.
    if (letter.test) throw ApplicationFailure.nonRetryable('a test mailing is never sent to an electronic provider', ELECTRONIC_REJECTED);
    const accountId = ((await db('shipments').where({ id: mailingId }).first('account_id')) as { account_id: string }).account_id;
    // The sender whose identity the provider verified (creation refused the letter otherwise).
    const sender = await recordedSenderOf(db, accountId, provider.name);
    if (!sender)
      throw ApplicationFailure.nonRetryable(
        'the account has no sender identity or no billing profile: the electronic letter has no sender to name',
        ELECTRONIC_REJECTED,
      );
    // The customer's own PDF is sent as it is (no address sheet: there is no envelope); other letters are printed.
    const ownPdf = await findOwnPdf(db, mailingId);
    const pdf = ownPdf ? new Uint8Array(ownPdf.pdf) : await letterPdf(letter.layout);
    // The claim: from here a cancellation is refused (the row decides, as for a postal filing).
    if (!(await claimFiling(db, mailingId))) return 'canceled';
    try {
      const news = await provider.send({ mailingId, sender, recipient: letter.recipient, pdf, subject: letter.subject });
      await rememberProviderReference(db, mailingId, news.providerReference);
      return 'sent';
    } catch (error) {
      // Certainly not sent: the mailing stays cancelable while the sending is retried.
      if (error instanceof ProviderRejectedError || error instanceof ProviderUnavailableError) await releaseFilingClaim(db, mailingId);
      if (error instanceof ProviderRejectedError)
        throw ApplicationFailure.nonRetryable(`the electronic provider refuses the letter: ${error.message}`, ELECTRONIC_REJECTED);
      // Benign: nothing was sent, or the provider has it and has not deposited it yet; asked again.
      if (error instanceof ProviderUnavailableError || error instanceof ProviderPendingError)
        throw ApplicationFailure.create({ message: error.message, type: error.name, category: 'BENIGN' });
      throw error;
    }
  };

  return {
    /**
     * Sends a live mailing's electronic letter, once: the provider looks for an earlier sending of
     * the mailing first (its id is the reference), so a retry after a lost answer, a worker killed
     * mid-call or a maintenance answer never makes two. Resolves with the provider's reference once
     * it holds the deposit; a refusal for good is ELECTRONIC_REJECTED (the mailing ends in error,
     * refunded); anything else is retried on the sending schedule. It heartbeats while it lasts: a
     * worker killed mid-call is noticed within the schedule's heartbeat timeout.
     */
    sendElectronicLetter: (mailingId: string): Promise<'sent' | 'canceled'> => whileHeartbeating(() => sendLetter(mailingId)),

    /**
     * Asks the provider once where a sent letter stands. Nothing new since `current` is a benign,
     * retryable failure: the retry policy is the polling schedule (as the postal tracking's).
     */
    async checkElectronicStatus(mailingId: string, current: ElectronicState): Promise<ElectronicState> {
      const news = await provider.status(mailingId);
      if (ORDER[news.state] <= ORDER[current])
        throw ApplicationFailure.create({ message: `no news from the electronic provider since ${current}`, type: NO_NEWS, category: 'BENIGN' });
      return news.state;
    },

    /**
     * The provider's PDF of one proof, stored once (a retried fetch keeps the first) and announced by
     * `event`, its `mailing.proof_available`. Retried while the provider does not hand it yet.
     */
    async publishElectronicProof(mailingId: string, kind: ElectronicProofKind, event: Omit<NewEvent, 'mailing'>): Promise<Announced> {
      if (!ELECTRONIC_PROOF_KINDS.includes(kind)) throw ApplicationFailure.nonRetryable(`${kind} is not an electronic proof`, 'proof_kind');
      const pdf = await provider.proof(mailingId, kind);
      const announced = await recordProof(db, mailingId, kind, pdf, event);
      if (!announced) throw missing(mailingId);
      return announced;
    },
  };
}
