import type { Db, Tx } from '../../db/knex.js';
import { refund } from '../billing/ledger.js';
import type { LetterDocument } from '../letters/render.js';
import type { DeliveryTarget } from '../webhooks/event-types.js';
import { recordWebhookEvent, type NewEvent } from '../webhooks/events.js';
import { findShipment, type Shipment, type ShipmentRow } from './shipment.js';
import type { Mode, ShipmentStatus } from './states.js';

/**
 * Where a mailing's state is written: the Postgres projection the API reads, moved only by the
 * mailing's workflow (through its activities, activities/mailings.ts). Each write is idempotent:
 * an activity retried after a crash writes nothing twice.
 */

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

/**
 * A move as one transaction: the step, then its event (with the shipment as of that step) and the
 * event's deliveries; a step is never recorded without its announcement. Repeating it creates
 * nothing twice. Undefined when the shipment does not exist.
 */
export function recordMove(
  db: Db,
  record: StepRecord,
  event: Omit<NewEvent, 'mailing'>,
): Promise<{ shipment: Shipment; deliveries: DeliveryTarget[] } | undefined> {
  return db.transaction(async (trx) => {
    await writeStep(trx, record);
    const found = await findShipment(trx, record.shipmentId, false);
    if (!found) return undefined;
    const deliveries = await recordWebhookEvent(trx, { ...event, mailing: found.shipment });
    return { shipment: found.shipment, deliveries };
  });
}

/**
 * A paid shipment ends (canceled, or in error) at its last step with its amount credited back, in
 * one transaction that locks its row. A cancellation also needs that no filing attempt may have
 * reached the operator. True when it has ended so (now or before).
 */
export function endPaidShipment(db: Db, end: EndOfPaidShipment, status: 'canceled' | 'error'): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = (await trx('shipments').where({ id: end.shipmentId }).forUpdate().first()) as (ShipmentRow & { filing_claimed_at: Date | null }) | undefined;
    if (!row || row.status !== 'paid') return row?.status === status;
    if (status === 'canceled' && row.filing_claimed_at) return false;
    await trx('shipments').where({ id: end.shipmentId }).update({ status, step: end.step, updated_at: end.at });
    await trx('shipment_events').insert({ shipment_id: end.shipmentId, step: end.step, status, at: end.at }).onConflict(['shipment_id', 'step']).ignore();
    if (row.amount_cents > 0) {
      await refund(trx, row.account_id, { amountCents: row.amount_cents, balanceCents: 0, ledgerEntryId: null }, `mailing.${row.mode}`, row.id);
    }
    return true;
  });
}

/** What filing needs of a shipment: its state, mode, number and the letter's layout. */
export interface FilingCandidate {
  status: ShipmentStatus;
  mode: Mode;
  trackingNumber: string;
  layout: LetterDocument | null;
}

export async function filingCandidate(db: Db, shipmentId: string): Promise<FilingCandidate | undefined> {
  const row = (await db('shipments').where({ id: shipmentId }).first('status', 'mode', 'tracking_number', 'layout')) as
    (Pick<ShipmentRow, 'status' | 'mode' | 'tracking_number'> & { layout: LetterDocument | null }) | undefined;
  return row && { status: row.status, mode: row.mode, trackingNumber: row.tracking_number, layout: row.layout };
}

/**
 * The claim of a filing attempt, in one short statement: the row decides whether this attempt may
 * reach the operator or a cancellation came first. False when the shipment is canceled.
 */
export async function claimFiling(db: Db, shipmentId: string): Promise<boolean> {
  const claimed = await db('shipments')
    .where({ id: shipmentId })
    .whereNot({ status: 'canceled' })
    .update({ filing_claimed_at: db.raw('coalesce(filing_claimed_at, now())') });
  return claimed > 0;
}

/** Released when the operator certainly did not take the letter: a paid mailing stays cancelable while filing is retried. */
export async function releaseFilingClaim(db: Db, shipmentId: string): Promise<void> {
  await db('shipments').where({ id: shipmentId, status: 'paid' }).update({ filing_claimed_at: null });
}
