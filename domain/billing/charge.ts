import type { Context } from 'koa';
import type { Tx } from '../../db/knex.js';
import { setBalanceHeader } from '../../api/middleware/authenticate.js';
import { debit, refund, type Charge } from './ledger.js';
import type { PriceUnit } from './prices.js';
import { respondWithin } from '../../api/respond.js';

function isLive(ctx: Context): boolean {
  return ctx.state.auth!.mode === 'live';
}

/**
 * Work whose effects are database writes: the debit and the work commit together or not at all.
 * Test keys run the work without any debit.
 */
export async function payWithin<T>(ctx: Context, unit: PriceUnit, work: (trx: Tx) => Promise<T>, reference: string | null = null): Promise<T> {
  const { db } = ctx.services;
  const accountId = ctx.state.auth!.accountId;
  return db.transaction(async (trx) => {
    if (isLive(ctx)) {
      const charge = await debit(trx, accountId, unit, reference);
      setBalanceHeader(ctx, charge.balanceCents);
    }
    return work(trx);
  });
}

/**
 * Work outside the database (a partner call, a PDF): debited first, credited back if it fails,
 * so nothing is billed for a failed call.
 */
export async function payThen<T>(ctx: Context, unit: PriceUnit, work: () => Promise<T>, reference: string | null = null): Promise<T> {
  if (!isLive(ctx)) return work();
  const { db } = ctx.services;
  const accountId = ctx.state.auth!.accountId;
  const charge: Charge = await db.transaction((trx) => debit(trx, accountId, unit, reference));
  setBalanceHeader(ctx, charge.balanceCents);
  try {
    return await work();
  } catch (error) {
    setBalanceHeader(ctx, await refund(db, accountId, charge, unit, reference));
    throw error;
  }
}

/**
 * A response computed in memory (calculations), paid by `unit`. The debit and the stored
 * idempotent response commit together; a test call without Idempotency-Key needs no database.
 */
export async function respondPaid(ctx: Context, unit: PriceUnit, status: number, body: unknown): Promise<void> {
  if (!isLive(ctx) && !ctx.state.idempotency) {
    ctx.status = status;
    ctx.body = body;
    return;
  }
  await payWithin(ctx, unit, (trx) => respondWithin(ctx, trx, status, body));
}
