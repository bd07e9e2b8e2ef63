import type { Context } from 'koa';
import { randomInt, randomUUID } from 'node:crypto';
import { ApiError, serviceUnavailable } from '../errors.js';
import { debit, type Charge } from '../billing/ledger.js';
import { setBalanceHeader } from '../middleware/authenticate.js';
import { logger } from '../../lib/logger.js';
import { ACCOUNT_ID, MAILING_MODE, MAILING_REFERENCE, MAILING_STATUS, MAILING_TEST } from '../../lib/search-attributes.js';
import type { MailingRequest } from '../schemas/mailings.js';
import { addressProblems } from './addresses.js';
import { prepareLetter } from './letter.js';
import { toShipment, type PostalAddress, type Shipment, type ShipmentRow } from './shipment.js';
import { lastStep } from './states.js';
import { priceOf } from '../billing/prices.js';
import { saveResponseWithin } from '../middleware/idempotency.js';

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

/** A French registered-mail style number: two letters then 11 digits. */
function trackingNumber(): string {
  return 'SV' + Array.from({ length: 11 }, () => randomInt(10)).join('');
}

export function mailingWorkflowId(shipmentId: string): string {
  return `mailing-${shipmentId}`;
}

/**
 * POST /v1/mailings: checks, then one transaction holds the debit (live keys), the shipment, its
 * first event and the start of its workflow: never paid-and-lost, never started-and-unpaid.
 */
export async function createMailing(ctx: Context, request: MailingRequest): Promise<Shipment> {
  const { db, temporal, config } = ctx.services;
  const auth = ctx.state.auth!;
  const problems = [...addressProblems(request.sender, 'sender'), ...(request.recipient ? addressProblems(request.recipient, 'recipient') : [])];
  if (problems.length) throw new ApiError(422, 'address_invalid', `Invalid postal address: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems);
  const letter = prepareLetter(request);
  if (request.options.emailCopy && !request.recipientEmail) {
    throw new ApiError(422, 'recipient_email_required', 'options.emailCopy sends an electronic copy to the recipient: recipientEmail is required.', { field: 'recipientEmail' });
  }

  const id = randomUUID();
  const test = auth.mode === 'test';
  const unit = `mailing.${request.mode}` as const;
  const now = new Date();
  let charge: Charge | undefined;
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
    amount_cents: test ? 0 : priceOf(unit),
    tracking_number: trackingNumber(),
    created_at: now,
  };
  const input: MailingWorkflowInput = { shipmentId: id, accountId: auth.accountId, mode: request.mode, test, webhookRetryDelaysMs: config.webhookRetryDelaysMs };
  // The response is what is being written: no need to read it back.
  const shipment = toShipment(row, [{ step: 0, status: 'paid', at: now }], [], true);
  try {
    await db.transaction(async (trx) => {
      if (!test) charge = await debit(trx, auth.accountId, unit, id);
      await trx('shipments').insert({ ...row, updated_at: now });
      await trx('shipment_events').insert({ shipment_id: id, step: 0, status: 'paid', at: now });
      // Under an Idempotency-Key, the answer commits with the mailing: a retry after a crash
      // replays it and can never post the letter twice.
      await saveResponseWithin(ctx, trx, 201, shipment);
      // Started before the commit: if Temporal cannot take the mailing, the debit and the shipment
      // roll back; if the commit fails after the start, the workflow finds no shipment and ends.
      await temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
        temporal.workflow.start('mailing', {
          taskQueue: config.taskQueue,
          workflowId: mailingWorkflowId(id),
          args: [input],
          typedSearchAttributes: [
            { key: ACCOUNT_ID, value: auth.accountId },
            { key: MAILING_REFERENCE, value: request.reference ?? '' },
            { key: MAILING_MODE, value: request.mode },
            { key: MAILING_STATUS, value: 'paid' },
            { key: MAILING_TEST, value: test },
          ],
        }),
      );
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    logger.error({ err: error, shipmentId: id }, 'mailing workflow could not start; nothing was recorded or charged');
    throw serviceUnavailable('The mailing could not be queued; nothing was charged. Please retry.');
  }
  if (charge) setBalanceHeader(ctx, charge.balanceCents);
  return shipment;
}
