/** SPEC.md "Event types". */
export const EVENT_TYPES = [
  'mailing.created',
  'mailing.printed',
  'mailing.posted',
  'mailing.in_transit',
  'mailing.delivered',
  'mailing.ar_signed',
  'mailing.returned',
  'mailing.error',
  'mailing.canceled',
  'mailing.proof_available',
  'ping',
  'mailing_batch.completed',
  // The electronic channel (issue 54): sent to every endpoint subscribed to every event, like every mailing event.
  'mailing.sent',
  'mailing.notified',
  'mailing.accepted',
  'mailing.refused',
  'mailing.unclaimed',
  'mailing.bounced',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Types added after endpoints could subscribe to every event (an empty filter): sent only to the
 * endpoints that name them, so no receiver gets a type it did not choose.
 */
export const OPT_IN_EVENT_TYPES: readonly EventType[] = ['mailing_batch.completed'];

/** One delivery to start: an event to one endpoint of an account (what recording an event returns). */
export interface DeliveryTarget {
  deliveryId: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
}

/**
 * What makes a mailing's event unique, its id derived from it (recordWebhookEvent): the mailing,
 * the type and the step (or the proof's kind). Never the workflow's random seed: an operator's Reset,
 * or the API and the workflow recording the same `mailing.created`, give the same id, so receivers
 * deduplicate.
 */
export const mailingEventKey = (mailingId: string, type: EventType, stepOrProof: number | string): string => `${mailingId}/${type}/${stepOrProof}`;
