import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import { accessLog } from '../../lib/logger.js';

/** The path as logged: a proof link's token is its credential, so it never reaches a log. */
export function loggedPath(path: string): string {
  return path.startsWith('/v1/proof-files/') ? '/v1/proof-files/[redacted]' : path;
}

/**
 * Gives each request an id (Request-Id header) and the headers every response carries, and logs
 * one line when the response is sent; keys are never logged.
 */
export function requestLog(ctx: Context, next: Next): Promise<void> {
  const id = randomUUID();
  // Set on the Node response directly: nothing has been sent yet (see authenticate.ts).
  ctx.res.setHeader('Request-Id', id);
  // API responses are private and never cached by intermediaries unless a route says otherwise.
  ctx.res.setHeader('Cache-Control', 'no-store');
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  if (accessLog.enabled) {
    const started = performance.now();
    ctx.res.once('close', () =>
      accessLog.write({
        requestId: id,
        method: ctx.method,
        path: loggedPath(ctx.path),
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        account: ctx.state.auth?.accountId,
      }),
    );
  }
  return next();
}
