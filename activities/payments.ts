import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { CheckoutInput, CheckoutSession } from '../domain/billing/checkout.js';
import { closeTopUp, creditTopUp, findTopUp, recordCheckoutSession, recordInvoice, topUpPrice, topUpState } from '../domain/billing/topups.js';
import { findBillingProfile, recordStripeCustomer } from '../domain/billing/profiles.js';
import { invoiceMentions } from '../domain/billing/invoice-mentions.js';
import { StripeCheckout, stripeCall } from './partners/stripe.js';

/** The top-up activities: Stripe calls (Checkout session, invoice) and the top-up's records. */
export function paymentActivities(db: Db, config: Config) {
  let gateway: StripeCheckout | undefined;
  // Made on first use: a worker without payments configured runs every other activity.
  const stripe = (): StripeCheckout => (gateway ??= new StripeCheckout(config.stripe));

  /** The account's Stripe Customer, brought up to date with its billing profile; none without a profile. */
  async function billingCustomer(accountId: string): Promise<{ id: string; siret: string | null } | null> {
    const profile = await findBillingProfile(db, accountId);
    if (!profile) return null;
    if (profile.stripeCustomerId && profile.stripeSyncedVersion === profile.version) return { id: profile.stripeCustomerId, siret: profile.siret };
    const customerId = await stripeCall(() => stripe().upsertCustomer(profile));
    return { id: await recordStripeCustomer(db, accountId, customerId, profile.version), siret: profile.siret };
  }

  return {
    async syncBillingCustomer(accountId: string): Promise<string | null> {
      return (await billingCustomer(accountId))?.id ?? null;
    },
    async createCheckoutSession(input: CheckoutInput): Promise<CheckoutSession> {
      const topUp = await findTopUp(db, input.topUpId);
      if (!topUp) throw new Error(`no top-up ${input.topUpId}`);
      if (topUp.sessionId) return recordCheckoutSession(db, topUp.id, topUp.sessionId, '');
      // The invoice is made out to the billing profile when there is one (its latest version).
      const customer = await billingCustomer(topUp.accountId);
      const session = await stripeCall(() =>
        stripe().createSession({
          topUpId: topUp.id,
          // Our own record says what is bought, never an amount from elsewhere.
          price: topUpPrice(topUp.amountCents),
          customer: customer ? { id: customer.id } : { email: input.customerEmail },
          mentions: invoiceMentions(config.seller, customer ?? undefined),
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
