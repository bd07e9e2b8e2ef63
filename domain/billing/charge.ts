import type { Tx } from '../../db/knex.js';
import type { Caller, Deps } from '../deps.js';
import { clearCharge, recordCharge, saveAnswer, saveAnswerWithin } from '../access/idempotency.js';
import { debit, refund, type Charge } from './ledger.js';
import type { PriceUnit } from './prices.js';

/**
 * Where money moves for a paid call. Live keys pay; test keys never do. The new balance is told to
 * the caller (the API answers it in X-Service-Balance).
 */

/**
 * Work whose effects are database writes: the debit and the work commit together or not at all.
 * Test keys run the work without any debit.
 */
export async function payWithin<T>(deps: Deps, caller: Caller, unit: PriceUnit, work: (trx: Tx) => Promise<T>, reference: string | null = null): Promise<T> {
  return deps.db.transaction(async (trx) => {
    if (caller.mode === 'live') {
      const charge = await debit(trx, caller.accountId, unit, reference);
      caller.onBalance?.(charge.balanceCents);
    }
    return work(trx);
  });
}

/** How a result is stored as the idempotent answer: JSON by default. */
export interface StoredAnswer {
  type: string;
  body: unknown;
}
const asJson = (result: unknown): StoredAnswer => ({ type: 'application/json', body: result });

/**
 * Work outside the database (a partner call, a PDF): debited first, credited back if it fails,
 * so nothing is billed for a failed call. Under an Idempotency-Key the answer (status 200) is
 * stored as part of the work: if it cannot be stored, the call fails and is credited back, so a
 * retry never pays twice for an answer it was never given.
 */
export async function payThen<T>(
  deps: Deps,
  caller: Caller,
  unit: PriceUnit,
  work: () => Promise<T>,
  reference: string | null = null,
  answer: (result: T) => StoredAnswer = asJson,
): Promise<T> {
  const storedWork = async (): Promise<T> => {
    const result = await work();
    if (caller.idempotency) {
      const { type, body } = answer(result);
      await saveAnswer(deps.db, caller.idempotency, 200, type, body);
    }
    return result;
  };
  if (caller.mode !== 'live') return storedWork();
  const claim = caller.idempotency;
  const charge: Charge = await deps.db.transaction(async (trx) => {
    const taken = await debit(trx, caller.accountId, unit, reference);
    // Should this process die before the answer is stored, a retry refunds this debit first.
    if (claim) await recordCharge(trx, claim, { ...taken, unit, reference });
    return taken;
  });
  caller.onBalance?.(charge.balanceCents);
  try {
    return await storedWork();
  } catch (error) {
    // The refund and the claim's charge go together: a crash cannot refund it twice.
    const balance = await deps.db.transaction(async (trx) => {
      if (claim) await clearCharge(trx, claim);
      return refund(trx, caller.accountId, charge, unit, reference);
    });
    caller.onBalance?.(balance);
    throw error;
  }
}

/**
 * An answer computed in memory (calculations), paid by `unit`: the debit and the stored
 * idempotent answer commit together. A test call without Idempotency-Key needs no database.
 */
export async function payForAnswer(deps: Deps, caller: Caller, unit: PriceUnit, status: number, body: unknown): Promise<void> {
  if (caller.mode !== 'live' && !caller.idempotency) return;
  await payWithin(deps, caller, unit, (trx) => saveAnswerWithin(trx, caller.idempotency, status, body));
}
