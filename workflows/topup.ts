import { ActivityFailure, condition, proxyActivities, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CheckoutEvent, CheckoutInput, CheckoutSession, TopUpInput, TopUpOutcome } from '../domain/billing/checkout.js';
import { checkoutEventSignal } from './contract.js';

// Database writes: retried until they succeed (each one is idempotent, keyed by the top-up).
const records = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '1s', maximumInterval: '30s' },
});

// Stripe's invoice: it may appear a little after the payment (finalisation); asked again for a day.
const invoices = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  scheduleToCloseTimeout: '1d',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '5m', nonRetryableErrorTypes: ['PartnerRefused'] },
});

// The Checkout session: the developer waits for it, so a few quick attempts.
const checkout = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  scheduleToCloseTimeout: '30s',
  retry: { maximumAttempts: 3, initialInterval: '500ms', nonRetryableErrorTypes: ['PartnerRefused'] },
});

/** How long a top-up waits for Stripe's verdict once an event started it (an async payment's outcome). */
export const TOPUP_VERDICT_LIMIT = '30 days';

/** The short workflow behind "Recharger": creates the Checkout session of a recorded top-up. */
export async function checkoutSession(input: CheckoutInput): Promise<CheckoutSession> {
  return checkout.createCheckoutSession(input);
}

/** The short workflow behind a saved billing profile: writes it to the account's Stripe Customer. */
export async function billingCustomer(accountId: string): Promise<string | null> {
  return checkout.syncBillingCustomer(accountId);
}

/** What an event says about the payment: paid, failed, expired, or nothing yet (an async payment under way). */
function verdict(event: CheckoutEvent): TopUpOutcome | undefined {
  switch (event.type) {
    case 'checkout.session.completed':
      return event.paymentStatus === 'paid' || event.paymentStatus === 'no_payment_required' ? 'paid' : undefined;
    case 'checkout.session.async_payment_succeeded':
      return 'paid';
    case 'checkout.session.async_payment_failed':
      return 'failed';
    case 'checkout.session.expired':
      return 'expired';
  }
}

/**
 * One top-up paid through Stripe Checkout, `topup-<session id>`, started by the first Stripe event
 * about its session (signal-with-start) and told every later one. Whatever their number, order or
 * repetition, a success is credited exactly once: the credit is keyed by the top-up in Postgres
 * (a retried activity or a later run finds it done), and a success wins over a failure or an
 * expiry. Then the invoice Stripe made is retrieved and its links recorded.
 */
export async function topUp(input: TopUpInput): Promise<TopUpOutcome> {
  let outcome: TopUpOutcome | undefined;
  const seen = new Set<string>();
  setHandler(checkoutEventSignal, (event) => {
    if (seen.has(event.eventId)) return;
    seen.add(event.eventId);
    const said = verdict(event);
    if (said === 'paid') outcome = 'paid';
    else if (said) outcome ??= said;
  });

  // A run started by a late or replayed event may find the top-up already settled.
  const state = await records.topUpState(input.topUpId);
  if (state.status === 'paid') {
    if (!state.invoiced) await recordInvoice(input);
    setCurrentDetails('already credited by an earlier run');
    return 'paid';
  }

  setCurrentDetails('waiting for Stripe to confirm the payment');
  const decided = await condition(() => outcome !== undefined, TOPUP_VERDICT_LIMIT);
  const final: TopUpOutcome = decided ? outcome! : 'expired';
  if (final !== 'paid') {
    await records.closeTopUp(input.topUpId, final);
    setCurrentDetails(`${final}: nothing credited`);
    return final;
  }
  const credit = await records.creditTopUp(input.topUpId);
  setCurrentDetails(credit.credited ? `credited ${credit.amountCents} cents; recording the invoice` : 'already credited; recording the invoice');
  await recordInvoice(input);
  return 'paid';
}

async function recordInvoice(input: TopUpInput): Promise<void> {
  try {
    await invoices.recordTopUpInvoice(input.topUpId, input.sessionId);
    setCurrentDetails('credited; invoice recorded');
  } catch (error) {
    // The credit stands; an operator can find the invoice in Stripe's dashboard.
    if (!(error instanceof ActivityFailure)) throw error;
    setCurrentDetails(`credited; invoice not recorded: ${error.cause?.message ?? error.message}`);
  }
}
