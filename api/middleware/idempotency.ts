import type { Context, Next } from 'koa';
import { ApiError, badRequest } from '../errors.js';
import { sha256Hex } from '../../lib/crypto.js';
import { claimKey, releaseKey, saveAnswer, type IdempotencyClaim } from '../../domain/access/idempotency.js';

/** SPEC.md: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

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

/**
 * SPEC.md "Idempotency rules" for every POST: replay within 24 h, 422 for another request under
 * the same key, 409 while the first is still running. Keys belong to the account. Only successful
 * responses are kept: a failed request has changed nothing, so it can be retried with its key.
 */
export async function idempotency(ctx: Context, next: Next): Promise<void> {
  const key = ctx.headers['idempotency-key'];
  if (key === undefined) return next();
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID v4 is recommended).');
  }
  const { db } = ctx.services;
  const accountId = ctx.state.auth!.accountId;
  const outcome = await claimKey(db, accountId, key, fingerprint(ctx));
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
  const { claim } = outcome;
  ctx.state.idempotency = claim;
  try {
    await next();
  } catch (error) {
    await releaseKey(db, claim);
    throw error;
  }
  if (claim.saved) return;
  if (ctx.status >= 200 && ctx.status < 300) await saveAnswer(db, claim, ctx.status, ctx.response.type || 'application/json', ctx.body);
  else await releaseKey(db, claim);
}
