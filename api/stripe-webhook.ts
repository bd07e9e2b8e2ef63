import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from './errors.js';
import { acceptCheckoutEvent } from '../domain/billing/topups.js';
import { verifyStripeEvent } from '../lib/stripe.js';
import { logger } from '../lib/logger.js';
import { MAX_BODY_BYTES } from './middleware/body.js';

interface SessionObject {
  id?: unknown;
  client_reference_id?: unknown;
  payment_status?: unknown;
}

/**
 * POST /stripe/webhook: Stripe's events, outside /v1 and the OpenAPI document (Stripe is its only
 * client). The signature is checked on the raw body with the Stripe client's
 * webhooks.constructEvent; a bad one is 400 and changes nothing. Checkout events go to their
 * top-up's workflow; any other type is acknowledged (200) and ignored. 503 when Temporal cannot
 * take the event: Stripe sends it again.
 */
export async function stripeWebhook(ctx: Context): Promise<void> {
  const { config, domain } = ctx.services;
  if (config.stripe.mode === 'disabled') throw new ApiError(503, 'service_unavailable', 'Payments are not configured on this server.');
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
  } catch {
    throw new ApiError(400, 'invalid_request', 'The request body could not be read.');
  }
  let event;
  try {
    event = verifyStripeEvent(config.stripe, raw, ctx.get('stripe-signature'));
  } catch (error) {
    logger.warn({ reason: (error as Error).message.split('\n')[0] }, 'Stripe webhook refused: bad signature');
    throw new ApiError(400, 'invalid_request', 'The Stripe-Signature header does not match this body (or is older than 5 minutes).');
  }
  let outcome: 'accepted' | 'ignored' = 'ignored';
  if (event.type.startsWith('checkout.session.')) {
    const session = event.data.object as SessionObject;
    if (typeof session.id === 'string')
      outcome = await acceptCheckoutEvent(domain, {
        eventId: event.id,
        type: event.type,
        sessionId: session.id,
        clientReferenceId: typeof session.client_reference_id === 'string' ? session.client_reference_id : null,
        paymentStatus: typeof session.payment_status === 'string' ? session.payment_status : 'unpaid',
      });
  }
  logger.info({ eventId: event.id, type: event.type, outcome }, 'Stripe event');
  ctx.status = 200;
  ctx.body = { received: true, handled: outcome === 'accepted' };
}
