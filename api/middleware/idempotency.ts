import type { Context, Next } from 'koa';
import { ApiError, badRequest } from '../errors.js';
import { sha256Hex } from '../../lib/crypto.js';
import { claimKey, releaseKey, saveAnswer, whileClaimed, type IdempotencyClaim } from '../../domain/access/idempotency.js';
import { currentBalance } from '../../domain/billing/ledger.js';
import { setBalanceHeader } from './authenticate.js';

/** SPEC.md: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

declare module 'koa' {
  interface DefaultState {
    idempotency?: IdempotencyClaim;
  }
}

/**
 * JSON with sorted keys, so that key order and spacing never make two equal requests differ.
 * Iterative: the body's depth is bounded (jsonBody), but a fingerprint never recurses anyway.
 */
function canonical(root: unknown): string {
  let out = '';
  // Either a value still to write, or text (a closing bracket, a comma) to append.
  const work: ({ value: unknown } | string)[] = [{ value: root }];
  while (work.length) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    const { value } = item;
    if (Array.isArray(value)) {
      out += '[';
      work.push(']');
      for (let i = value.length - 1; i >= 0; i--) {
        work.push({ value: value[i] });
        if (i > 0) work.push(',');
      }
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out += '{';
      work.push('}');
      for (let i = entries.length - 1; i >= 0; i--) {
        work.push({ value: entries[i]![1] });
        work.push(JSON.stringify(entries[i]![0]) + ':');
        if (i > 0) work.push(',');
      }
    } else out += JSON.stringify(value) ?? 'null';
  }
  return out;
}

function fingerprint(ctx: Context): string {
  return sha256Hex(`${ctx.method} ${ctx.path}?${ctx.querystring}\n${canonical(ctx.request.body ?? null)}`);
}

/**
 * SPEC.md "Idempotency rules" for every POST: replay within 24 h, 422 for another request under
 * the same key, 409 while the first is still running. Keys belong to the account and the mode
 * (a test key and a live key never share one). Only successful
 * responses are kept: a failed request has changed nothing, so it can be retried with its key.
 */
export async function idempotency(ctx: Context, next: Next): Promise<void> {
  const key = ctx.headers['idempotency-key'];
  if (key === undefined) return next();
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID v4 is recommended).');
  }
  const { db, config } = ctx.services;
  const outcome = await claimKey(db, ctx.state.auth!, key, fingerprint(ctx), config.idempotencyLeaseMs);
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
      // The balance now, as the first answer gave it after its debit: the key's cached record may
      // not have heard of that debit yet (its change notification is asynchronous).
      setBalanceHeader(ctx, await currentBalance(db, ctx.state.auth!.accountId));
      ctx.services.metrics?.replay();
      return;
  }
  const { claim } = outcome;
  ctx.state.idempotency = claim;
  try {
    // Renewed while it runs: however long the request takes, a retry gets 409 until it ends.
    await whileClaimed(db, claim, config.idempotencyLeaseMs, next);
  } catch (error) {
    await releaseKey(db, claim);
    throw error;
  }
  if (claim.saved) return;
  if (ctx.status >= 200 && ctx.status < 300) await saveAnswer(db, claim, ctx.status, ctx.response.type || 'application/json', ctx.body);
  else await releaseKey(db, claim);
}
