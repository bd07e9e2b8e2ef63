import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import parseJson from 'secure-json-parse';
import { ApiError, badRequest } from '../errors.js';

export const MAX_BODY_BYTES = 1_000_000;
/** No request of the API nests deeper than a few levels; 32 leaves room and bounds every walk of a body. */
export const MAX_BODY_DEPTH = 32;

/** How deep a parsed JSON value nests, walked without recursion (a body may be 1 MB of `[`). */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

const tooLarge = (): ApiError => new ApiError(413, 'payload_too_large', `The request body is larger than 1 MB (${MAX_BODY_BYTES} bytes).`);

/**
 * Reads a JSON body (never more than 1 MB, whatever Content-Length claims) and keeps its raw bytes
 * for idempotency fingerprints. An empty body is `undefined`.
 */
export async function jsonBody(ctx: Context, next: Next): Promise<void> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw tooLarge();
    throw badRequest('The request body could not be read.');
  }
  ctx.state.rawBody = raw;
  if (raw.length > 0) {
    if (!ctx.is('application/json')) throw badRequest('Request bodies must be JSON, sent with Content-Type: application/json.');
    try {
      // Like JSON.parse, but a "__proto__" key (which JSON.parse keeps as an own property that
      // spreads and merges then drop or turn into a prototype) or constructor.prototype is refused.
      ctx.request.body = parseJson(raw, null, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      if (error instanceof SyntaxError && /forbidden prototype/.test(error.message))
        throw badRequest('The request body has a "__proto__" key, or a "constructor" object with a "prototype" key: no request has such a field.', [
          { in: 'body', field: '__proto__', message: '"__proto__" and "constructor.prototype" are not allowed', type: 'object.unknown' },
        ]);
      throw badRequest('The request body is not valid JSON.');
    }
    if (depthExceeds(ctx.request.body, MAX_BODY_DEPTH)) throw badRequest(`The request body nests more than ${MAX_BODY_DEPTH} levels deep.`);
  }
  await next();
}
