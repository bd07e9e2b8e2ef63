import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import { logger } from '../../lib/logger.js';

/** Gives each request an id (Request-Id header) and logs one line when it ends; keys are never logged. */
export async function requestLog(ctx: Context, next: Next): Promise<void> {
  const started = performance.now();
  const id = randomUUID();
  ctx.set('Request-Id', id);
  try {
    await next();
  } finally {
    logger.info(
      { requestId: id, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10, account: ctx.state.auth?.accountId },
      'request',
    );
  }
}

/** API responses are private and never cached by intermediaries unless a route says otherwise. */
export async function baseHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  await next();
}
