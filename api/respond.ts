import type { Context } from 'koa';
import type { Tx } from '../db/knex.js';
import { saveResponseWithin } from './middleware/idempotency.js';

/** Sets a JSON response and, under an Idempotency-Key, stores it in the same transaction as its effects. */
export async function respondWithin(ctx: Context, trx: Tx, status: number, body: unknown): Promise<void> {
  await saveResponseWithin(ctx, trx, status, body);
  ctx.status = status;
  ctx.body = body;
}

/** The address this request reached the API at, e.g. https://api.example.fr (behind no proxy). */
export function publicOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}
