import { randomUUID } from 'node:crypto';
import type { Caller, Deps } from '../deps.js';
import { DomainError, InsufficientBalance, PartnerFailure, Unavailable, unprocessable } from '../errors.js';
import { saveAnswerWithin } from '../access/idempotency.js';
import { debit, type Charge } from '../billing/ledger.js';
import type { Tx } from '../../db/knex.js';
import { checkEmailCopy, recordBatchMailings, mailingRow } from '../mailings/create.js';
import { prepareMailing, type PreparedMailing } from '../mailings/prepare.js';
import { logger } from '../../lib/logger.js';
import { mapBounded } from '../../lib/bounded.js';
import { insertBatch, toBatch, type BatchRow, type MailingBatch } from './batches.js';
import { rowMailingRequest, type BatchRequest } from './request.js';
import { batchWorkflowInput } from './workflow-input.js';
import { assertSenderVerified } from '../developers/sender-identity.js';
import type { RequestWarning } from '../catalogue/compatibility.js';

/** One row's result in a batch report: what POST /v1/mailings would have answered for it. */
export interface BatchRowReport {
  index: number;
  reference: string | null;
  ok: boolean;
  /** The row's list price (what a live key pays), when valid. */
  amountCents: number | null;
  warnings: RequestWarning[];
  /** The 422 a single mailing would get: its code, message and details. */
  error: { code: string; message: string; details?: unknown } | null;
}

/** The answer of a dry run (and the details of a refused batch): every row, and the total. */
export interface BatchReport {
  valid: boolean;
  rowCount: number;
  invalidCount: number;
  /** The sum of the valid rows' list prices: what a live key is debited, once, for the batch. */
  amountCents: number;
  rows: BatchRowReport[];
}

/** Rows checked at once: each may ask the directory or the address base (their own rate caps apply). */
const CHECKS_AT_ONCE = 8;

/**
 * Every row through the checks of POST /v1/mailings (prepareMailing: the postal norm, a recipient
 * by SIRET, the send date, the letter, the address base), the same 422 reasons row by row. An
 * outage (the directory or Temporal unreachable) is the batch's answer, not a row's.
 * `onRowChecked` hears how many rows are checked so far (the developer space's progress).
 */
export async function checkBatch(
  deps: Deps,
  caller: Caller,
  batch: BatchRequest,
  onRowChecked?: (checkedCount: number) => void,
): Promise<{ report: BatchReport; prepared: (PreparedMailing | null)[] }> {
  let checkedCount = 0;
  const checked = await mapBounded(batch.rows, CHECKS_AT_ONCE, async (_row, index) => {
    try {
      const prepared = await prepareMailing(deps, rowMailingRequest(batch, index), caller.addressCheckDefault, caller.accountId, caller.postalSettings);
      checkEmailCopy(prepared.request);
      return { prepared, error: null };
    } catch (error) {
      if (!(error instanceof DomainError) || error instanceof PartnerFailure || error instanceof Unavailable) throw error;
      return {
        prepared: null,
        error: { code: error.code ?? 'unprocessable', message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) },
      };
    } finally {
      onRowChecked?.(++checkedCount);
    }
  });
  const rows: BatchRowReport[] = checked.map(({ prepared, error }, index) => ({
    index,
    reference: batch.rows[index]!.reference ?? null,
    ok: prepared !== null,
    amountCents: prepared?.price.amountCents ?? null,
    warnings: prepared?.letter.warnings ?? [],
    error,
  }));
  const invalidCount = rows.filter((r) => !r.ok).length;
  const amountCents = rows.reduce((sum, r) => sum + (r.amountCents ?? 0), 0);
  return { report: { valid: invalidCount === 0, rowCount: rows.length, invalidCount, amountCents, rows }, prepared: checked.map((c) => c.prepared) };
}

/**
 * The batch's debit, referencing the batch: one entry of its mode's unit; an electronic batch's
 * letters as `mailing.electronic`, and the paper price its fallback holds, if any, as a second
 * entry `mailing.fallback_hold` (each mailing refunds its own hold when unused, as a single one).
 */
async function debitBatch(trx: Tx, row: BatchRow, holds: number[]): Promise<Charge> {
  const reference = `batch:${row.id}`;
  if (row.channel !== 'electronic') return debit(trx, row.account_id, `mailing.${row.mode}`, reference, row.amount_cents);
  const held = holds.reduce((sum, cents) => sum + cents, 0);
  const charge = await debit(trx, row.account_id, 'mailing.electronic', reference, row.amount_cents - held);
  return held === 0 ? charge : debit(trx, row.account_id, 'mailing.fallback_hold', reference, held);
}

/**
 * POST /v1/mailing-batches: all or nothing. Every row valid (else 422 batch_invalid with the
 * report) and the balance enough for the total (else 402); then, in one transaction, the total is
 * debited once (one ledger entry, referencing the batch), the batch and every mailing are recorded
 * (normal mailings, `batch` set) and, under an Idempotency-Key, the answer. The batch workflow
 * then starts the mailings' workflows (workflows/batch.ts); if that start fails, the reconciler
 * starts both the mailings and the batch (domain/batches/reconcile.ts).
 */
export async function createBatch(deps: Deps, caller: Caller, batch: BatchRequest): Promise<MailingBatch> {
  const { report, prepared } = await checkBatch(deps, caller, batch);
  if (!report.valid)
    throw unprocessable(`${report.invalidCount} of ${report.rowCount} rows cannot be sent; nothing was created or charged.`, report, 'batch_invalid');
  const test = caller.mode === 'test';
  // As for a single live electronic letter: a sender whose identity the provider verified.
  if (!test && batch.channel === 'electronic') await assertSenderVerified(deps, caller.accountId);
  const amountCents = test ? 0 : report.amountCents;
  if (caller.balanceCents < amountCents) throw new InsufficientBalance(amountCents, caller.balanceCents);
  const id = randomUUID();
  const now = new Date();
  const mailings = prepared.map((p) => ({ row: mailingRow(caller, p!, randomUUID(), now, id), ownPdf: p!.ownPdf }));
  const row = {
    id,
    account_id: caller.accountId,
    test,
    mode: batch.mode,
    channel: batch.channel ?? 'paper',
    fallback: batch.channel === 'electronic' ? (batch.electronic?.fallback ?? 'none') : null,
    row_count: mailings.length,
    amount_cents: amountCents,
    created_at: now,
    finished_at: null,
  };
  const answer = toBatch(row, { paid: mailings.length });
  const charge = await deps.db.transaction(async (trx) => {
    const paid = test
      ? undefined
      : await debitBatch(
          trx,
          row,
          mailings.map((m) => m.row.fallback_hold_cents),
        );
    await insertBatch(trx, row);
    await recordBatchMailings(trx, mailings);
    await saveAnswerWithin(trx, caller.idempotency, 201, answer);
    return paid;
  });
  if (charge) caller.onBalance?.(charge.balanceCents);
  await deps.workflows.batches
    .start(batchWorkflowInput(deps.config, row))
    .catch((error: unknown) => logger.error({ err: error, batchId: id }, 'batch workflow could not start; the reconciler starts it'));
  return answer;
}
