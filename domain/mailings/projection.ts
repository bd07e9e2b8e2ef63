import { preparedQuery, type Db, type Tx } from '../../db/knex.js';
import type { PostalOptionsRequest, ResolvedPostalOptions } from './postal-choices.js';
import type { PostageSpeed } from './postage.js';
import type { ReturnedMail } from './returned-mail.js';
import { refund } from '../billing/ledger.js';
import type { LetterDocument } from '../letters/render.js';
import type { DeliveryTarget } from '../webhooks/event-types.js';
import { recordWebhookEvent, webhookEventStatement, withEventSql, type NewEvent } from '../webhooks/events.js';
import { findMailing, findMailingRow, mailingOfRow, type Mailing, type MailingRow, type MailingViewRowWithHistory } from './mailing.js';
import { storableProof, storeProofCte } from './proofs.js';
import type { PostalAddress } from '../catalogue/catalogue.js';
import type { Mode, ProofKind, MailingStatus } from './states.js';

/**
 * Where a mailing's state is written: the Postgres projection the API reads, moved only by the
 * mailing's workflow (through its activities, activities/mailings.ts). Each write is idempotent:
 * an activity retried after a crash writes nothing twice.
 */

/** Where and when a paid mailing ends (its last step), fixed by the workflow. */
export interface EndOfPaidMailing {
  shipmentId: string;
  step: number;
  at: string;
}

export interface StepRecord {
  shipmentId: string;
  step: number;
  status: MailingStatus;
  /** ISO time of the move, fixed by the workflow so that a retried activity writes the same. */
  at: string;
  /** An electronic mailing whose paper fallback begins with this move: its new last step (7 or 8). */
  lastStep?: number;
  fallbackUsed?: boolean;
  /** An electronic mailing's paper fallback hold, settled with this move: refunded, or kept as the posted letter's charge. */
  hold?: 'refund' | 'charge';
}

/** One of several moves reported together: the step and the event that announces it (recorded in order, see recordMove). */
export interface MoveWithEvent {
  record: StepRecord;
  event: Omit<NewEvent, 'mailing'>;
}

/** A proof to print and announce: its kind and its `mailing.proof_available`. */
export interface ProofWithEvent {
  kind: ProofKind;
  event: Omit<NewEvent, 'mailing'>;
}

/**
 * A move in one statement: the event's CTEs ($1–$10, domain/webhooks/events.ts), then the step
 * ($11 mailing, $12 step, $13 status, $14 time), written once; `step` only ever grows.
 */
const RECORD_MOVE_SQL = withEventSql(`step_event AS (
    INSERT INTO shipment_events (shipment_id, step, status, at) VALUES ($11, $12, $13, $14) ON CONFLICT (shipment_id, step) DO NOTHING
  ),
  moved AS (
    UPDATE shipments SET status = $13, step = $12, updated_at = $14 WHERE id = $11 AND step < $12
  )`);

/** A mailing as recorded, and the deliveries to start of the event that announced it. */
export interface Announced {
  shipment: Mailing;
  deliveries: DeliveryTarget[];
}

/** Records `event` about `shipment` (as read) with its deliveries. */
async function announced(db: Db | Tx, shipment: Mailing, event: Omit<NewEvent, 'mailing'>): Promise<Announced> {
  return { shipment, deliveries: await recordWebhookEvent(db, { ...event, mailing: shipment }) };
}

/** A proof stored with its event: the event's CTEs, then the proof ($11 mailing, $12 kind, $13 PDF, $14 object, $15 its size). */
const RECORD_PROOF_SQL = withEventSql(storeProofCte('$11', '$12', '$13', '$14', '$15'));

/**
 * A change and its event in one statement, so that nothing is recorded without its announcement:
 * the mailing read, then `statement` writes the change and records the event with the mailing
 * as the change leaves it (`change` applies it to the row read, as the statement does). Only the
 * mailing's workflow changes its mailing, one change at a time: nothing writes it between the
 * read and the write. Repeating it creates nothing twice. Undefined when the mailing does not exist.
 */
async function recordChange(
  db: Db | Tx,
  mailingId: string,
  change: (found: MailingViewRowWithHistory) => MailingViewRowWithHistory,
  event: Omit<NewEvent, 'mailing'>,
  statement: { name: string; sql: string; parameters: unknown[] },
): Promise<Announced | undefined> {
  const found = await findMailingRow(db, mailingId);
  if (!found) return undefined;
  const { shipment } = mailingOfRow(change(found), false);
  const recorded = webhookEventStatement({ ...event, mailing: shipment });
  const rows = await preparedQuery<{ id: string; endpoint_id: string }>(db, statement.name, statement.sql, [...recorded.parameters, ...statement.parameters]);
  return { shipment, deliveries: recorded.deliveries(rows) };
}

/**
 * A move: the step (written once; `step` only ever grows, a step already there is kept) and its
 * event, with the mailing as of that step, and the event's deliveries.
 */
export function recordMove(db: Db, record: StepRecord, event: Omit<NewEvent, 'mailing'>): Promise<Announced | undefined> {
  const moved = (found: MailingViewRowWithHistory): MailingViewRowWithHistory => ({
    ...found,
    ...(found.step < record.step ? { status: record.status, step: record.step } : {}),
    ...(record.lastStep !== undefined ? { last_step: Math.max(found.last_step, record.lastStep) } : {}),
    ...(record.fallbackUsed && found.electronic ? { electronic: { ...found.electronic, fallbackUsed: true } } : {}),
    events: found.events.some((e) => e.step === record.step) ? found.events : [...found.events, { step: record.step, status: record.status, at: record.at }],
  });
  const statement = { name: 'record-move', sql: RECORD_MOVE_SQL, parameters: [record.shipmentId, record.step, record.status, record.at] };
  if (record.lastStep === undefined && !record.fallbackUsed && !record.hold) return recordChange(db, record.shipmentId, moved, event, statement);
  // An electronic mailing's fallback or hold: with the move, in one transaction that locks the row.
  return db.transaction(async (trx) => {
    const locked = (await trx('shipments').where({ id: record.shipmentId }).forUpdate().first('id')) as { id: string } | undefined;
    if (!locked) return undefined;
    const announced = await recordChange(trx, record.shipmentId, moved, event, statement);
    if (record.lastStep !== undefined || record.fallbackUsed) {
      await trx('shipments')
        .where({ id: record.shipmentId })
        .update({
          last_step: trx.raw('greatest(last_step, ?)', [record.lastStep ?? 0]),
          ...(record.fallbackUsed ? { electronic: trx.raw(`jsonb_set(electronic, '{fallbackUsed}', 'true')`) } : {}),
        });
    }
    if (record.hold) await settleFallbackHold(trx, record.shipmentId, record.hold === 'refund' ? 'refunded' : 'charged');
    return announced;
  });
}

/**
 * Settles an electronic mailing's paper fallback hold once (its row locked by the caller's
 * transaction): refunded (`mailing.fallback_hold`, the amount held) or kept as the posted letter's
 * charge. A hold already settled, or none (test mailings, no fallback), changes nothing.
 */
async function settleFallbackHold(trx: Tx, mailingId: string, outcome: 'refunded' | 'charged'): Promise<void> {
  const row = (await trx('shipments').where({ id: mailingId }).first('account_id', 'fallback_hold_cents', 'fallback_hold_settled')) as
    { account_id: string; fallback_hold_cents: number; fallback_hold_settled: string | null } | undefined;
  if (!row || row.fallback_hold_cents === 0 || row.fallback_hold_settled) return;
  await trx('shipments').where({ id: mailingId }).update({ fallback_hold_settled: outcome });
  if (outcome === 'refunded')
    await refund(trx, row.account_id, { amountCents: row.fallback_hold_cents, balanceCents: 0, ledgerEntryId: null }, 'mailing.fallback_hold', mailingId);
}

/**
 * A proof made available: stored once (a retried print keeps the first) and announced by `event`
 * (its `mailing.proof_available`) with the mailing that now lists it, and the event's deliveries.
 */
export async function recordProof(
  db: Db,
  mailingId: string,
  kind: ProofKind,
  pdf: Uint8Array,
  event: Omit<NewEvent, 'mailing'>,
): Promise<Announced | undefined> {
  const listed = (found: MailingViewRowWithHistory): MailingViewRowWithHistory =>
    found.proofs.includes(kind) ? found : { ...found, proofs: [...found.proofs, kind] };
  // The object first (DOCUMENT_STORE=s3): the row that names it commits after, or not at all.
  const stored = await storableProof(db, mailingId, kind, pdf);
  const parameters = [mailingId, kind, stored.pdf, stored.objectKey, stored.objectSize];
  return recordChange(db, mailingId, listed, event, { name: 'record-proof', sql: RECORD_PROOF_SQL, parameters });
}

/**
 * A new mailing's record, as its workflow first reads it, and its `mailing.created` in the same
 * call: to the endpoints declared by the time it was created, and only while it is `paid` (nothing
 * is announced of a mailing that already moved on). Undefined while the record is not committed.
 */
export async function announceCreation(
  db: Db,
  mailingId: string,
  event: Omit<NewEvent, 'mailing' | 'type' | 'endpointsCreatedBy'>,
): Promise<Announced | undefined> {
  const found = await findMailing(db, mailingId, false);
  if (!found) return undefined;
  const { shipment: mailing } = found;
  if (mailing.status !== 'paid') return { shipment: mailing, deliveries: [] };
  return announced(db, mailing, { ...event, type: 'mailing.created', endpointsCreatedBy: mailing.createdAt });
}

/**
 * A paid mailing ends (canceled, or in error) at its last step with its amount credited back, in
 * one transaction that locks its row. A cancellation also needs that no filing attempt may have
 * reached the operator. True when it has ended so (now or before).
 */
export function endPaidMailing(db: Db, end: EndOfPaidMailing, status: 'canceled' | 'error'): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = (await trx('shipments').where({ id: end.shipmentId }).forUpdate().first()) as
      (MailingRow & { filing_claimed_at: Date | null; fallback_hold_cents: number; fallback_hold_settled: string | null }) | undefined;
    if (!row || row.status !== 'paid') return row?.status === status;
    if (status === 'canceled' && row.filing_claimed_at) return false;
    await trx('shipments').where({ id: end.shipmentId }).update({ status, step: end.step, updated_at: end.at });
    await trx('shipment_events').insert({ shipment_id: end.shipmentId, step: end.step, status, at: end.at }).onConflict(['shipment_id', 'step']).ignore();
    // An electronic mailing's two debits are refunded under their own units (docs/billing.md).
    const hold = row.fallback_hold_settled ? 0 : row.fallback_hold_cents;
    const price = row.amount_cents - row.fallback_hold_cents;
    if (price > 0) {
      const unit = row.channel === 'electronic' ? 'mailing.electronic' : (`mailing.${row.mode}` as const);
      await refund(trx, row.account_id, { amountCents: price, balanceCents: 0, ledgerEntryId: null }, unit, row.id);
    }
    if (hold > 0) await settleFallbackHold(trx, row.id, 'refunded');
    return true;
  });
}

/** What the filing reads of a mailing's options: printing, and the operator's options resolved at creation (./postal-options.ts). */
export type FilingOptions = { color?: boolean; duplex?: boolean; postage?: PostageSpeed; returnedMail?: ReturnedMail } & ResolvedPostalOptions &
  Pick<PostalOptionsRequest, 'envelopeWindows' | 'printSenderAddress'>;

/** What filing needs of a mailing: its state, mode, number, addresses, options and the letter's layout. */

export interface FilingCandidate {
  status: MailingStatus;
  mode: Mode;
  test: boolean;
  trackingNumber: string;
  title: string;
  sender: PostalAddress;
  recipient: PostalAddress;
  options: FilingOptions;
  layout: LetterDocument | null;
  /** The operator an earlier attempt handed it to, if any. */
  operator: string | null;
}

export async function filingCandidate(db: Db, mailingId: string): Promise<FilingCandidate | undefined> {
  const row = (await db('shipments')
    .where({ id: mailingId })
    .first('status', 'mode', 'test', 'tracking_number', 'title', 'sender', 'recipient', 'options', 'layout', 'operator')) as
    | (Pick<MailingRow, 'status' | 'mode' | 'test' | 'tracking_number' | 'title' | 'sender' | 'recipient' | 'options'> & {
        layout: LetterDocument | null;
        operator: string | null;
      })
    | undefined;
  return (
    row && {
      status: row.status,
      mode: row.mode,
      test: row.test,
      trackingNumber: row.tracking_number,
      title: row.title,
      sender: row.sender,
      recipient: row.recipient,
      options: row.options,
      layout: row.layout,
      operator: row.operator,
    }
  );
}

/**
 * The claim of a filing attempt, in one short statement: the row decides whether this attempt may
 * reach the operator or a cancellation came first, and remembers which operator it goes to (an
 * earlier attempt's operator stays). False when the mailing is canceled.
 */
export async function claimFiling(db: Db, mailingId: string, operator: string): Promise<boolean> {
  const claimed = await db('shipments')
    .where({ id: mailingId })
    .whereNot({ status: 'canceled' })
    .update({ filing_claimed_at: db.raw('coalesce(filing_claimed_at, now())'), operator: db.raw('coalesce(operator, ?)', [operator]) });
  return claimed > 0;
}

/**
 * The claim of an electronic sending attempt (as claimFiling's, without naming a postal operator:
 * a paper fallback is filed with the live one). False when the mailing is canceled.
 */
export async function claimElectronicSending(db: Db, mailingId: string): Promise<boolean> {
  const claimed = await db('shipments')
    .where({ id: mailingId })
    .whereNot({ status: 'canceled' })
    .update({ filing_claimed_at: db.raw('coalesce(filing_claimed_at, now())') });
  return claimed > 0;
}

/** What an operator calls a letter: its sending and recipient ids (null until known). */
export interface OperatorReference {
  sendingId: string | null;
  recipientId: string | null;
}

const OPERATOR_REFERENCE_SQL = 'SELECT operator, operator_sending_id, operator_recipient_id, mode FROM shipments WHERE id = $1';

/**
 * The operator that took a letter (null: the simulator, before operators were recorded), its ids,
 * and the letter's mode (null: no such mailing).
 */
export async function operatorReference(db: Db, mailingId: string): Promise<OperatorReference & { operator: string | null; mode: Mode | null }> {
  // Asked at every tracking poll and proof: prepared.
  const [row] = await preparedQuery<{ operator: string | null; operator_sending_id: string | null; operator_recipient_id: string | null; mode: Mode }>(
    db,
    'operator-reference',
    OPERATOR_REFERENCE_SQL,
    [mailingId],
  );
  return {
    operator: row?.operator ?? null,
    sendingId: row?.operator_sending_id ?? null,
    recipientId: row?.operator_recipient_id ?? null,
    mode: row?.mode ?? null,
  };
}

/** Written before the letter is submitted, so that a retried filing finds the operator's sending. */
export async function rememberOperatorReference(db: Db, mailingId: string, reference: Partial<OperatorReference>): Promise<void> {
  const change: Record<string, string> = {};
  if (reference.sendingId) change.operator_sending_id = reference.sendingId;
  if (reference.recipientId) change.operator_recipient_id = reference.recipientId;
  if (Object.keys(change).length) await db('shipments').where({ id: mailingId }).update(change);
}

/** What an operator reports of a filed letter: its status, and what it tells of it along the way. */
export interface OperatorNews {
  status: MailingStatus;
  /** The postal number (a registered letter's number), once the operator gives it. */
  trackingNumber?: string;
  /** What the operator charges us for the postage, in cents. */
  postageCents?: number;
  /** The envelope format the operator chose from the sheet count (Maileva's output-only `envelope_type`: DL, C4, C6). */
  envelopeType?: string;
}

/**
 * Keeps what the operator told beside the mailing: its postal number replaces ours, its postage
 * is kept beside what we charged. Returns what we charged, for the caller to compare.
 */
export async function recordOperatorNews(db: Db, mailingId: string, news: OperatorNews): Promise<{ amountCents: number } | undefined> {
  const change: Record<string, string | number> = {};
  if (news.trackingNumber) change.tracking_number = news.trackingNumber;
  if (news.postageCents !== undefined) change.operator_postage_cents = news.postageCents;
  if (news.envelopeType) change.operator_envelope_type = news.envelopeType;
  if (!Object.keys(change).length) return undefined;
  const [row] = await db('shipments').where({ id: mailingId }).update(change).returning('amount_cents');
  return row && { amountCents: (row as { amount_cents: number }).amount_cents };
}

/**
 * A filing asked for the operator's news as well (fileWithOperator's `readNews`): filed, and the
 * status the operator reported right after, when it is past `printed` (null: nothing further yet,
 * or the question failed; the tracking polls go on from `printed`).
 */
export interface FiledWithNews {
  filed: true;
  reported: MailingStatus | null;
}

/** Released when the operator certainly did not take the letter: a paid mailing stays cancelable while filing is retried. */
export async function releaseFilingClaim(db: Db, mailingId: string): Promise<void> {
  await db('shipments').where({ id: mailingId, status: 'paid' }).update({ filing_claimed_at: null });
}

/** A live letter's cost as operators see it (admin CLI `mailing costs`): what we charged and what the operator charges us. */
export interface OperatorCost {
  id: string;
  accountId: string;
  mode: Mode;
  status: MailingStatus;
  operator: string | null;
  operatorSendingId: string | null;
  trackingNumber: string;
  chargedCents: number;
  /** Null until the operator has priced the letter. */
  operatorPostageCents: number | null;
  /** The envelope format the operator chose (DL, C4, C6); null until it says. */
  operatorEnvelopeType: string | null;
  createdAt: string;
}

/** The latest live letters (of one account, or of all), newest first, with their operator's postage beside our price. */
export async function operatorCosts(db: Db, options: { accountId?: string; shipmentId?: string; limit: number }): Promise<OperatorCost[]> {
  const query = db('shipments').where({ test: false }).orderBy('created_at', 'desc').limit(options.limit);
  if (options.accountId) query.andWhere({ account_id: options.accountId });
  if (options.shipmentId) query.andWhere({ id: options.shipmentId });
  const rows = (await query.select(
    'id',
    'account_id',
    'mode',
    'status',
    'operator',
    'operator_sending_id',
    'tracking_number',
    'amount_cents',
    'operator_postage_cents',
    'operator_envelope_type',
    'created_at',
  )) as (Pick<MailingRow, 'id' | 'account_id' | 'mode' | 'status' | 'tracking_number' | 'amount_cents' | 'created_at'> & {
    operator: string | null;
    operator_sending_id: string | null;
    operator_postage_cents: number | null;
    operator_envelope_type: string | null;
  })[];
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    status: row.status,
    operator: row.operator,
    operatorSendingId: row.operator_sending_id,
    trackingNumber: row.tracking_number,
    chargedCents: row.amount_cents,
    operatorPostageCents: row.operator_postage_cents,
    operatorEnvelopeType: row.operator_envelope_type,
    createdAt: row.created_at.toISOString(),
  }));
}
