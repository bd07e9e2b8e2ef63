import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { CheckoutInput, CheckoutSession } from '../domain/billing/checkout.js';
import { closeTopUp, creditTopUp, findTopUp, recordCheckoutSession, recordInvoice, topUpPrice, topUpState } from '../domain/billing/topups.js';
import { StripeCheckout, stripeCall } from './partners/stripe.js';

/** The top-up activities: Stripe calls (Checkout session, invoice) and the top-up's records. */
export function paymentActivities(db: Db, config: Config) {
  let gateway: StripeCheckout | undefined;
  // Made on first use: a worker without payments configured runs every other activity.
  const stripe = (): StripeCheckout => (gateway ??= new StripeCheckout(config.stripe));
  return {
    async createCheckoutSession(input: CheckoutInput): Promise<CheckoutSession> {
      const topUp = await findTopUp(db, input.topUpId);
      if (!topUp) throw new Error(`no top-up ${input.topUpId}`);
      if (topUp.sessionId) return recordCheckoutSession(db, topUp.id, topUp.sessionId, '');
      const session = await stripeCall(() =>
        stripe().createSession({
          topUpId: topUp.id,
          // Our own record says what is bought, never an amount from elsewhere.
          price: topUpPrice(topUp.amountCents),
          customerEmail: input.customerEmail,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
        }),
      );
      return recordCheckoutSession(db, topUp.id, session.sessionId, session.url);
    },
    topUpState: (topUpId: string) => topUpState(db, topUpId),
    creditTopUp: (topUpId: string) => creditTopUp(db, topUpId),
    closeTopUp: (topUpId: string, status: 'failed' | 'expired') => closeTopUp(db, topUpId, status),
    async recordTopUpInvoice(topUpId: string, sessionId: string): Promise<void> {
      const invoice = await stripeCall(() => stripe().sessionInvoice(sessionId, topUpId));
      await recordInvoice(db, topUpId, invoice);
    },
  };
}
