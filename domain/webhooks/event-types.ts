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
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** One delivery to start: an event to one endpoint of an account (what recording an event returns). */
export interface DeliveryTarget {
  deliveryId: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
}
