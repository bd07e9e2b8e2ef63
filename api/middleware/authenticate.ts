import type { Context, Next } from 'koa';
import type { Socket } from 'node:net';
import { ApiError, tooManyFailures } from '../errors.js';
import { apiKeyDigest, KEY_PATTERN, type KeyRecord } from '../../domain/access/keys.js';
import type { Scope } from '../../domain/access/scopes.js';
import type { CounterResult } from '../../domain/access/leased-counter.js';
import { safeEqualText } from '../../lib/crypto.js';
import { checkStanding } from '../../domain/access/standing.js';
import { addListedHeaders } from '../fast-path.js';

const invalidKey = (): ApiError => new ApiError(401, 'invalid_api_key', 'Provide a valid API key as "Authorization: Bearer svc_test_…" or "svc_live_…".');

/** A failed authentication counts against the client's address. */
function refuse(ctx: Context, error: ApiError): ApiError {
  ctx.services.guard.failedAuth.recordFailure(ctx.ip);
  return error;
}

export function setBalanceHeader(ctx: Context, balanceCents: number): void {
  ctx.set('X-Service-Balance', String(balanceCents));
}

/**
 * The last key each connection presented, with its digest: a keep-alive client sends the same key
 * on every call, and its SHA-256 was the largest part of authentication's CPU. The key lives as long
 * as its connection (not in a process-wide cache), and is compared in constant time: behind a proxy,
 * one connection carries many clients.
 */
const lastKeyOfConnection = new WeakMap<Socket, { key: string; digest: string }>();

function digestOf(socket: Socket, key: string): string {
  const last = lastKeyOfConnection.get(socket);
  if (last !== undefined && safeEqualText(last.key, key)) return last.digest;
  const digest = apiKeyDigest(key);
  lastKeyOfConnection.set(socket, { key, digest });
  return digest;
}

const UNCOUNTED: CounterResult = { allowed: true, remaining: 0 };

/**
 * Authenticates the key, applies the per-key rate limit and the sandbox daily quota, then checks
 * the operation's scope. The order matters: a throttled client learns nothing more.
 *
 * Every call goes through here, so the common path is synchronous: cached keys and reserved calls
 * answer with plain values, and each step below continues at once with a value or after a
 * promise, without allocating a closure per request.
 */
export function authenticate(scope: Scope) {
  return function authenticateKey(ctx: Context, next: Next): void | Promise<void> {
    const { failedAuth } = ctx.services.guard;
    if (!failedAuth.allows(ctx.ip)) throw tooManyFailures(ctx, 'Too many failed authentications from this address; retry in a minute with a valid key.');
    const match = /^Bearer +(\S+)$/.exec(ctx.req.headers.authorization ?? '');
    const key = match?.[1];
    if (!key || !KEY_PATTERN.test(key)) throw refuse(ctx, invalidKey());
    const digest = digestOf(ctx.req.socket, key);
    const record = ctx.services.guard.findKey(digest);
    if (record instanceof Promise) return record.then((found) => checkKey(ctx, next, scope, digest, found));
    return checkKey(ctx, next, scope, digest, record);
  };
}

function checkKey(ctx: Context, next: Next, scope: Scope, digest: string, record: KeyRecord | null): void | Promise<void> {
  // The record was found by digest; the constant-time comparison guards against any lookup quirk.
  if (!record || !safeEqualText(record.keyDigest, digest)) throw refuse(ctx, invalidKey());
  // From here the call is the key's account's, refused or not: it goes to that account's request log.
  ctx.state.caller = record;
  if (record.revoked) throw refuse(ctx, new ApiError(401, 'revoked_api_key', 'This API key has been revoked. Create a new key in the developer space.'));
  // 403 account_suspended or live_not_enabled, as the developer space's sends are refused.
  checkStanding({ suspended: record.accountStatus === 'suspended', liveEnabled: record.liveEnabled }, record.mode);
  const rate = ctx.services.guard.countCall(record.keyId, ctx.services.config.rateLimitPerMinute);
  if (rate instanceof Promise) return rate.then((counted) => checkRate(ctx, next, scope, record, counted));
  return checkRate(ctx, next, scope, record, rate);
}

function checkRate(ctx: Context, next: Next, scope: Scope, record: KeyRecord, rate: CounterResult): void | Promise<void> {
  const { guard, config } = ctx.services;
  const limit = config.rateLimitPerMinute;
  const resetSeconds = 60 - (Math.floor(Date.now() / 1000) % 60);
  // Headers of every authenticated call; a debit's new balance replaces this one (setBalanceHeader).
  addListedHeaders(
    ctx,
    'RateLimit-Limit',
    String(limit),
    'RateLimit-Remaining',
    String(rate.remaining),
    'RateLimit-Reset',
    String(resetSeconds),
    'X-Service-Balance',
    String(record.balanceCents),
  );
  if (!rate.allowed) {
    ctx.set('Retry-After', String(resetSeconds));
    throw new ApiError(429, 'rate_limited', `More than ${limit} requests per minute for this key. Retry after ${resetSeconds} s.`);
  }
  if (!record.scopes.includes(scope)) {
    throw new ApiError(403, 'insufficient_scope', `This key lacks the "${scope}" scope that this operation requires.`, { required: scope });
  }
  const day = record.mode === 'test' ? guard.countSandboxCall(record.accountId, config.sandboxDailyQuota) : UNCOUNTED;
  if (day instanceof Promise) return day.then((counted) => admit(ctx, next, record, counted));
  return admit(ctx, next, record, day);
}

function admit(ctx: Context, next: Next, record: KeyRecord, day: CounterResult): Promise<void> {
  if (!day.allowed) {
    const quota = ctx.services.config.sandboxDailyQuota;
    throw new ApiError(429, 'test_quota_exceeded', `The sandbox quota of ${quota} calls per day is used up; it resets at midnight Europe/Paris.`);
  }
  ctx.services.guard.noteKeyUse(record.keyId);
  const { keyId, accountId, mode, scopes, balanceCents, addressCheckDefault, postalSettings } = record;
  ctx.state.auth = { keyId, accountId, mode, scopes, balanceCents, addressCheckDefault, postalSettings };
  return next();
}
