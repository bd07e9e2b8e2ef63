import type { Context } from 'koa';
import type { WorkflowStartOptions } from '@temporalio/client';
import { randomInt, randomUUID } from 'node:crypto';
import { ApiError, serviceUnavailable } from '../../api/errors.js';
import { debit, insufficientBalance, type Charge } from '../billing/ledger.js';
import type { Knex } from 'knex';
import type { Db, Tx } from '../../db/knex.js';
import { setBalanceHeader } from '../../api/middleware/authenticate.js';
import { logger } from '../../lib/logger.js';
import { ACCOUNT_ID, MAILING_MODE, MAILING_REFERENCE, MAILING_STATUS, MAILING_TEST } from '../../lib/search-attributes.js';
import type { MailingRequest } from '../../api/schemas/mailings.js';
import { addressProblems } from './addresses.js';
import { prepareLetter } from './letter.js';
import { toShipment, type PostalAddress, type Shipment, type ShipmentRow } from './shipment.js';
import { lastStep } from './states.js';
import { priceOf } from '../billing/prices.js';
import { saveResponseWithin } from '../../api/middleware/idempotency.js';

/** What the mailing workflow is started with (workflows/mailing.ts). */
export interface MailingWorkflowInput {
  shipmentId: string;
  accountId: string;
  mode: MailingRequest['mode'];
  test: boolean;
  /** Delays between webhook attempts (WEBHOOK_RETRY_DELAYS), passed on to every delivery. */
  webhookRetryDelaysMs: number[];
}

const START_DEADLINE_MS = 5000;
/** Bound on each recording statement; the workflow waits far longer for the record (workflows/mailing.ts). */
const RECORD_TIMEOUT_MS = 5000;

/** A French registered-mail style number: two letters then 11 digits. */
function trackingNumber(): string {
  return 'SV' + Array.from({ length: 11 }, () => randomInt(10)).join('');
}

export function mailingWorkflowId(shipmentId: string): string {
  return `mailing-${shipmentId}`;
}

/** How a mailing workflow starts: its id, input and the search attributes operators look it up by. */
export function mailingWorkflowOptions(input: MailingWorkflowInput, reference: string, taskQueue: string): WorkflowStartOptions {
  return {
    taskQueue,
    workflowId: mailingWorkflowId(input.shipmentId),
    args: [input],
    typedSearchAttributes: [
      { key: ACCOUNT_ID, value: input.accountId },
      { key: MAILING_REFERENCE, value: reference },
      { key: MAILING_MODE, value: input.mode },
      { key: MAILING_STATUS, value: 'paid' },
      { key: MAILING_TEST, value: input.test },
    ],
  };
}

/**
 * The shipment and its first event, in one statement. The mailing workflow is already running and
 * waits for this row: the caller bounds the statement (RECORD_TIMEOUT_MS), long before it gives up.
 */
function insertShipment(runner: Db | Tx, row: ShipmentRow & { layout: unknown }): Knex.Raw {
  const shipment = runner('shipments').insert({ ...row, updated_at: row.created_at }).returning('id');
  return runner.raw(`WITH s AS (?) INSERT INTO shipment_events (shipment_id, step, status, at) SELECT id, 0, 'paid', ? FROM s`, [shipment, row.created_at]);
}

/**
 * Records the mailing: the debit (live keys), the shipment with its first event and, under an
 * Idempotency-Key, the answer, all committed together. A test mailing without a key is a single
 * statement, with no transaction round trips.
 */
async function recordMailing(ctx: Context, row: ShipmentRow & { layout: unknown }, answer: Shipment): Promise<Charge | undefined> {
  const { db } = ctx.services;
  if (row.test && !ctx.state.idempotency) {
    await insertShipment(db, row).timeout(RECORD_TIMEOUT_MS, { cancel: true });
    return undefined;
  }
  return db.transaction(async (trx) => {
    await trx.raw(`SET LOCAL statement_timeout = ${RECORD_TIMEOUT_MS}`);
    const charge = row.test ? undefined : await debit(trx, row.account_id, `mailing.${row.mode}`, row.id);
    await insertShipment(trx, row);
    // Under an Idempotency-Key, the answer commits with the mailing: a retry after a crash
    // replays it and can never post the letter twice.
    await saveResponseWithin(ctx, trx, 201, answer);
    return charge;
  });
}

/**
 * POST /v1/mailings: checks, then the workflow starts, then the mailing is recorded (and paid for).
 * The workflow waits for the record and ends if it never comes, so no order of failures leaves a
 * paid mailing without its workflow. Starting first also keeps the database transaction (and the
 * account row it locks) as short as a few statements, rather than a network call to Temporal.
 */
export async function createMailing(ctx: Context, request: MailingRequest): Promise<Shipment> {
  const { temporal, config } = ctx.services;
  const auth = ctx.state.auth!;
  const problems = [...addressProblems(request.sender, 'sender'), ...(request.recipient ? addressProblems(request.recipient, 'recipient') : [])];
  if (problems.length) throw new ApiError(422, 'address_invalid', `Invalid postal address: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems);
  const letter = prepareLetter(request);
  if (request.options.emailCopy && !request.recipientEmail) {
    throw new ApiError(422, 'recipient_email_required', 'options.emailCopy sends an electronic copy to the recipient: recipientEmail is required.', { field: 'recipientEmail' });
  }

  const id = randomUUID();
  const test = auth.mode === 'test';
  const price = test ? 0 : priceOf(`mailing.${request.mode}`);
  // The balance known to authentication is current (every change is announced), so a short balance
  // is refused before anything starts; the debit when recording stays the authority.
  if (auth.balanceCents < price) throw insufficientBalance(price, auth.balanceCents);
  const now = new Date();
  const row: ShipmentRow & { layout: unknown } = {
    id,
    account_id: auth.accountId,
    test,
    mode: request.mode,
    status: 'paid',
    step: 0,
    last_step: lastStep(request.mode),
    title: letter.title,
    sender: request.sender as PostalAddress,
    recipient: letter.recipient,
    recipient_email: request.recipientEmail ?? null,
    reference: request.reference ?? '',
    options: request.options,
    document: letter.document,
    layout: letter.layout,
    amount_cents: price,
    tracking_number: trackingNumber(),
    created_at: now,
  };
  const input: MailingWorkflowInput = { shipmentId: id, accountId: auth.accountId, mode: request.mode, test, webhookRetryDelaysMs: config.webhookRetryDelaysMs };
  // The response is what is being written: no need to read it back.
  const shipment = toShipment(row, [{ step: 0, status: 'paid', at: now }], [], true);
  try {
    await temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      temporal.workflow.start('mailing', mailingWorkflowOptions(input, request.reference ?? '', config.taskQueue)),
    );
  } catch (error) {
    logger.error({ err: error, shipmentId: id }, 'mailing workflow could not start; nothing was recorded or charged');
    throw serviceUnavailable('The mailing could not be queued; nothing was charged. Please retry.');
  }
  let charge: Charge | undefined;
  try {
    charge = await recordMailing(ctx, row, shipment);
  } catch (error) {
    // Nothing was recorded or charged; the workflow, finding no record, ends by itself. When the
    // refusal is certain (a 402 from the debit rolls the transaction back), it is ended now.
    if (error instanceof ApiError) {
      await temporal.workflow
        .getHandle(mailingWorkflowId(id))
        .terminate(`not recorded: ${error.code}; nothing was charged`)
        .catch((failure: unknown) => logger.warn({ err: failure, shipmentId: id }, 'could not end the workflow of a refused mailing; it ends by itself'));
    }
    throw error;
  }
  if (charge) setBalanceHeader(ctx, charge.balanceCents);
  return shipment;
}
