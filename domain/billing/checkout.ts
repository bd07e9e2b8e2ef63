/** A top-up paid through Stripe Checkout: the plain data its workflows and activities pass around. */

/** What the top-up workflow is started with (by the first Stripe event about its session). */
export interface TopUpInput {
  topUpId: string;
  sessionId: string;
}

/** The Stripe events a top-up listens to, as the webhook passes them on (signature already checked). */
export type CheckoutEventType =
  'checkout.session.completed' | 'checkout.session.async_payment_succeeded' | 'checkout.session.async_payment_failed' | 'checkout.session.expired';

export interface CheckoutEvent {
  /** Stripe's event id (evt_…): a repeated event is recognised by it. */
  eventId: string;
  type: CheckoutEventType;
  /** The session's payment_status in the event: `paid`, `unpaid` or `no_payment_required`. */
  paymentStatus: string;
}

/** How a top-up ended: credited once, or not at all. */
export type TopUpOutcome = 'paid' | 'failed' | 'expired';

/** What the Checkout session of a top-up is created with (short workflow `checkoutSession`). */
export interface CheckoutInput {
  topUpId: string;
  customerEmail: string;
  /** Where Stripe sends the browser back; `{CHECKOUT_SESSION_ID}` is Stripe's placeholder. */
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  sessionId: string;
  /** Stripe's hosted payment page (stripe-mock answers a placeholder address). */
  url: string;
}
