import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import { accessLog } from '../../lib/logger.js';
import { addListedHeaders, setListedHeaders } from '../fast-path.js';

/** The path as logged: a proof link's token is its credential, so it never reaches a log. */
export function loggedPath(path: string): string {
  return path.startsWith('/v1/proof-files/') ? '/v1/proof-files/[redacted]' : path;
}

/**
 * Gives each request an id (Request-Id header) and the headers every response carries, and when
 * the response is sent: logs one line (keys are never logged) and, for a call made with a known key,
 * adds its row to the account's request log (buffered in memory, written in batches: nothing is
 * written to the database on the request path).
 */
export function requestLog(ctx: Context, next: Next): Promise<void> {
  const id = randomUUID();
  // API responses are private and never cached by intermediaries unless a route says otherwise.
  addListedHeaders(ctx, 'Request-Id', id, 'Cache-Control', 'no-store', 'X-Content-Type-Options', 'nosniff');
  const started = performance.now();
  // `on`, not `once`: a response closes once, and once's wrapper and removal cost a few µs per call.
  ctx.res.on('close', () => {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    // Koa's own objects rather than the context's delegating getters: this runs for every request.
    // Node sets the method of every request it hands to the server.
    const method = ctx.req.method!;
    const status = ctx.res.statusCode;
    const path = loggedPath(ctx.request.path);
    const caller = ctx.state.caller;
    if (caller !== undefined) ctx.services.requestLog.add(id, caller.accountId, caller.keyId, caller.mode, method, path, status, ms, Date.now() - ms);
    // The route's template (ctx.routerPath, set by @koa/router): a metric label with few values.
    ctx.services.metrics?.request(method, (ctx as { routerPath?: string }).routerPath, status, ms);
    if (accessLog.enabled) accessLog.write({ requestId: id, method, path, status, ms, account: ctx.state.auth?.accountId });
  });
  // What a route answered through Koa gets the listed headers it did not set itself.
  return next().then(() => setListedHeaders(ctx));
}
