import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { ApiError, badRequest } from '../errors.js';

export const MAX_BODY_BYTES = 1_000_000;

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
      ctx.request.body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw badRequest('The request body is not valid JSON.');
    }
  }
  await next();
}
