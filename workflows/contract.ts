/**
 * What is Temporal's in the contract between the workflows and everything that calls them (the
 * Temporal client, the worker, activities): workflow ids, updates and signals, task queues, search
 * attributes, summaries and the failure types of refusals. The plain data they carry (inputs,
 * requests, results) is the domain's. Deterministic code only: workflows import it too.
 */
import { defineSearchAttributeKey, SearchAttributeType, WorkflowIdReusePolicy } from '@temporalio/common';
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Mailing } from '../domain/mailings/mailing.js';
import type { MailingStart, MailingWorkflowInput } from '../domain/mailings/workflow-input.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';
import type { Mode, TestAdvance } from '../domain/mailings/states.js';
import type { CheckoutEvent } from '../domain/billing/checkout.js';

export const mailingWorkflowId = (mailingId: string): string => `mailing-${mailingId}`;

const MODE_SHORT: Record<Mode, string> = { simple: 'simple', registered: 'registered', ar: 'AR' };

/** The line operators read in the Temporal UI's list, e.g. "AR · REF-42 · live". */
function mailingSummary(input: MailingWorkflowInput, reference: string): string {
  return [MODE_SHORT[input.mode], reference || 'no reference', input.test ? 'test' : 'live'].join(' · ');
}
/** A mailing's search attributes when its workflow starts (from the API, the reconciler or its batch). */
function mailingSearchAttributes(input: MailingWorkflowInput, reference: string) {
  return [
    { key: ACCOUNT_ID, value: input.accountId },
    { key: MAILING_REFERENCE, value: reference },
    { key: MAILING_MODE, value: input.mode },
    { key: MAILING_STATUS, value: 'paid' },
    { key: MAILING_TEST, value: input.test },
  ];
}
/**
 * A mailing's workflow start, the same wherever it starts (the API, the reconciler, or its batch):
 * its id, input, summary, details (naming its batch, if any) and search attributes. A mailing runs once
 * (REJECT_DUPLICATE); only the reconciler starts a closed one again. The task queue is the caller's.
 */
export function mailingStartOptions({ input, reference, batchId }: MailingStart) {
  return {
    workflowId: mailingWorkflowId(input.shipmentId),
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [input] as [MailingWorkflowInput],
    staticSummary: mailingSummary(input, reference),
    staticDetails: `Shipment ${input.shipmentId} of account ${input.accountId}${batchId ? `, batch ${batchId}` : ''}`,
    typedSearchAttributes: mailingSearchAttributes(input, reference),
  };
}
/** A batch of mailings (POST /v1/mailing-batches): its one workflow, continued as new as it goes. */
export const batchWorkflowId = (batchId: string): string => `mailing-batch-${batchId}`;
export const deliveryWorkflowId = (deliveryId: string): string => `delivery-${deliveryId}`;
/** The later directory check of one production access request. */
export const productionCheckWorkflowId = (requestId: string): string => `production-check-${requestId}`;

/** A delivery's line in the Temporal UI, e.g. "mailing.posted webhook · mailing … → endpoint …". */
export function deliverySummary(target: DeliveryTarget, mailingId?: string): string {
  return [`${target.eventType} webhook`, ...(mailingId ? [`shipment ${mailingId}`] : []), `endpoint ${target.endpointId}`].join(' · ');
}

/** `ApplicationFailure.type` of a delivery workflow that gave up: every attempt failed. */
export const WEBHOOK_ABANDONED = 'webhook_abandoned';
/** `ApplicationFailure.type` of a delivery ended because its endpoint was disabled or deleted. */
export const WEBHOOK_CANCELED = 'webhook_canceled';

/** POST /v1/test/mailings/{id}/advance. */
export const advanceUpdate = defineUpdate<Mailing, [TestAdvance]>('advance');
/** POST /v1/mailings/{id}/cancel. */
export const cancelUpdate = defineUpdate<Mailing, [null]>('cancel');

/**
 * A hint that an electronic mailing's provider has news (AR24's callback, api/ar24-callback.ts):
 * the workflow reads the letter's state again at once instead of at its next poll. Only a hint:
 * what the provider says when asked is what moves the mailing.
 */
export const electronicHintSignal = defineSignal<[]>('electronicHint');

/** `ApplicationFailure.type` of an update's refusal: the move conflicts with the state, or the request is out of range. */
export const REFUSED_CONFLICT = 'conflict';
export const REFUSED_INVALID = 'invalid';

/**
 * `ApplicationFailure.type` of a filing that can never succeed (a broken layout, an empty print, a
 * letter the operator refuses for good): the mailing ends in `error` and is refunded.
 */
export const FILING_REJECTED = 'filing_rejected';

/**
 * `ApplicationFailure.type` of an electronic letter the provider refuses for good (an address it
 * rejects, a sender not verified, no sender to name): the mailing ends in `error` and is refunded.
 */
export const ELECTRONIC_REJECTED = 'electronic_rejected';

/**
 * Task queues beside the main one (`TEMPORAL_TASK_QUEUE`, the mailings and their deliveries):
 * short interactive runs (lookups, PDFs, AI) and the postal operator's tracking polls each have
 * their own workers, so neither takes the slots that filing and proofs need.
 */
export const interactiveQueue = (mainQueue: string): string => `${mainQueue}-interactive`;
export const trackingQueue = (mainQueue: string): string => `${mainQueue}-tracking`;
/** What needs the PDF browser: a letter's printing and filing, proofs, letter PDFs (the `printing` worker role). */
export const printingQueue = (mainQueue: string): string => `${mainQueue}-printing`;
/** A mailing's first webhook attempts (the `deliveries` worker role). */
export const deliveriesQueue = (mainQueue: string): string => `${mainQueue}-deliveries`;
/** The main queue of a workflow running on `queue`, the main one or its interactive queue. */
export const mainQueueOf = (queue: string): string => queue.replace(/-interactive$/, '');

/** A test mailing not advanced for this long ends in `error`: the sandbox keeps no execution open forever. */
export const TEST_MAILING_IDLE_LIMIT_MS = 30 * 24 * 3600_000;
/** A filed letter the operator says nothing more about for this long ends in `error` (its tracking is lost). */
export const TRACKING_SILENCE_LIMIT_MS = 30 * 24 * 3600_000;

/** `ApplicationFailure.type` of a tracking poll that found nothing new (benign: it is retried as the polling schedule). */
export const NO_NEWS = 'operator_no_news';

/** Partner task queues: each one's worker caps requests per second for all processes together. */
export const GEOCODING_QUEUE = 'partner-geocoding';
/** The company directory (recherche-entreprises). */
export const COMPANIES_QUEUE = 'partner-companies';
/** The OSRM-compatible routing service. */
export const ROUTING_QUEUE = 'partner-routing';
/** The official fuel-price open data. */
export const FUEL_QUEUE = 'partner-fuel';
/** The LLM (OpenAI-compatible chat completions) of the AI operations. */
export const LLM_QUEUE = 'partner-llm';

/** Search attributes that let operators find a mailing in the Temporal UI. */
export const ACCOUNT_ID = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const MAILING_REFERENCE = defineSearchAttributeKey('MailingReference', SearchAttributeType.KEYWORD);
export const MAILING_MODE = defineSearchAttributeKey('MailingMode', SearchAttributeType.KEYWORD);
export const MAILING_STATUS = defineSearchAttributeKey('MailingStatus', SearchAttributeType.KEYWORD);
export const MAILING_TEST = defineSearchAttributeKey('MailingTest', SearchAttributeType.BOOL);
/** Webhook deliveries are found by their account (ACCOUNT_ID), endpoint, event and status. */
export const WEBHOOK_ENDPOINT_ID = defineSearchAttributeKey('WebhookEndpointId', SearchAttributeType.KEYWORD);
export const WEBHOOK_EVENT_ID = defineSearchAttributeKey('WebhookEventId', SearchAttributeType.KEYWORD);
export const WEBHOOK_EVENT_TYPE = defineSearchAttributeKey('WebhookEventType', SearchAttributeType.KEYWORD);
/** `pending` (first attempt), `retrying` (an attempt failed), `delivered`, `abandoned` or `canceled` (endpoint disabled or deleted). */
export const DELIVERY_STATUS = defineSearchAttributeKey('DeliveryStatus', SearchAttributeType.KEYWORD);
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'abandoned' | 'canceled';
/** Every search attribute above: the servers must know them (registered at start). */
export const SEARCH_ATTRIBUTES = [
  ACCOUNT_ID,
  MAILING_REFERENCE,
  MAILING_MODE,
  MAILING_STATUS,
  MAILING_TEST,
  WEBHOOK_ENDPOINT_ID,
  WEBHOOK_EVENT_ID,
  WEBHOOK_EVENT_TYPE,
  DELIVERY_STATUS,
];

/**
 * A delivery's search attributes when it starts, e.g. `WebhookEndpointId = "…" AND DeliveryStatus = "retrying"`:
 * `pending` for a delivery started from its first attempt (a resend), `retrying` for one started
 * by a mailing after its first attempt failed.
 */
export function deliverySearchAttributes(target: DeliveryTarget, status: DeliveryStatus = 'pending') {
  return [
    { key: ACCOUNT_ID, value: target.accountId },
    { key: WEBHOOK_ENDPOINT_ID, value: target.endpointId },
    { key: WEBHOOK_EVENT_ID, value: target.eventId },
    { key: WEBHOOK_EVENT_TYPE, value: target.eventType },
    { key: DELIVERY_STATUS, value: status },
  ];
}

/** A top-up paid through Stripe Checkout: its workflow is `topup-<checkout session id>`. */
export const topUpWorkflowId = (sessionId: string): string => `topup-${sessionId}`;

/** Each Stripe event about the session, in whatever order and number Stripe sends them (signal-with-start). */
export const checkoutEventSignal = defineSignal<[CheckoutEvent]>('stripeCheckoutEvent');
