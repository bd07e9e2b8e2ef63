import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex.js';
import type { NewEvent } from '../domain/webhooks/events.js';
import { abandonRecord } from '../domain/mailings/create.js';
import {
  announceCreation,
  claimFiling,
  endPaidMailing,
  filingCandidate,
  operatorReference,
  recordOperatorNews,
  recordMove,
  recordProof,
  releaseFilingClaim,
  type Announced,
  type EndOfPaidMailing,
  type FiledWithNews,
  type MoveWithEvent,
  type ProofWithEvent,
  type StepRecord,
} from '../domain/mailings/projection.js';
import { findMailing, type Mailing } from '../domain/mailings/mailing.js';
import { isAhead, PROOF_LABELS, STATUS_LABELS, type Mode, type ProofKind, type MailingStatus } from '../domain/mailings/states.js';
import { OperatorPendingError, OperatorRejectedError, OperatorUnavailableError, type PostalOperator } from './operator/postal-operator.js';
import { logger } from '../lib/logger.js';
import { FILING_REJECTED, NO_NEWS } from '../workflows/contract.js';
import type { BrowserPool } from './pdf/browser.js';
import { pdfPageCount, printLetter } from './pdf.js';
import { proofHtml } from './pdf/proof-html.js';
import { OwnPdfCompositionError, printOwnPdf } from './pdf/own-pdf.js';
import { findOwnPdf, type StoredOwnPdf } from '../domain/mailings/own-pdf-store.js';
import type { LetterDocument } from '../domain/letters/render.js';
import { whileHeartbeating } from './heartbeats.js';

/** The operators a worker can reach: the simulator always, Maileva when configured; `live` takes new letters. */
export interface PostalOperators {
  simulator: PostalOperator;
  maileva?: PostalOperator;
  live: PostalOperator;
}

/** `ApplicationFailure.type` of a filing the operator has but has not accepted yet (benign, retried). */
const OPERATOR_PENDING = 'operator_pending';

/** A mailing the workflow names does not exist: final, never retried. */
const missing = (mailingId: string): ApplicationFailure => ApplicationFailure.nonRetryable(`shipment ${mailingId} does not exist`, 'shipment_missing');

/** What the postal operator's calls count for the worker's metrics (worker/metrics.ts); nothing when metrics are off. */
export interface OperatorCounters {
  /** A filing attempt that failed and will be tried again: `unavailable`, `pending` (not accepted yet) or `error`. */
  filingRetry(reason: 'unavailable' | 'pending' | 'error'): void;
  /** A call to the operator that failed other than with a refusal or a benign "not yet". */
  operatorError(operator: string, call: 'file' | 'tracking'): void;
}

const UNCOUNTED: OperatorCounters = { filingRetry: () => undefined, operatorError: () => undefined };

/** The mailing workflow's activities: thin adapters over the projection (domain/mailings/projection.ts), the printer and the postal operator. */
export function mailingActivities(db: Db, operators: PostalOperators, browsers: BrowserPool, counters: OperatorCounters = UNCOUNTED) {
  /** The operator that took a letter (its name is kept with the mailing); the simulator for letters filed before names were. */
  const operatorNamed = (name: string | null): PostalOperator => {
    const operator = name === 'maileva' ? operators.maileva : operators.simulator;
    if (!operator) throw new Error(`this worker has no ${name} operator configured (POSTAL_OPERATOR)`);
    return operator;
  };

  /** A catalogue or free letter, laid out and printed; one that cannot be laid out or prints nothing will never be filed: no retry. */
  async function printLayout(layout: LetterDocument | null): Promise<Uint8Array> {
    if (!layout || typeof layout !== 'object' || !Array.isArray(layout.body))
      throw ApplicationFailure.nonRetryable('the letter has no printable layout', FILING_REJECTED);
    const pdf = await printLetter(browsers, layout);
    if (pdfPageCount(pdf) === 0) throw ApplicationFailure.nonRetryable('the printed letter has no page', FILING_REJECTED);
    return pdf;
  }

  /**
   * An own PDF after its address: checked at creation, so a composition that fails is final (no
   * retry); the browser failing to print the address is retried like any printing.
   */
  async function composedOwnPdf(stored: StoredOwnPdf, row: Parameters<typeof printOwnPdf>[2]): Promise<Uint8Array> {
    try {
      return await printOwnPdf(browsers, stored, row);
    } catch (error) {
      if (error instanceof OwnPdfCompositionError) throw ApplicationFailure.nonRetryable(error.message, FILING_REJECTED);
      throw error;
    }
  }

  /** Our proof, printed: read with the letter's document (an own PDF's proof names the file posted by its SHA-256). */
  async function printOurProof(mailingId: string, kind: ProofKind): Promise<Uint8Array> {
    const found = await findMailing(db, mailingId, true);
    if (!found) throw missing(mailingId);
    const { document, ...mailing } = found.shipment;
    return browsers.print(proofHtml(mailing, kind, PROOF_LABELS[kind], STATUS_LABELS, document));
  }

  /**
   * Prints a proof (the operator's own document when it has one: deposit proof, AR scan; else
   * ours), makes it available and records its event, with the mailing that now lists it.
   */
  async function publish(mailingId: string, { kind, event }: ProofWithEvent): Promise<Announced> {
    const { operator: name, mode } = await operatorReference(db, mailingId);
    const theirs = name && mode ? await operatorNamed(name).proof(mailingId, mode, kind) : undefined;
    const announced = await recordProof(db, mailingId, kind, theirs ?? (await printOurProof(mailingId, kind)), event);
    if (!announced) throw missing(mailingId);
    return announced;
  }

  /** What the operator reports of a filed letter now, what it told along the way kept beside the mailing. */
  async function operatorReport(operator: PostalOperator, mailingId: string, mode: Mode): Promise<MailingStatus> {
    const news = await operator.trackingStatus(mailingId, mode).catch((error: unknown) => {
      counters.operatorError(operator.name, 'tracking');
      throw error;
    });
    const charged = await recordOperatorNews(db, mailingId, news);
    if (charged && news.postageCents !== undefined && news.postageCents > charged.amountCents)
      logger.warn(
        { shipmentId: mailingId, postageCents: news.postageCents, chargedCents: charged.amountCents },
        'the operator charges more for this letter than we did',
      );
    return news.status;
  }

  /**
   * The first tracking question, asked by the filing that just succeeded (one activity fewer per
   * mailing): the status reported past `printed`, or null. The letter is filed whatever this
   * answers: a failed question is left to the tracking polls, never to a retry of the filing.
   */
  async function newsAfterFiling(operator: PostalOperator, mailingId: string, mode: Mode): Promise<MailingStatus | null> {
    try {
      const reported = await operatorReport(operator, mailingId, mode);
      return isAhead(mode, reported, 'printed') ? reported : null;
    } catch (error) {
      logger.warn({ shipmentId: mailingId, err: error }, 'the first tracking question after filing failed: the polls ask again');
      return null;
    }
  }

  async function snapshot(mailingId: string): Promise<Mailing> {
    const found = await findMailing(db, mailingId, false);
    if (!found) throw missing(mailingId);
    return found.shipment;
  }

  return {
    /** The mailing as webhooks carry it (no letter content). */
    shipmentSnapshot: snapshot,

    /**
     * The workflow starts before the API records the mailing: until that commits, it is not
     * visible. Retryable; if it never appears, the recording failed.
     */
    async committedShipment(mailingId: string): Promise<Mailing> {
      const found = await findMailing(db, mailingId, false);
      if (!found) throw ApplicationFailure.retryable(`shipment ${mailingId} is not committed (yet)`, 'shipment_not_committed');
      return found.shipment;
    },

    /**
     * committedShipment for a new mailing, and its `mailing.created` recorded with the record as
     * read (domain/mailings/projection.ts): one local activity where there were two, the shortest
     * way from the API's answer to the first webhook. Retryable until the record is committed.
     */
    async announceCommittedShipment(mailingId: string, event: Omit<NewEvent, 'mailing' | 'type' | 'endpointsCreatedBy'>): Promise<Announced> {
      const announced = await announceCreation(db, mailingId, event);
      if (!announced) throw ApplicationFailure.retryable(`shipment ${mailingId} is not committed (yet)`, 'shipment_not_committed');
      return announced;
    },

    /**
     * The workflow gives up on a mailing whose record never came: it writes the tombstone, unless
     * the record won the race (then the mailing exists and the workflow goes on).
     */
    abandonShipment: (mailingId: string): Promise<'abandoned' | 'recorded'> => abandonRecord(db, mailingId),

    /**
     * A move in one statement: the step, its event (with the mailing as of that step) and the
     * event's deliveries; a step is never recorded without its announcement. Repeating it
     * creates nothing twice. Returns the mailing and the deliveries to start.
     */
    async recordMove(record: StepRecord, event: Omit<NewEvent, 'mailing'>): Promise<Announced> {
      const recorded = await recordMove(db, record, event);
      if (!recorded) throw missing(record.shipmentId);
      return recorded;
    },

    /**
     * Several moves reported together (the operator's one report), in one call: each as recordMove,
     * in order, so each event carries the mailing as of its step. A retry records nothing twice.
     */
    async recordMoves(moves: MoveWithEvent[]): Promise<Announced[]> {
      const recorded: Announced[] = [];
      for (const { record, event } of moves) {
        const announced = await recordMove(db, record, event);
        if (!announced) throw missing(record.shipmentId);
        recorded.push(announced);
      }
      return recorded;
    },

    /**
     * Files the printed letter with the postal operator. No transaction spans the printing or the
     * operator call: the row decides, in one short statement, whether this attempt may send (the
     * claim) or a cancellation came first. A claim is released when the operator certainly
     * refused, so a paid mailing stays cancelable while filing is retried. It heartbeats while it
     * lasts: a worker killed mid-call is noticed within the schedule's heartbeat timeout.
     */
    fileWithOperator: (mailingId: string, options: { readNews?: boolean } = {}): Promise<'filed' | 'canceled' | FiledWithNews> =>
      whileHeartbeating(async (): Promise<'filed' | 'canceled' | FiledWithNews> => {
        const row = await filingCandidate(db, mailingId);
        if (!row) throw missing(mailingId);
        if (row.status === 'canceled') return 'canceled';
        // The sandbox stays local: a test mailing never reaches an operator, whatever POSTAL_OPERATOR says.
        if (row.test) throw ApplicationFailure.nonRetryable('a test mailing is never filed with a postal operator', FILING_REJECTED);
        const operator = row.operator ? operatorNamed(row.operator) : operators.live;
        // The customer's own PDF is what is posted (after our address sheet): it is not laid out again.
        const ownPdf = await findOwnPdf(db, mailingId);
        const pdf = ownPdf ? await composedOwnPdf(ownPdf, row) : await printLayout(row.layout);
        if (!(await claimFiling(db, mailingId, operator.name))) return 'canceled';
        try {
          const { mode, trackingNumber, title, sender, recipient, options } = row;
          await operator.file({ shipmentId: mailingId, mode, trackingNumber, pdf, title, sender, recipient, options });
        } catch (error) {
          const notTaken = error instanceof OperatorUnavailableError || error instanceof OperatorRejectedError;
          if (notTaken) await releaseFilingClaim(db, mailingId);
          if (error instanceof OperatorRejectedError)
            throw ApplicationFailure.nonRetryable(`the postal operator refuses the letter: ${error.message}`, FILING_REJECTED);
          // Benign: the operator has the letter and has not accepted it yet; asked again on the filing schedule.
          if (error instanceof OperatorPendingError) {
            counters.filingRetry('pending');
            throw ApplicationFailure.create({ message: error.message, type: OPERATOR_PENDING, category: 'BENIGN' });
          }
          counters.filingRetry(error instanceof OperatorUnavailableError ? 'unavailable' : 'error');
          counters.operatorError(operator.name, 'file');
          throw error;
        }
        if (!options.readNews) return 'filed';
        return { filed: true, reported: await newsAfterFiling(operator, mailingId, row.mode) };
      }),

    /**
     * Asks the operator once for news of a filed letter. Nothing new is a benign, retryable
     * failure: the activity's retry policy is the polling schedule, so no slot is held between
     * two questions and the workflow's history does not grow with each one. `watching: 'return'`:
     * a posted simple letter whose returns are handled digitally, for which only `returned` is news.
     */
    async checkOperatorStatus(mailingId: string, mode: Mode, current: MailingStatus, watching?: 'return'): Promise<MailingStatus> {
      const { operator: name } = await operatorReference(db, mailingId);
      const reported = await operatorReport(operatorNamed(name), mailingId, mode);
      // A posted simple letter whose returns are handled digitally (options.returnedMail): only its return is news.
      if (watching === 'return') {
        if (reported === 'returned') return reported;
        throw ApplicationFailure.create({ message: `no return reported since ${current}`, type: NO_NEWS, category: 'BENIGN' });
      }
      if (!isAhead(mode, reported, current))
        throw ApplicationFailure.create({ message: `no news from the postal operator since ${current}`, type: NO_NEWS, category: 'BENIGN' });
      return reported;
    },

    /**
     * Cancels a mailing that is still paid and whose filing may not have reached the operator,
     * and credits its amount back, in one transaction. False when it is too late.
     */
    cancelShipment: (input: EndOfPaidMailing): Promise<boolean> => endPaidMailing(db, input, 'canceled'),

    /**
     * Ends a paid mailing whose letter can never be filed: `error` at the last step, the amount
     * credited back, in one transaction. False when it already moved on (nothing is changed).
     */
    failShipment: (input: EndOfPaidMailing): Promise<boolean> => endPaidMailing(db, input, 'error'),

    /**
     * Prints a proof (filing, delivery or return), makes it available and records `event`, its
     * `mailing.proof_available`, with the mailing that now lists it: the workflow only starts the
     * deliveries (no local activity after the printing).
     */
    publishProof: (mailingId: string, kind: ProofKind, event: Omit<NewEvent, 'mailing'>): Promise<Announced> => publish(mailingId, { kind, event }),

    /**
     * The proofs of several moves reported together, in one call: each as publishProof, in order
     * (a retry prints again only those not stored yet: recordProof keeps the first).
     */
    async publishProofs(mailingId: string, proofs: ProofWithEvent[]): Promise<Announced[]> {
      const published: Announced[] = [];
      for (const proof of proofs) published.push(await publish(mailingId, proof));
      return published;
    },
  };
}
