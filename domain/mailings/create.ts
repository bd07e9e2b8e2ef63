import { randomInt, randomUUID } from 'node:crypto';
import { preparedQuery, type Db, type Tx } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import type { Config } from '../../lib/config.js';
import type { MailingCreated, MailingStart, MailingWorkflowInput } from './workflow-input.js';
import type { MailingRequest } from './request.js';
import type { Caller, Deps } from '../deps.js';
import { DomainError, InsufficientBalance, serviceUnavailable, unprocessable } from '../errors.js';
import { saveAnswerWithin } from '../access/idempotency.js';
import { debit, type Charge } from '../billing/ledger.js';
import { RECORD_STATEMENT_TIMEOUT_MS } from './creation-protocol.js';
import type { PreparedOwnPdf } from './own-pdf-letter.js';
import { putOwnPdf, storeOwnPdfs } from './own-pdf-store.js';
import { prepareMailing, type PreparedMailing } from './prepare.js';
import { toMailing, type PostalAddress, type Mailing, type MailingRow } from './mailing.js';
import { ELECTRONIC_LAST_STEP, lastStep } from './states.js';
import { newMailingElectronic } from './electronic-request.js';
import { fallbackHoldOf } from './pricing.js';
import { assertSenderVerified } from '../developers/sender-identity.js';
import { mailingEventKey } from '../webhooks/event-types.js';
import { recordMailingEvents, webhookEventStatement, withEventSql, type NewEvent } from '../webhooks/events.js';

/** What a mailing's workflow is started with, at creation or when the reconciler resumes it. */
export function mailingWorkflowInput(
  config: Config,
  mailing: Pick<MailingWorkflowInput, 'shipmentId' | 'accountId' | 'mode' | 'test' | 'sendAt' | 'electronic' | 'returnedMail'>,
): MailingWorkflowInput {
  const { sendAt, electronic, ...rest } = mailing;
  return {
    ...rest,
    // Only when given: a mailing sent at once starts with the input it always had.
    ...(sendAt ? { sendAt } : {}),
    // Only for the electronic channel: a paper mailing's input is as it always was.
    ...(electronic ? { electronic } : {}),
    webhookRetryDelaysMs: config.webhookRetryDelaysMs,
    operatorPollMs: config.operatorPollMs,
    testIdleLimitMs: config.testMailingIdleLimitMs,
    trackingSilenceLimitMs: config.trackingSilenceLimitMs,
  };
}

/** A mailing as recorded: its row, the letter's layout (printing reads it), and the fallback hold debited with it (docs/billing.md). */
export type NewMailingRow = MailingRow & { layout: unknown; fallback_hold_cents: number };

/** A French registered-mail style number: two letters then 11 digits. */
function trackingNumber(): string {
  return 'SV' + Array.from({ length: 11 }, () => randomInt(10)).join('');
}

/** What a new mailing's `mailing.created` carries: the mailing as recorded, without its letter (as a workflow reads it). */
function createdMailing(row: MailingRow): Mailing {
  return toMailing(row, [{ step: 0, status: 'paid', at: row.created_at }], [], false);
}

/** A new mailing's `mailing.created`: to the endpoints declared by its creation. */
function createdEvent(row: MailingRow): NewEvent & { mailing: Mailing } {
  return {
    eventKey: mailingEventKey(row.id, 'mailing.created', 0),
    type: 'mailing.created',
    accountId: row.account_id,
    livemode: !row.test,
    created: row.created_at.toISOString(),
    mailing: createdMailing(row),
    endpointsCreatedBy: row.created_at.toISOString(),
  };
}

/**
 * The mailing, its first step and its `mailing.created` with the event's deliveries, in one
 * statement: the event recording's (domain/webhooks/events.ts), with the mailing's writes added.
 * It is the event the workflow would record (same id, same endpoints: those declared by the
 * mailing's creation), so that a workflow started with it schedules its first attempts at once
 * (input `created`; docs/decisions.md, "Webhook deliveries"), and one started without it finds it
 * recorded. A mailing's workflow may already be running and waiting for this row: the caller
 * bounds the statement (RECORD_STATEMENT_TIMEOUT_MS), long before it gives up. Returns the event
 * as a workflow starts with it: the mailing as recorded and the deliveries to start.
 */
async function insertMailing(runner: Db | Tx, row: NewMailingRow, bounded: boolean): Promise<MailingCreated> {
  const created = createdEvent(row);
  const { mailing } = created;
  const event = webhookEventStatement(created);
  const values = [...event.parameters, ...NEW_MAILING_COLUMNS.map((column) => newMailingValue(row, column))];
  const rows = await preparedQuery<{ id: string; endpoint_id: string }>(
    runner,
    'record-mailing',
    RECORD_MAILING_SQL,
    values,
    bounded ? { timeoutMs: RECORD_STATEMENT_TIMEOUT_MS } : {},
  );
  return { mailing, deliveries: event.deliveries(rows) };
}

/** The columns a new mailing is recorded with (mailingRow's, and its first update time). */
const NEW_MAILING_COLUMNS = [
  'id',
  'account_id',
  'test',
  'mode',
  'status',
  'step',
  'last_step',
  'title',
  'sender',
  'recipient',
  'recipient_email',
  'reference',
  'options',
  'document',
  'warnings',
  'layout',
  'amount_cents',
  'tracking_number',
  'created_at',
  'send_at',
  'batch_id',
  'channel',
  'electronic',
  'fallback_hold_cents',
  'updated_at',
] as const;

function newMailingValue(row: NewMailingRow, column: (typeof NEW_MAILING_COLUMNS)[number]): unknown {
  // A JS array would be sent as a Postgres array: jsonb takes its JSON text.
  if (column === 'warnings') return JSON.stringify(row.warnings);
  if (column === 'updated_at') return row.created_at;
  return row[column] ?? null;
}

/**
 * insertMailing's statement: the event's CTEs (domain/webhooks/events.ts, $1–$10), then the
 * mailing's record row (it conflicts with a workflow that already gave up on it: mailing_records),
 * the mailing ($11 on) and its first step.
 */
const RECORD_MAILING_SQL = (() => {
  const first = 11;
  const placeholders = NEW_MAILING_COLUMNS.map((_, i) => `$${first + i}`);
  const at = placeholders[NEW_MAILING_COLUMNS.indexOf('created_at')];
  return withEventSql(`mailing_record AS (INSERT INTO mailing_records (shipment_id, outcome) VALUES ($${first}, 'recorded')),
  new_shipment AS (INSERT INTO shipments (${NEW_MAILING_COLUMNS.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id),
  first_step AS (INSERT INTO shipment_events (shipment_id, step, status, at) SELECT id, 0, 'paid', ${at} FROM new_shipment)`);
})();

/**
 * The workflow gives up on a mailing whose record never came: the tombstone, which makes a late
 * record fail, unless the record won the race (then the mailing exists and the workflow goes on).
 */
export async function abandonRecord(db: Db, mailingId: string): Promise<'abandoned' | 'recorded'> {
  const { rows } = await db.raw(
    `INSERT INTO mailing_records (shipment_id, outcome) VALUES (?, 'abandoned') ON CONFLICT (shipment_id) DO NOTHING RETURNING outcome`,
    [mailingId],
  );
  return rows.length ? 'abandoned' : 'recorded';
}

/**
 * Records the mailing: the debit (live keys), the mailing with its first step and its
 * `mailing.created` and, under an Idempotency-Key, the answer, all committed together. A test
 * mailing without a key is a single statement, with no transaction round trips.
 */
async function recordMailing(
  db: Db,
  caller: Caller,
  row: NewMailingRow,
  answer: Mailing,
  ownPdf?: PreparedOwnPdf,
): Promise<{ charge?: Charge; created: MailingCreated }> {
  if (row.test && !caller.idempotency && !ownPdf) return { created: await insertMailing(db, row, true) };
  return db.transaction(async (trx) => {
    await trx.raw(`SET LOCAL statement_timeout = ${RECORD_STATEMENT_TIMEOUT_MS}`);
    const charge = row.test ? undefined : await debitMailing(trx, row);
    const created = await insertMailing(trx, row, false);
    if (ownPdf) await storeOwnPdfs(trx, [{ shipmentId: row.id, stored: ownPdf.stored }]);
    // Under an Idempotency-Key, the answer commits with the mailing: a retry after a crash
    // replays it and can never post the letter twice.
    await saveAnswerWithin(trx, caller.idempotency, 201, answer);
    return { charge, created };
  });
}

/**
 * A live mailing's debit, in the transaction that records it. Paper: the mode's unit. Electronic:
 * `mailing.electronic`, and with a paper fallback its hold as a second entry, `mailing.fallback_hold`
 * (docs/billing.md), so that each is refunded under its own unit.
 */
async function debitMailing(trx: Tx, row: NewMailingRow): Promise<Charge> {
  if (row.channel !== 'electronic') return debit(trx, row.account_id, `mailing.${row.mode}`, row.id, row.amount_cents);
  const hold = row.fallback_hold_cents;
  const charge = await debit(trx, row.account_id, 'mailing.electronic', row.id, row.amount_cents - hold);
  if (hold === 0) return charge;
  const held = await debit(trx, row.account_id, 'mailing.fallback_hold', row.id, hold);
  return { amountCents: charge.amountCents + held.amountCents, balanceCents: held.balanceCents, ledgerEntryId: held.ledgerEntryId };
}

/** What starts a recorded mailing's workflow (at creation, before an update, by the reconciler). */
export function mailingStart(
  config: Config,
  row: Pick<MailingRow, 'id' | 'account_id' | 'mode' | 'test' | 'send_at' | 'channel' | 'electronic'> & {
    reference: string | null;
    options?: MailingRow['options'] | null;
  },
): MailingStart {
  const electronic = row.channel === 'electronic' && row.electronic ? { fallback: row.electronic.fallback } : undefined;
  return {
    input: mailingWorkflowInput(config, {
      shipmentId: row.id,
      accountId: row.account_id,
      mode: row.mode,
      test: row.test,
      sendAt: row.send_at ?? undefined,
      electronic,
      ...(row.mode === 'simple' && row.options?.returnedMail === 'digital' ? { returnedMail: 'digital' as const } : {}),
    }),
    reference: row.reference ?? '',
  };
}

/** options.emailCopy needs an address to send the copy to (422 recipient_email_required). */
export function checkEmailCopy(request: PreparedMailing['request']): void {
  if (request.options.emailCopy && !request.recipientEmail) {
    throw unprocessable(
      'options.emailCopy sends an electronic copy to the recipient: recipientEmail is required.',
      { field: 'recipientEmail' },
      'recipient_email_required',
    );
  }
}

/** The mailing row of a checked request (a test key pays nothing), as recorded. */
export function mailingRow(
  caller: Pick<Caller, 'accountId' | 'mode'>,
  { request, letter, price }: PreparedMailing,
  id: string,
  now: Date,
  batchId: string | null = null,
): NewMailingRow {
  const test = caller.mode === 'test';
  const electronic = newMailingElectronic(request);
  return {
    id,
    account_id: caller.accountId,
    test,
    mode: request.mode,
    status: 'paid',
    step: 0,
    // An electronic mailing's last step is 3 until its paper fallback begins, if it does (./states.ts).
    last_step: electronic ? ELECTRONIC_LAST_STEP : lastStep(request.mode),
    title: letter.title,
    sender: request.sender as PostalAddress,
    recipient: letter.recipient,
    recipient_email: request.recipientEmail ?? null,
    reference: request.reference ?? '',
    options: request.options,
    document: letter.document,
    warnings: letter.warnings,
    layout: letter.layout,
    amount_cents: test ? 0 : price.amountCents,
    tracking_number: trackingNumber(),
    created_at: now,
    send_at: request.sendAt ?? null,
    batch_id: batchId,
    channel: electronic ? 'electronic' : 'paper',
    electronic,
    fallback_hold_cents: test ? 0 : fallbackHoldOf(price),
  };
}

/**
 * The mailings of a batch, in the transaction that records (and pays for) the batch: the mailings,
 * their first steps, their records, own PDFs and `mailing.created` with its deliveries (as a
 * single mailing's, so that the batch starts each workflow with its event: domain/batches/batches.ts),
 * a few statements for any number of rows.
 */
export async function recordBatchMailings(trx: Tx, mailings: { row: NewMailingRow; ownPdf?: PreparedOwnPdf }[]): Promise<void> {
  const CHUNK = 500;
  for (let i = 0; i < mailings.length; i += CHUNK) {
    const part = mailings.slice(i, i + CHUNK);
    await trx('shipments').insert(part.map(({ row }) => ({ ...row, warnings: JSON.stringify(row.warnings), updated_at: row.created_at })));
    await trx('mailing_records').insert(part.map(({ row }) => ({ shipment_id: row.id, outcome: 'recorded' })));
    await trx('shipment_events').insert(part.map(({ row }) => ({ shipment_id: row.id, step: 0, status: 'paid', at: row.created_at })));
    await recordMailingEvents(
      trx,
      part.map(({ row }) => createdEvent(row)),
    );
    await storeOwnPdfs(
      trx,
      part.flatMap(({ row, ownPdf }) => (ownPdf ? [{ shipmentId: row.id, stored: ownPdf.stored }] : [])),
    );
  }
}

/**
 * POST /v1/mailings: checks, then the mailing is recorded (and paid for) and its workflow started,
 * in one of two orders, so that no order of failures leaves a paid mailing without its workflow:
 * - Temporal connected (the usual case): the record (with the mailing's `mailing.created`)
 *   commits, the answer goes, and the workflow starts right after, with the event (DESIGN.md
 *   §1). The answer does not wait for Temporal; a start that keeps failing (the process dies,
 *   Temporal goes down) is made by the reconciler's Schedule.
 * - Temporal not connected, or many starts pending: the workflow starts first, then the record
 *   commits; the workflow waits for it and ends if it never comes (its tombstone then refuses a
 *   late record). An unreachable Temporal is a 503 with nothing recorded or charged.
 * Either way the database transaction (and the account row it locks) stays a few statements long.
 */
export async function createMailing(deps: Deps, caller: Caller, given: MailingRequest): Promise<Mailing> {
  const { db, config } = deps;
  const { mailings } = deps.workflows;
  const prepared = await prepareMailing(deps, given, caller.addressCheckDefault, caller.accountId, caller.postalSettings);
  checkEmailCopy(prepared.request);
  // A live electronic letter names a sender whose identity the provider verified (CPCE R53-1):
  // 422 sender_identity_unverified otherwise, before anything is recorded or charged.
  if (caller.mode === 'live' && prepared.request.channel === 'electronic') await assertSenderVerified(deps, caller.accountId);
  const { ownPdf } = prepared;
  const id = randomUUID();
  const row = mailingRow(caller, prepared, id, new Date());
  const price = row.amount_cents;
  // The balance known to authentication is current (every change is announced), so a short balance
  // is refused before anything starts; the debit when recording stays the authority.
  if (caller.balanceCents < price) throw new InsufficientBalance(price, caller.balanceCents);
  const now = row.created_at;
  const start = mailingStart(config, row);
  // The response is what is being written: no need to read it back.
  const mailing = toMailing(row, [{ step: 0, status: 'paid', at: now }], [], true);
  // In the document store first (DOCUMENT_STORE=s3): a store that is down refuses the mailing (503) before anything starts.
  if (ownPdf) await putOwnPdf(ownPdf.stored);
  if (mailings.readyToStartLater()) {
    const { charge, created } = await recordMailing(db, caller, row, mailing, ownPdf);
    // Its mailing.created recorded with it: the workflow starts with it (nothing to read or write first).
    mailings.startLater({ ...start, input: { ...start.input, created } });
    if (charge) caller.onBalance?.(charge.balanceCents);
    return mailing;
  }
  try {
    await mailings.start(start.input, start.reference);
  } catch (error) {
    logger.error({ err: error, shipmentId: id }, 'mailing workflow could not start; nothing was recorded or charged');
    throw serviceUnavailable('The mailing could not be queued; nothing was charged. Please retry.');
  }
  let charge: Charge | undefined;
  try {
    // The workflow, started without the event, finds it recorded with the mailing.
    ({ charge } = await recordMailing(db, caller, row, mailing, ownPdf));
  } catch (error) {
    // The workflow gave up waiting before the record came (it was too slow) and has ended:
    // its tombstone refused the whole statement, so nothing was committed.
    if ((error as { constraint?: string }).constraint === 'mailing_records_pkey')
      throw serviceUnavailable('The mailing could not be recorded in time; nothing was charged. Please retry.');
    // Nothing was recorded or charged; the workflow, finding no record, ends by itself. When the
    // refusal is certain (a 402 from the debit rolls the transaction back), it is ended now.
    if (error instanceof DomainError) {
      await mailings
        .end(id, `not recorded: ${error.name}; nothing was charged`)
        .catch((failure: unknown) => logger.warn({ err: failure, shipmentId: id }, 'could not end the workflow of a refused mailing; it ends by itself'));
    }
    throw error;
  }
  if (charge) caller.onBalance?.(charge.balanceCents);
  return mailing;
}
