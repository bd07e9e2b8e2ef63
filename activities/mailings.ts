import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db, Tx } from '../db/knex.js';
import { recordWebhookEvent, type NewEvent } from '../domain/webhooks/events.js';
import { refund } from '../domain/billing/ledger.js';
import { findShipment, type Shipment, type ShipmentRow } from '../domain/mailings/shipment.js';
import { isAhead, nextAfter, PROOF_LABELS, STATUS_LABELS, type Mode, type ProofKind, type ShipmentStatus } from '../domain/mailings/states.js';
import type { LetterDocument } from '../domain/letters/render.js';
import { OperatorRejectedError, OperatorUnavailableError, type PostalOperator } from './operator/postal-operator.js';
import { FILING_REJECTED, NO_NEWS, type DeliveryTarget } from '../workflows/contract.js';
import type { BrowserPool } from './pdf/browser.js';
import { pdfPageCount, printLetter } from './pdf.js';
import { proofHtml } from './pdf/proof-html.js';

/** Where and when a paid shipment ends (its last step), fixed by the workflow. */
export interface EndOfPaidShipment {
  shipmentId: string;
  step: number;
  at: string;
}

export interface StepRecord {
  shipmentId: string;
  step: number;
  status: ShipmentStatus;
  /** ISO time of the move, fixed by the workflow so that a retried activity writes the same. */
  at: string;
}

/** Writes a step once; `step` only ever grows. */
async function writeStep(trx: Tx, record: StepRecord): Promise<void> {
  await trx('shipment_events')
    .insert({ shipment_id: record.shipmentId, step: record.step, status: record.status, at: record.at })
    .onConflict(['shipment_id', 'step'])
    .ignore();
  await trx('shipments')
    .where({ id: record.shipmentId })
    .andWhere('step', '<', record.step)
    .update({ status: record.status, step: record.step, updated_at: record.at });
}

/** Where a mailing's state changes: the Postgres projection the API reads, written by the workflow. */
export function mailingActivities(db: Db, operator: PostalOperator, browsers: BrowserPool) {
  async function snapshot(shipmentId: string): Promise<Shipment> {
    const found = await findShipment(db, shipmentId, false);
    if (!found) throw ApplicationFailure.nonRetryable(`shipment ${shipmentId} does not exist`, 'shipment_missing');
    return found.shipment;
  }

  /**
   * A paid shipment ends (canceled, or in error) at its last step with its amount credited back,
   * in one transaction that locks its row. A cancellation also needs that no filing attempt may
   * have reached the operator. True when it has ended so (now or before).
   */
  function endPaidShipment(input: EndOfPaidShipment, status: 'canceled' | 'error'): Promise<boolean> {
    return db.transaction(async (trx) => {
      const row = (await trx('shipments').where({ id: input.shipmentId }).forUpdate().first()) as
        (ShipmentRow & { filing_claimed_at: Date | null }) | undefined;
      if (!row || row.status !== 'paid') return row?.status === status;
      if (status === 'canceled' && row.filing_claimed_at) return false;
      await trx('shipments').where({ id: input.shipmentId }).update({ status, step: input.step, updated_at: input.at });
      await trx('shipment_events')
        .insert({ shipment_id: input.shipmentId, step: input.step, status, at: input.at })
        .onConflict(['shipment_id', 'step'])
        .ignore();
      if (row.amount_cents > 0) {
        await refund(trx, row.account_id, { amountCents: row.amount_cents, balanceCents: 0, ledgerEntryId: null }, `mailing.${row.mode}`, row.id);
      }
      return true;
    });
  }

  return {
    /** The shipment as webhooks carry it (no letter content). */
    shipmentSnapshot: snapshot,

    /**
     * The workflow starts before the API records the shipment: until that commits, it is not
     * visible. Retryable; if it never appears, the recording failed.
     */
    async committedShipment(shipmentId: string): Promise<Shipment> {
      const found = await findShipment(db, shipmentId, false);
      if (!found) throw ApplicationFailure.retryable(`shipment ${shipmentId} is not committed (yet)`, 'shipment_not_committed');
      return found.shipment;
    },

    /**
     * The workflow gives up on a mailing whose record never came: it writes the tombstone, unless
     * the record won the race (then the mailing exists and the workflow goes on).
     */
    async abandonShipment(shipmentId: string): Promise<'abandoned' | 'recorded'> {
      const { rows } = await db.raw(
        `INSERT INTO mailing_records (shipment_id, outcome) VALUES (?, 'abandoned') ON CONFLICT (shipment_id) DO NOTHING RETURNING outcome`,
        [shipmentId],
      );
      return rows.length ? 'abandoned' : 'recorded';
    },

    /**
     * A move as one transaction: the step, then its event (with the shipment as of that step) and
     * the event's deliveries; a step is never recorded without its announcement. Repeating it
     * creates nothing twice. Returns the shipment and the deliveries to start.
     */
    async recordMove(record: StepRecord, event: Omit<NewEvent, 'mailing'>): Promise<{ shipment: Shipment; deliveries: DeliveryTarget[] }> {
      return db.transaction(async (trx) => {
        await writeStep(trx, record);
        const found = await findShipment(trx, record.shipmentId, false);
        if (!found) throw ApplicationFailure.nonRetryable(`shipment ${record.shipmentId} does not exist`, 'shipment_missing');
        const deliveries = await recordWebhookEvent(trx, { ...event, mailing: found.shipment });
        return { shipment: found.shipment, deliveries };
      });
    },

    /** Records a step once (a retry changes nothing) and returns the shipment as of that step. */
    async recordShipmentStep(record: StepRecord): Promise<Shipment> {
      await db.transaction((trx) => writeStep(trx, record));
      return snapshot(record.shipmentId);
    },

    /**
     * Files the printed letter with the postal operator. No transaction spans the printing or the
     * operator call: the row decides, in one short statement, whether this attempt may send (the
     * claim) or a cancellation came first. A claim is released when the operator certainly
     * refused, so a paid mailing stays cancelable while filing is retried.
     */
    async fileWithOperator(shipmentId: string): Promise<'filed' | 'canceled'> {
      const row = (await db('shipments').where({ id: shipmentId }).first('status', 'mode', 'tracking_number', 'layout')) as
        (Pick<ShipmentRow, 'status' | 'mode' | 'tracking_number'> & { layout: LetterDocument }) | undefined;
      if (!row) throw ApplicationFailure.nonRetryable(`shipment ${shipmentId} does not exist`, 'shipment_missing');
      if (row.status === 'canceled') return 'canceled';
      // A letter that cannot be laid out or prints nothing will never be filed: no retry.
      if (!row.layout || typeof row.layout !== 'object' || !Array.isArray(row.layout.body))
        throw ApplicationFailure.nonRetryable('the letter has no printable layout', FILING_REJECTED);
      const pdf = await printLetter(browsers, row.layout);
      if (pdfPageCount(pdf) === 0) throw ApplicationFailure.nonRetryable('the printed letter has no page', FILING_REJECTED);
      const claimed = await db('shipments')
        .where({ id: shipmentId })
        .whereNot({ status: 'canceled' })
        .update({ filing_claimed_at: db.raw('coalesce(filing_claimed_at, now())') });
      if (claimed === 0) return 'canceled';
      try {
        await operator.file({ shipmentId, mode: row.mode, trackingNumber: row.tracking_number, pdf });
      } catch (error) {
        const notTaken = error instanceof OperatorUnavailableError || error instanceof OperatorRejectedError;
        if (notTaken) await db('shipments').where({ id: shipmentId, status: 'paid' }).update({ filing_claimed_at: null });
        if (error instanceof OperatorRejectedError)
          throw ApplicationFailure.nonRetryable(`the postal operator refuses the letter: ${error.message}`, FILING_REJECTED);
        throw error;
      }
      return 'filed';
    },

    /**
     * Asks the operator once for news of a filed letter. Nothing new is a benign, retryable
     * failure: the activity's retry policy is the polling schedule, so no slot is held between
     * two questions and the workflow's history does not grow with each one.
     */
    async checkOperatorStatus(shipmentId: string, mode: Mode, current: ShipmentStatus): Promise<ShipmentStatus> {
      const reported = await operator.trackingStatus(shipmentId, mode);
      if (!isAhead(mode, reported, current))
        throw ApplicationFailure.create({ message: `no news from the postal operator since ${current}`, type: NO_NEWS, category: 'BENIGN' });
      return reported;
    },

    /**
     * Mailings started before the polls wait here, as they always did (heartbeating while the
     * operator says nothing); new ones use checkOperatorStatus.
     */
    async awaitOperatorStatus(shipmentId: string, mode: Mode, current: ShipmentStatus): Promise<ShipmentStatus> {
      const { cancellationSignal } = Context.current();
      for (;;) {
        const reported = await operator.trackingStatus(shipmentId, mode);
        if (isAhead(mode, reported, current)) return nextAfter(mode, current, reported);
        Context.current().heartbeat();
        await sleep(1000, undefined, { signal: cancellationSignal });
      }
    },

    /**
     * Cancels a shipment that is still paid and whose filing may not have reached the operator,
     * and credits its amount back, in one transaction. False when it is too late.
     */
    cancelShipment: (input: EndOfPaidShipment): Promise<boolean> => endPaidShipment(input, 'canceled'),

    /**
     * Ends a paid mailing whose letter can never be filed: `error` at the last step, the amount
     * credited back, in one transaction. False when it already moved on (nothing is changed).
     */
    failShipment: (input: EndOfPaidShipment): Promise<boolean> => endPaidShipment(input, 'error'),

    /** Prints a proof (filing, delivery or return) and makes it available. */
    async generateProof(shipmentId: string, kind: ProofKind): Promise<Shipment> {
      const found = await findShipment(db, shipmentId, false);
      if (!found) throw ApplicationFailure.nonRetryable(`shipment ${shipmentId} does not exist`, 'shipment_missing');
      const html = proofHtml(found.shipment, kind, PROOF_LABELS[kind], STATUS_LABELS);
      const pdf = await browsers.print(html);
      await db('shipment_proofs')
        .insert({ shipment_id: shipmentId, kind, pdf: Buffer.from(pdf) })
        .onConflict(['shipment_id', 'kind'])
        .ignore();
      return snapshot(shipmentId);
    },
  };
}
