/**
 * The API's fast path: where it reads a library's internals, or writes around Koa, to spare CPU on
 * every request. Each piece carries the A-B figure that justified it (docs/performance.md, "The fast
 * path"), the versions whose internals it reads are pinned exactly in package.json, and
 * test/unit/fast-path.test.ts fails on an upgrade that changes what it relies on:
 * - firstMatchingRoute reads @koa/router's Layer objects (router.stack: methods, match, params,
 *   captures, stack, path) and sets ctx._matchedRoute as its own dispatch does;
 * - matchedRoute reads that private field back (the metrics' route label);
 * - the header list (addListedHeaders, listHeader, setListedHeaders, answerNow) writes a cached
 *   answer's head in one writeHead instead of Koa's body setters and respond.
 */
import type { Context } from 'koa';
import type Koa from 'koa';
import type Router from '@koa/router';
import type { Layer } from '@koa/router';
import compose from 'koa-compose';

/**
 * The headers every API answer carries (Request-Id, Cache-Control, the rate limit's, the balance),
 * kept as one flat list of names and values until the answer is written. Node writes a list handed
 * to writeHead as it is, whereas each setHeader checks, lower-cases and stores its header, and Koa's
 * body and length setters add their own: a cached GET /v1/mailings/{id} carries nine headers.
 *
 * A header set on the response itself (ctx.set, res.setHeader) wins over the list's: it was set
 * later, by the route (a new balance after a debit, a Retry-After).
 *
 * Adds headers to the list (names it does not hold yet); the request log starts it.
 */
export function addListedHeaders(ctx: Context, ...namesAndValues: string[]): void {
  const list = ctx.state.headers;
  if (list === undefined) ctx.state.headers = namesAndValues;
  else list.push(...namesAndValues);
}

/** Sets a listed header, replacing the list's value of that name if it has one. */
export function listHeader(ctx: Context, name: string, value: string): void {
  const list = ctx.state.headers;
  if (list === undefined) {
    ctx.state.headers = [name, value];
    return;
  }
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === name) {
      list[i + 1] = value;
      return;
    }
  }
  list.push(name, value);
}

/** Before Koa writes an answer: the listed headers the route did not set itself. */
export function setListedHeaders(ctx: Context): void {
  const list = ctx.state.headers;
  if (list === undefined || ctx.res.headersSent) return;
  for (let i = 0; i < list.length; i += 2) if (!ctx.res.hasHeader(list[i]!)) ctx.res.setHeader(list[i]!, list[i + 1]!);
}

/**
 * Writes the answer at once, without Koa's body setters and respond: the hot answers (a cached
 * mailing, the catalogue and its 304). `body` is already serialized; none for a 304.
 */
export function answerNow(ctx: Context, status: number, contentType: string | undefined, body?: string | Buffer): void {
  const res = ctx.res;
  // Koa writes nothing more: the status, headers and body are all written here.
  ctx.respond = false;
  if (contentType !== undefined) addListedHeaders(ctx, 'Content-Type', contentType);
  if (body !== undefined) addListedHeaders(ctx, 'Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  // Nothing set on the response itself: Node takes the whole list in one pass.
  if (res.getHeaderNames().length === 0) res.writeHead(status, ctx.state.headers ?? []);
  else {
    setListedHeaders(ctx);
    res.statusCode = status;
  }
  res.end(body);
}

/**
 * A resource's routes, each with its chain composed once: the first whose path and method match the
 * request runs, with the parameters and route template @koa/router gives (ctx.params,
 * ctx._matchedRoute). @koa/router itself matches every route again and composes the matched chain
 * anew on each request (about a twentieth of a cached GET's CPU); it still answers a request no
 * route takes (ctx.matched for the 405 of allowedMethods).
 */
export function firstMatchingRoute(router: Router): Koa.Middleware {
  const layers = (router.stack as Layer[]).map((layer) => ({ layer, run: compose(layer.stack as Koa.Middleware[]) }));
  const rest = router.routes() as Koa.Middleware;
  return function runRoute(ctx, next) {
    const path = ctx.path;
    for (const { layer, run } of layers) {
      if (!layer.methods.includes(ctx.method) || !layer.match(path)) continue;
      const params = layer.params(path, layer.captures(path));
      ctx.params = params;
      (ctx.request as { params?: Record<string, string> }).params = params;
      (ctx as { _matchedRoute?: string | RegExp })._matchedRoute = layer.path;
      return run(ctx, next);
    }
    return rest(ctx, next);
  };
}

/** The template of the route that took the request (e.g. `/v1/mailings/:id`), as @koa/router records it. */
export function matchedRoute(ctx: Context): string | undefined {
  return (ctx as { _matchedRoute?: string })._matchedRoute;
}
