/** The domain's BillingPort (domain/billing/port.ts) on a Temporal client: Stripe's short workflows and the top-up's signal. */
import type { BillingPort, BillingWorkflows } from '../domain/billing/port.js';
import { START_DEADLINE_MS } from '../domain/mailings/creation-protocol.js';
import * as workflows from '../workflows/index.js';
import { checkoutEventSignal, topUpWorkflowId } from '../workflows/contract.js';
import { type TemporalCalls, unreachable } from './calls.js';
import { shortWorkflowRunner } from './short-workflows.js';

/** Billing's short workflows, checked against the worker's own at compile time. */
const billingWorkflows: BillingWorkflows = workflows;

export function temporalBilling(calls: TemporalCalls): BillingPort {
  const { client, config, withDeadline } = calls;
  return {
    ...shortWorkflowRunner(calls, billingWorkflows),

    async signalTopUp(input, event) {
      try {
        await withDeadline(START_DEADLINE_MS, () =>
          client.workflow.signalWithStart(workflows.topUp, {
            taskQueue: config.taskQueue,
            workflowId: topUpWorkflowId(input.sessionId),
            args: [input],
            signal: checkoutEventSignal,
            signalArgs: [event],
            staticSummary: `top-up ${input.topUpId}`,
            staticDetails: `Stripe Checkout session ${input.sessionId}`,
          }),
        );
      } catch {
        throw unreachable();
      }
    },
  };
}
