import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PostMailingCreatedWebhookPayload } from './generated/types.gen.js';

/** The event as the document describes it: one schema for every webhook, its `data` fields each "only for" some types. */
type DocumentedEvent = PostMailingCreatedWebhookPayload;
type DocumentedData = DocumentedEvent['data'];
type Mailing = NonNullable<DocumentedData['mailing']>;

/** The literal members of an open enum, without its `(string & {})`. */
type KnownValues<T> = T extends string ? (string extends T ? never : T) : never;

interface EventFields<Type, Data> {
  /** Event identifier, the same on every retry: deduplicate on it. */
  id: string;
  type: Type;
  /** ISO 8601 UTC, with milliseconds. */
  created: string;
  /** False in the sandbox. */
  livemode: boolean;
  data: Data;
}

/** A step of a mailing (posted, or electronic: sent … bounced): `data.mailing` is the shipment in its state at event time. */
export type MailingStepEvent = EventFields<
  | 'mailing.created'
  | 'mailing.printed'
  | 'mailing.posted'
  | 'mailing.in_transit'
  | 'mailing.delivered'
  | 'mailing.ar_signed'
  | 'mailing.returned'
  | 'mailing.canceled'
  | 'mailing.sent'
  | 'mailing.notified'
  | 'mailing.accepted'
  | 'mailing.refused'
  | 'mailing.unclaimed'
  | 'mailing.bounced',
  { mailing: Mailing }
>;
/** The mailing ended in error (and was refunded); `details.reason` when the reason is known. */
export type MailingErrorEvent = EventFields<'mailing.error', { mailing: Mailing; details?: DocumentedData['details'] }>;
/** A proof (filing, delivery, return; deposit, acceptance, refusal, negligence of an electronic letter) can be downloaded. */
export type MailingProofAvailableEvent = EventFields<'mailing.proof_available', { mailing: Mailing; proof: NonNullable<DocumentedData['proof']> }>;
/** A batch's mailings are all final (opt-in: only endpoints whose filter names it). */
export type MailingBatchCompletedEvent = EventFields<'mailing_batch.completed', { batch: NonNullable<DocumentedData['batch']> }>;
/** A test event sent to one endpoint, which it names. */
export type PingEvent = EventFields<'ping', { endpoint: NonNullable<DocumentedData['endpoint']> }>;
/**
 * An event of a type added to the API after this SDK: its `type` reads `'unknown'` (the type
 * received is `receivedType`), so that comparing `type` to a known one narrows to that one's arm.
 */
export interface UnknownWebhookEvent extends EventFields<'unknown', Record<string, unknown>> {
  receivedType: string;
}

/** A verified webhook's event, narrowed by `type` (`switch (event.type)`); a type added later arrives as UnknownWebhookEvent. */
export type WebhookEvent = MailingStepEvent | MailingErrorEvent | MailingProofAvailableEvent | MailingBatchCompletedEvent | PingEvent | UnknownWebhookEvent;

type ArmedType = Exclude<WebhookEvent['type'], 'unknown'>;
type DocumentedType = KnownValues<DocumentedEvent['type']>;
// The build fails when a regeneration brings a type without an arm here (or an arm loses its type).
const armsMatchTheDocument: [Exclude<DocumentedType, ArmedType>, Exclude<ArmedType, DocumentedType>] extends [never, never] ? true : never = true;
void armsMatchTheDocument;

/** The types with an arm: a Record, so that TypeScript wants every one and no other. */
const ARMED_TYPES: Record<ArmedType, true> = {
  'mailing.created': true,
  'mailing.printed': true,
  'mailing.posted': true,
  'mailing.in_transit': true,
  'mailing.delivered': true,
  'mailing.ar_signed': true,
  'mailing.returned': true,
  'mailing.error': true,
  'mailing.canceled': true,
  'mailing.sent': true,
  'mailing.notified': true,
  'mailing.accepted': true,
  'mailing.refused': true,
  'mailing.unclaimed': true,
  'mailing.bounced': true,
  'mailing.proof_available': true,
  'mailing_batch.completed': true,
  ping: true,
};

/** Refused webhook: no valid signature for any of the secrets, or signed too long ago. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface VerifyOptions {
  /** The exact bytes received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** The `Service-Signature` header: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
  signature: string | undefined;
  /** The endpoint's `whsec_…` secret, or several during a rotation (the new one and the old one). */
  secrets: string | string[];
  /** The largest distance between `t` and now, in seconds (default 300: five minutes). */
  toleranceSeconds?: number;
  /** Now, in milliseconds (tests). */
  now?: number;
}

/**
 * Whether a webhook is ours (docs/webhooks.md): `v1` is the hex HMAC-SHA256 of `<t>.<raw body>`
 * keyed with the whole secret; any `v1` matching any secret is enough (after a rotation the API
 * signs with the new and the old one), compared in constant time; `t` within the tolerance.
 */
export function verifyWebhookSignature(options: VerifyOptions): boolean {
  const parts = (options.signature ?? '').split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  });
  const t = parts.find(([name]) => name === 't')?.[1] ?? '';
  if (!/^\d+$/.test(t)) return false;
  const now = options.now ?? Date.now();
  if (Math.abs(now / 1000 - Number(t)) > (options.toleranceSeconds ?? 300)) return false;
  const given = parts.filter(([name, hex]) => name === 'v1' && /^[0-9a-f]{64}$/.test(hex)).map(([, hex]) => Buffer.from(hex, 'hex'));
  const secrets = Array.isArray(options.secrets) ? options.secrets : [options.secrets];
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${t}.`).update(options.rawBody).digest();
    return given.some((signature) => timingSafeEqual(signature, expected));
  });
}

/** The event of a verified webhook (a type added later as UnknownWebhookEvent), or a WebhookSignatureError. */
export function parseWebhook(options: VerifyOptions): WebhookEvent {
  if (!verifyWebhookSignature(options)) throw new WebhookSignatureError('Invalid or expired Service-Signature');
  const text = typeof options.rawBody === 'string' ? options.rawBody : Buffer.from(options.rawBody).toString('utf8');
  const event = JSON.parse(text) as { type: string };
  if (Object.hasOwn(ARMED_TYPES, event.type)) return event as WebhookEvent;
  return { ...event, type: 'unknown', receivedType: event.type } as UnknownWebhookEvent;
}
