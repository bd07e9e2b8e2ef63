/**
 * The values of the operator's options (issue 55) and their request and record shapes, with no
 * import: domain/mailings/request.ts, mailing.ts and projection.ts name them without reaching the
 * checks (./postal-options.ts) or the account's settings (domain/access/postal-settings.ts).
 */

/** Maileva's return envelope types: FRANKING_ENVELOPE (to stamp), PREPAID_ENVELOPE (« enveloppe T »). */
export const RETURN_ENVELOPE_TYPES = ['FRANKING_ENVELOPE', 'PREPAID_ENVELOPE'] as const;
export type ReturnEnvelopeType = (typeof RETURN_ENVELOPE_TYPES)[number];

export interface ReturnEnvelope {
  type: ReturnEnvelopeType;
  /** Maileva's identifier of the envelope (uuid). */
  id: string;
}

/** The operator APIs an archive duration belongs to: `simple` (mail v2) and `registered` (registered mail v2, modes registered and ar). */
export type ArchiveApi = 'simple' | 'registered';

/** `archiving_duration` as each API offers it (mail-v2.yaml: 0, 1, 3, 6, 10; registered-mail-v2.yaml: 3, 6, 10), in years. */
export const ARCHIVE_YEARS: Readonly<Record<ArchiveApi, readonly number[]>> = { simple: [0, 1, 3, 6, 10], registered: [3, 6, 10] };
/** Each API's default, included in the mode's price: a longer archive is priced per year beyond it. */
export const ARCHIVE_INCLUDED_YEARS: Readonly<Record<ArchiveApi, number>> = { simple: 0, registered: 3 };

export const isReturnEnvelopeType = (value: unknown): value is ReturnEnvelopeType => RETURN_ENVELOPE_TYPES.includes(value as ReturnEnvelopeType);
export const isArchiveYears = (api: ArchiveApi, value: unknown): value is number => ARCHIVE_YEARS[api].includes(value as number);

/** The options a request may ask (api/schemas/mailings.ts mailingOptions). */
export interface PostalOptionsRequest {
  /** Slip the account's return envelope into the letter (422 return_envelope_not_configured without one). */
  returnEnvelope?: boolean;
  /** How long the operator archives the letter, in years (each mode's values: ARCHIVE_YEARS); absent: the account's setting, else the API's default. */
  archiveYears?: number;
  /** Mail v2 only (mode simple): a DL envelope with one window (the recipient) or two (the sender too). */
  envelopeWindows?: EnvelopeWindows;
  /** Mail v2 only (mode simple): the operator prints the sender's address (Maileva's print_sender_address). */
  printSenderAddress?: boolean;
}

export const ENVELOPE_WINDOWS = ['simple', 'double'] as const;
export type EnvelopeWindows = (typeof ENVELOPE_WINDOWS)[number];

/** What the mailing's options record for its filing, resolved at creation (activities/operator/*). */
export interface ResolvedPostalOptions {
  /** The account's return envelope as configured when the mailing was created. */
  returnEnvelopeRef?: ReturnEnvelope;
  /** The archive duration sent to the operator, when the request or the account chose one. */
  archiveYears?: number;
}
