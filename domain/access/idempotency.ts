import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import type { KeyMode } from './scopes.js';
import { refund, type Charge } from '../billing/ledger.js';
import type { PriceUnit } from '../billing/prices.js';

/** A debit waiting for its answer to be stored (see recordCharge). */
interface PendingCharge extends Charge {
  unit: PriceUnit;
  reference: string | null;
}

/**
 * The idempotency store (SPEC.md "Idempotency rules"): one row per account, mode and key, holding the
 * request's fingerprint while it runs, then its answer for 24 hours.
 */
const WINDOW = "interval '24 hours'";

export interface IdempotencyClaim {
  accountId: string;
  /** Keys of test and live calls are apart: the same key in the other mode is another request. */
  mode: KeyMode;
  key: string;
  /** This claim's own token (idempotency_keys.claim_token): the request's later writes name it. */
  token: string;
  saved: boolean;
}

export type ClaimOutcome =
  { kind: 'acquired'; claim: IdempotencyClaim } | { kind: 'replay'; status: number; type: string; body: Buffer } | { kind: 'mismatch' } | { kind: 'running' };

/**
 * Takes the key for a request with this fingerprint, or says why not (replay, another request, still
 * running). The claim lasts `leaseMs` (IDEMPOTENCY_LEASE): a claim whose process died is free again then.
 */
export async function claimKey(db: Db, owner: { accountId: string; mode: KeyMode }, key: string, fingerprint: string, leaseMs: number): Promise<ClaimOutcome> {
  const { accountId, mode } = owner;
  const token = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    // Takes the key when it is new, expired, or held by a request that died.
    const { rows } = await db.raw(
      `INSERT INTO idempotency_keys AS i (account_id, mode, key, request_hash, state, locked_until, claim_token)
       VALUES (?, ?, ?, ?, 'running', now() + ?::int * interval '1 millisecond', ?)
       ON CONFLICT (account_id, mode, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, state = 'running', locked_until = EXCLUDED.locked_until, claim_token = EXCLUDED.claim_token,
              created_at = now(), response_status = NULL, response_type = NULL, response_body = NULL, response_headers = NULL
        WHERE i.created_at < now() - ${WINDOW} OR (i.state = 'running' AND i.locked_until < now())
       RETURNING charge`,
      [accountId, mode, key, fingerprint, leaseMs, token],
    );
    if (rows.length > 0) {
      const claim = { accountId, mode, key, token, saved: false };
      // Taken over from a request that died after paying and before its answer was stored.
      const orphan = rows[0].charge as PendingCharge | null;
      if (orphan) await refundOrphan(db, claim, orphan);
      return { kind: 'acquired', claim };
    }
    const existing = await db('idempotency_keys').where({ account_id: accountId, mode, key }).first();
    if (!existing) continue; // released between our two statements: try again
    if (existing.request_hash !== fingerprint) return { kind: 'mismatch' };
    if (existing.state === 'running') return { kind: 'running' };
    return { kind: 'replay', status: existing.response_status, type: existing.response_type, body: existing.response_body };
  }
  return { kind: 'running' };
}

function serialize(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
}

/** The row of a claim while this claim holds it: not once a retry has taken the key over. */
const heldClaim = (db: Db | Tx, claim: IdempotencyClaim) =>
  db('idempotency_keys').where({ account_id: claim.accountId, mode: claim.mode, key: claim.key, claim_token: claim.token });

/**
 * Extends a running claim's lease by `leaseMs` from now: the API renews the claim of a request
 * while it runs, so that only a claim whose process died (or stalled past its whole lease) is
 * ever taken over. False when it was lost already.
 */
export async function renewClaim(db: Db, claim: IdempotencyClaim, leaseMs: number): Promise<boolean> {
  const updated = await heldClaim(db, claim)
    .andWhere({ state: 'running' })
    .update({ locked_until: db.raw(`now() + ?::int * interval '1 millisecond'`, [leaseMs]) });
  return updated > 0;
}

/**
 * Runs `work` with its claim renewed every third of the lease: a request that outlasts
 * IDEMPOTENCY_LEASE (a batch of thousands of new addresses waits on the address base's rate cap)
 * keeps its key, and the lease only says how soon the key of a request whose process died is free.
 */
export async function whileClaimed<T>(db: Db, claim: IdempotencyClaim, leaseMs: number, work: () => Promise<T>): Promise<T> {
  const renew = (): void =>
    void renewClaim(db, claim, leaseMs).then(
      (held) => held || logger.warn({ key: claim.key }, 'idempotency claim lost while its request ran: its answer will not be stored'),
      (error: unknown) => logger.warn({ err: error, key: claim.key }, 'idempotency claim not renewed (tried again at the next third of its lease)'),
    );
  const timer = setInterval(renew, Math.max(100, Math.floor(leaseMs / 3)));
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Stores the answer of a claimed request. */
export async function saveAnswer(db: Db | Tx, claim: IdempotencyClaim, status: number, type: string, body: unknown): Promise<void> {
  const updated = await heldClaim(db, claim).update({
    state: 'done',
    response_status: status,
    response_type: type,
    response_body: serialize(body),
    locked_until: db.fn.now(),
    charge: null,
  });
  // The claim was taken over (its lease expired) or purged: the answer is not stored, say so.
  if (updated === 0) throw new Error(`the idempotency claim ${claim.key} was lost before its answer was stored`);
  claim.saved = true;
}

/**
 * Stores the answer inside the transaction that performs the request's effects, so that a crash
 * can never leave effects without their stored answer (which would let a retry run them twice).
 */
export async function saveAnswerWithin(trx: Tx, claim: IdempotencyClaim | undefined, status: number, body: unknown, type = 'application/json'): Promise<void> {
  if (claim) await saveAnswer(trx, claim, status, type, body);
}

/**
 * Records the debit of a paid request done outside the database with its claim, in the debit's
 * own transaction: until the answer is stored, whoever takes the claim over refunds it.
 */
export async function recordCharge(trx: Tx, claim: IdempotencyClaim, charge: PendingCharge): Promise<void> {
  const updated = await heldClaim(trx, claim).update({ charge: JSON.stringify(charge) });
  // Taken over meanwhile: the debit's transaction fails, so that only the taker pays.
  if (updated === 0) throw new Error(`the idempotency claim ${claim.key} was lost before its charge was recorded`);
}

/** Forgets the charge of a claim whose request has refunded it itself. */
export async function clearCharge(db: Db | Tx, claim: IdempotencyClaim): Promise<void> {
  await heldClaim(db, claim).update({ charge: null });
}

async function refundOrphan(db: Db, claim: IdempotencyClaim, charge: PendingCharge): Promise<void> {
  await db.transaction(async (trx) => {
    // Only once, whoever takes the claim over first.
    const cleared = await heldClaim(trx, claim).whereNotNull('charge').update({ charge: null });
    if (cleared > 0) await refund(trx, claim.accountId, charge, charge.unit, charge.reference);
  });
}

/** Frees the key of a request that failed: it changed nothing, so it may be retried with its key. */
export async function releaseKey(db: Db, claim: IdempotencyClaim): Promise<void> {
  // Never the claim of a retry that took the key over.
  await heldClaim(db, claim).andWhere({ state: 'running' }).delete();
}

export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  return db('idempotency_keys').whereRaw(`created_at < now() - ${WINDOW}`).delete();
}
