/**
 * The API's fast path: where it writes around Koa's idiom to spare CPU on every request. Its A-B
 * figure is in docs/performance.md ("The fast path"): without it, a 304's CPU was 1.30 × and a cached
 * mailing's 1.21 × (2026-11-28, `npm run bench -- front-door` on both builds). It reads no library's
 * internals: `ctx.respond = false` is Koa's documented way out of its response handling, and a flat
 * array of names and values is a form Node's `writeHead` documents.
 * - the header list (addListedHeaders, listHeader, setListedHeaders, answerNow) writes a cached
 *   answer's head in one writeHead instead of Koa's body setters and respond.
 */
import type { Context } from 'koa';

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
