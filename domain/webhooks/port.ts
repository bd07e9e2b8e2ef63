import type { DeliveryTarget } from './event-types.js';

/** The delivery workflows as the domain sees them (temporal/webhooks.ts). */
export interface WebhookPort {
  /** Starts the delivery of one webhook event to one endpoint. Temporal unreachable: Unavailable. */
  startDelivery(target: DeliveryTarget): Promise<void>;
}
