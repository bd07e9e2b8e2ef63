import Stripe from 'stripe';
import type { StripeConfig } from './config.js';

/**
 * The official Stripe client, configured once: Stripe itself (STRIPE_SECRET_KEY), or stripe-mock
 * (`mock` mode, STRIPE_MOCK_URL) through the client's own host/port/protocol options. Retries are
 * Temporal's (the activities), so the client makes a single attempt with a time limit.
 */
export function stripeClient(config: StripeConfig): Stripe {
  if (config.mode === 'disabled' || !config.secretKey) throw new Error('payments are disabled: STRIPE_SECRET_KEY is not set');
  const options = { maxNetworkRetries: 0, timeout: 10_000, telemetry: false };
  if (config.mode !== 'mock') return new Stripe(config.secretKey, options);
  if (!config.mockUrl) throw new Error('payments run on stripe-mock, but STRIPE_MOCK_URL is not set (npm start and the tests set it)');
  const url = new URL(config.mockUrl);
  return new Stripe(config.secretKey, { ...options, host: url.hostname, port: Number(url.port), protocol: url.protocol === 'https:' ? 'https' : 'http' });
}

/** Stripe's event as constructEvent verified it. */
export type StripeEvent = Stripe.Event;

/**
 * The event of a Stripe-Signature header, verified with the client's webhooks.constructEvent on the
 * exact raw body (5 minutes of tolerance). Throws when the signature is missing, wrong or stale.
 */
export function verifyStripeEvent(config: StripeConfig, rawBody: Buffer, signature: string): StripeEvent {
  if (!config.webhookSecret) throw new Error('payments are disabled: STRIPE_WEBHOOK_SECRET is not set');
  // The verification needs no API key: a client without one is enough (and makes no call).
  return Stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
}

/** A Stripe-Signature header for `payload`, as Stripe computes it (the local test payment page only). */
export function signStripePayload(config: StripeConfig, payload: string): string {
  if (config.mode !== 'mock' || !config.webhookSecret) throw new Error('only the local test payment page signs Stripe events');
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: config.webhookSecret });
}

export { Stripe };
