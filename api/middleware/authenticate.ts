import type { Context, Next } from 'koa';
import { ApiError } from '../errors.js';
import { hashApiKey, KEY_PATTERN } from '../auth/keys.js';
import type { Scope } from '../auth/scopes.js';
import { safeEqual } from '../../lib/crypto.js';

const invalidKey = (): ApiError =>
  new ApiError(401, 'invalid_api_key', 'Provide a valid API key as "Authorization: Bearer svc_test_…" or "svc_live_…".');

export function setBalanceHeader(ctx: Context, balanceCents: number): void {
  ctx.set('X-Service-Balance', String(balanceCents));
}

type Maybe<T> = T | Promise<T>;

/** Continues synchronously with a plain value and asynchronously with a promise. */
function then<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

const UNCOUNTED = { allowed: true, remaining: 0 };

/**
 * Authenticates the key, applies the per-key rate limit and the sandbox daily quota, then checks
 * the operation's scope. The order matters: a throttled client learns nothing more. Cached keys
 * and reserved calls answer synchronously, so the common path creates no promise of its own.
 */
export function authenticate(scope: Scope) {
  return function authenticateKey(ctx: Context, next: Next): Maybe<void> {
    const match = /^Bearer +(\S+)$/.exec(ctx.get('authorization'));
    const key = match?.[1];
    if (!key || !KEY_PATTERN.test(key)) throw invalidKey();
    const { guard, config } = ctx.services;
    const hash = hashApiKey(key);

    return then(guard.findKey(hash), (record) => {
      // The record was found by hash; the constant-time comparison guards against any lookup quirk.
      if (!record || !safeEqual(record.keyHash, hash)) throw invalidKey();
      if (record.revoked) throw new ApiError(401, 'revoked_api_key', 'This API key has been revoked. Create a new key in the developer space.');
      if (record.accountStatus === 'suspended') throw new ApiError(403, 'account_suspended', 'This account is suspended. Contact support.');
      if (record.mode === 'live' && !record.liveEnabled) {
        throw new ApiError(403, 'live_not_enabled', 'Production is not yet open for this account; use a svc_test_ key until the account is validated.');
      }
      const limit = config.rateLimitPerMinute;
      return then(guard.countCall(record.keyId, limit), (rate) => {
        const resetSeconds = 60 - (Math.floor(Date.now() / 1000) % 60);
        ctx.set('RateLimit-Limit', String(limit));
        ctx.set('RateLimit-Remaining', String(rate.remaining));
        ctx.set('RateLimit-Reset', String(resetSeconds));
        setBalanceHeader(ctx, record.balanceCents);
        if (!rate.allowed) {
          ctx.set('Retry-After', String(resetSeconds));
          throw new ApiError(429, 'rate_limited', `More than ${limit} requests per minute for this key. Retry after ${resetSeconds} s.`);
        }
        if (!record.scopes.includes(scope)) {
          throw new ApiError(403, 'insufficient_scope', `This key lacks the "${scope}" scope that this operation requires.`, { required: scope });
        }
        const sandbox = record.mode === 'test' ? guard.countSandboxCall(record.accountId, config.sandboxDailyQuota) : UNCOUNTED;
        return then(sandbox, (day) => {
          if (!day.allowed) {
            throw new ApiError(429, 'test_quota_exceeded', `The sandbox quota of ${config.sandboxDailyQuota} calls per day is used up; it resets at midnight Europe/Paris.`);
          }
          ctx.state.auth = { keyId: record.keyId, accountId: record.accountId, mode: record.mode, scopes: record.scopes, balanceCents: record.balanceCents };
          return next();
        });
      });
    });
  };
}
