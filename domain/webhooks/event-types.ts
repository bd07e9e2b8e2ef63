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
