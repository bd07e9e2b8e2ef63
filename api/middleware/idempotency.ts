import type { Context, Next } from 'koa';
import type { Db, Tx } from '../../db/knex.js';
import { ApiError, invalidRequest } from '../errors.js';
import { sha256Hex } from '../../lib/crypto.js';

/** SPEC.md: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
const WINDOW = "interval '24 hours'";
/** A claim whose process died is free again after this long (requests never run this long). */
const LEASE = "interval '5 minutes'";

export interface IdempotencyClaim {
  accountId: string;
  key: string;
  saved: boolean;
}

declare module 'koa' {
  interface DefaultState {
    idempotency?: IdempotencyClaim;
  }
}

/** JSON with sorted keys, so that key order and spacing never make two equal requests differ. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + canonical(v)).join(',') + '}';
  }
  return JSON.stringify(value) ?? 'null';
}

function fingerprint(ctx: Context): string {
  return sha256Hex(`${ctx.method} ${ctx.path}?${ctx.querystring}\n${canonical(ctx.request.body ?? null)}`);
}

type Outcome =
  | { kind: 'acquired' }
  | { kind: 'replay'; status: number; type: string; body: Buffer }
  | { kind: 'mismatch' }
  | { kind: 'running' };

async function acquire(db: Db, accountId: string, key: string, hash: string): Promise<Outcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // Takes the key when it is new, expired, or held by a request that died.
    const { rows } = await db.raw(
      `INSERT INTO idempotency_keys AS i (account_id, key, request_hash, state, locked_until)
       VALUES (?, ?, ?, 'running', now() + ${LEASE})
       ON CONFLICT (account_id, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, state = 'running', locked_until = EXCLUDED.locked_until,
              created_at = now(), response_status = NULL, response_type = NULL, response_body = NULL, response_headers = NULL
        WHERE i.created_at < now() - ${WINDOW} OR (i.state = 'running' AND i.locked_until < now())
       RETURNING 1`,
      [accountId, key, hash],
    );
    if (rows.length > 0) return { kind: 'acquired' };
    const existing = await db('idempotency_keys').where({ account_id: accountId, key }).first();
    if (!existing) continue; // released between our two statements: try again
    if (existing.request_hash !== hash) return { kind: 'mismatch' };
    if (existing.state === 'running') return { kind: 'running' };
    return { kind: 'replay', status: existing.response_status, type: existing.response_type, body: existing.response_body };
  }
  return { kind: 'running' };
}

function serialize(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
}

async function save(db: Db | Tx, claim: IdempotencyClaim, status: number, type: string, body: unknown): Promise<void> {
  await db('idempotency_keys')
    .where({ account_id: claim.accountId, key: claim.key })
    .update({ state: 'done', response_status: status, response_type: type, response_body: serialize(body), locked_until: db.fn.now() });
  claim.saved = true;
}

/**
 * Records the response inside the transaction that performs the request's effects, so that a crash
 * can never leave effects without their stored response (which would let a retry run them twice).
 */
export async function saveResponseWithin(ctx: Context, trx: Tx, status: number, body: unknown, type = 'application/json'): Promise<void> {
  const claim = ctx.state.idempotency;
  if (claim) await save(trx, claim, status, type, body);
}

/**
 * SPEC.md "Idempotency rules" for every POST: replay within 24 h, 422 for another request under
 * the same key, 409 while the first is still running. Keys belong to the account. Only successful
 * responses are kept: a failed request has changed nothing, so it can be retried with its key.
 */
export async function idempotency(ctx: Context, next: Next): Promise<void> {
  const key = ctx.headers['idempotency-key'];
  if (key === undefined) return next();
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw invalidRequest('Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID v4 is recommended).');
  }
  const { db } = ctx.services;
  const accountId = ctx.state.auth!.accountId;
  const outcome = await acquire(db, accountId, key, fingerprint(ctx));
  switch (outcome.kind) {
    case 'mismatch':
      throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different request.');
    case 'running':
      throw new ApiError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still running; retry shortly.');
    case 'replay':
      ctx.status = outcome.status;
      ctx.type = outcome.type;
      ctx.body = outcome.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
  }
  const claim: IdempotencyClaim = { accountId, key, saved: false };
  ctx.state.idempotency = claim;
  try {
    await next();
  } catch (error) {
    await db('idempotency_keys').where({ account_id: accountId, key, state: 'running' }).delete();
    throw error;
  }
  if (claim.saved) return;
  if (ctx.status >= 200 && ctx.status < 300) await save(db, claim, ctx.status, ctx.response.type || 'application/json', ctx.body);
  else await db('idempotency_keys').where({ account_id: accountId, key, state: 'running' }).delete();
}

export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  return db('idempotency_keys').whereRaw(`created_at < now() - ${WINDOW}`).delete();
}
