import type { ShortWorkflowRunner } from '../short-workflows.js';
import type { CheckoutEvent, CheckoutInput, CheckoutSession, TopUpInput } from './checkout.js';

/** The short workflows of billing: Stripe calls, run to their result. */
export interface BillingWorkflows {
  checkoutSession(input: CheckoutInput): Promise<CheckoutSession>;
  /** Writes an account's billing profile to its Stripe Customer: the customer id (null: no profile). */
  billingCustomer(accountId: string): Promise<string | null>;
}

/** Billing's workflows as the domain sees them (temporal/billing.ts). */
export interface BillingPort extends ShortWorkflowRunner<BillingWorkflows> {
  /**
   * Passes a Stripe event on to its top-up's workflow `topup-<session id>`, starting it when none
   * runs (signal-with-start). Temporal unreachable: Unavailable (Stripe sends the event again).
   */
  signalTopUp(input: TopUpInput, event: CheckoutEvent): Promise<void>;
}
