import type { Context } from 'koa';
import type { Tx } from '../db/knex.js';
import type { Caller, Deps } from '../domain/deps.js';
import { payForAnswer } from '../domain/billing/charge.js';
import type { PriceUnit } from '../domain/billing/prices.js';
import { saveAnswerWithin } from '../domain/access/idempotency.js';
import { setBalanceHeader } from './middleware/authenticate.js';
import { answerNow } from './fast-path.js';

/**
 * How a route reaches what it needs, one way: the domain's dependencies (database, configuration,
 * workflows) through `deps(ctx)`, who pays through `caller(ctx)`; only the edge's own services
 * (the mailing cache, the key guard, health) through `ctx.services`. The developer space's routes
 * get the same Deps as `kit.deps`.
 */
export function deps(ctx: Context): Deps {
  return ctx.services.domain;
}

/** Who the request is for: the authenticated key's account and mode; new balances go to X-Service-Balance. */
export function caller(ctx: Context): Caller {
  const auth = ctx.state.auth!;
  return {
    accountId: auth.accountId,
    mode: auth.mode,
    balanceCents: auth.balanceCents,
    addressCheckDefault: auth.addressCheckDefault,
    postalSettings: auth.postalSettings,
    idempotency: ctx.state.idempotency,
    onBalance: (balanceCents) => setBalanceHeader(ctx, balanceCents),
  };
}

/**
 * A JSON answer already serialized (a cached mailing, the catalogue), written at once (answerNow):
 * Koa's type setter alone looks the type up in the MIME database on every call.
 */
export function answerSerializedJson(ctx: Context, json: string | Buffer): void {
  answerNow(ctx, 200, 'application/json; charset=utf-8', json);
}

/** A JSON answer computed in memory, paid by `unit`: under an Idempotency-Key it is stored with the debit. */
export async function respondPaid(ctx: Context, unit: PriceUnit, status: number, body: unknown): Promise<void> {
  await payForAnswer(deps(ctx), caller(ctx), unit, status, body);
  ctx.status = status;
  ctx.body = body;
}

/** Sets a JSON response and, under an Idempotency-Key, stores it in the same transaction as its effects. */
export async function respondWithin(ctx: Context, trx: Tx, status: number, body: unknown): Promise<void> {
  await saveAnswerWithin(trx, ctx.state.idempotency, status, body);
  ctx.status = status;
  ctx.body = body;
}

/** The address this request reached the API at, e.g. https://api.example.fr (behind no proxy). */
export function publicOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}
