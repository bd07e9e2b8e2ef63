import { inflateRawSync } from 'node:zlib';
import type { PostalAddress } from '../../domain/catalogue/catalogue.js';
import { operatorCountryCode, postcodeLine } from '../../domain/mailings/countries.js';
import type { OperatorNews } from '../../domain/mailings/projection.js';
import { PATHS, type Mode, type ProofKind, type MailingStatus } from '../../domain/mailings/states.js';
import { DEFAULT_POSTAGE, MAILEVA_POSTAGE_TYPES } from '../../domain/mailings/postage.js';
import {
  MailevaError,
  type DeliveryStatus,
  type MailevaAddress,
  type MailevaApi,
  type MailevaClient,
  type Recipient,
  type Sending,
} from '../partners/maileva.js';
import {
  OperatorPendingError,
  OperatorRejectedError,
  OperatorUnavailableError,
  type Filing,
  type OperatorRecords,
  type PostalOperator,
} from './postal-operator.js';
import { mailevaOptionFields } from './maileva-options.js';

/** Our modes on Maileva's APIs: simple letters on mail v2, registered ones (AR or not) on registered_mail v2. */
export const apiOf = (mode: Mode): MailevaApi => (mode === 'simple' ? 'mail' : 'registered_mail');

/** La Poste's and Maileva's delivery codes (registered_mail v2, `delivery_statuses`) that end a letter back with its sender. */
export const RETURN_CODES = new Set([
  ...['A14', 'A15', 'A16', 'A17', 'A18', 'A19', 'A21', 'A22', 'A23', 'A24', 'A25', 'A26'],
  ...['P03', 'P04', 'P05', 'P06'],
  ...['N02', 'N03', 'N04', 'N05', 'N06', 'N07', 'N08', 'N10'],
]);
/** Delivered (La Poste). */
export const DELIVERED_CODE = 'D01';
/** AR signed, scanned by Maileva: "AR Signé : RAR distribué". */
export const AR_SIGNED_CODE = 'N01';

/**
 * Our status from what Maileva reports (docs/operators.md, "Status mapping"): a return code →
 * `returned`; N01 (ar) → `ar_signed`; D01 → `delivered`; any other La Poste code (taken in
 * charge, notified, in transit, presented) → `in_transit`; the deposit proof (registered) or the
 * sending processed (simple, which has no deposit proof) → `posted`; otherwise `printed` (the
 * recipient processed: printed and put in its envelope, what filing waits for). Never past the
 * mode's path: a simple letter ends at `posted`.
 */
export function mailevaStatus(mode: Mode, sending: Sending, recipient: Recipient, deliveries: DeliveryStatus[]): MailingStatus {
  const codes = new Set(deliveries.map((d) => d.status).filter((code): code is string => typeof code === 'string'));
  if (recipient.last_delivery_status) codes.add(recipient.last_delivery_status);
  if ([...codes].some((code) => RETURN_CODES.has(code))) return 'returned';
  const path = PATHS[mode];
  const within = (status: MailingStatus): MailingStatus => (path.includes(status as (typeof path)[number]) ? status : path[path.length - 1]!);
  if (mode === 'ar' && codes.has(AR_SIGNED_CODE)) return 'ar_signed';
  if (codes.has(DELIVERED_CODE)) return within('delivered');
  if ([...codes].some((code) => /^[AP]\d\d$/.test(code))) return within('in_transit');
  const posted =
    mode === 'simple'
      ? sending.status === 'PROCESSED' || sending.status === 'PROCESSED_WITH_ERRORS'
      : Boolean(sending.deposit_proof_date || sending.deposit_proof_url);
  return posted ? 'posted' : 'printed';
}

/**
 * Our address on Maileva's six lines: the name on line 1, our lines (top to bottom) on lines 2 to
 * 5, the postcode and city on line 6 (upper case, as the envelope window wants it), and the
 * country in `country_code` (the sender's: FR). Abroad, line 6 is the postcode line in the
 * destination's order ("LONDON SW1A 1AA") and the country is only the code, Maileva's
 * "Code du pays (Code ISO-3166)"; a French overseas postcode gives its territory's code where the
 * API's list has it (domain/mailings/countries.ts, docs/operators.md "Letters abroad").
 */
export function mailevaAddress(address: PostalAddress, countryCode = 'FR'): MailevaAddress {
  const lines: Record<string, string> = { address_line_1: address.name };
  address.lines.slice(0, 4).forEach((line, i) => (lines[`address_line_${i + 2}`] = line));
  return { ...lines, address_line_6: postcodeLine({ ...address, city: address.city.toUpperCase() }), country_code: countryCode };
}

/** The recipient's `country_code` on the API of the mode. */
export const recipientCountryCode = (address: PostalAddress, mode: Mode): string => operatorCountryCode(address, apiOf(mode) === 'registered_mail');

function senderLines(address: PostalAddress): Record<string, string> {
  return Object.fromEntries(
    Object.entries(mailevaAddress(address)).map(([key, value]) => [key === 'country_code' ? 'sender_country_code' : `sender_${key}`, value]),
  );
}

/** A PDF, whether Maileva answers it as such or inside a zip (the documents declare application/zip for downloads). */
export function pdfFrom(bytes: Buffer): Buffer {
  if (bytes.subarray(0, 4).toString('latin1') !== 'PK\u0003\u0004') return bytes;
  // The zip's local file headers, in order: the first entry that is a PDF.
  for (let at = 0; at + 30 <= bytes.length && bytes.readUInt32LE(at) === 0x04034b50;) {
    const method = bytes.readUInt16LE(at + 8);
    const size = bytes.readUInt32LE(at + 18);
    const nameLength = bytes.readUInt16LE(at + 26);
    const extraLength = bytes.readUInt16LE(at + 28);
    const start = at + 30 + nameLength + extraLength;
    const data = bytes.subarray(start, start + size);
    const content = method === 8 ? inflateRawSync(data) : data;
    if (content.subarray(0, 5).toString('latin1') === '%PDF-') return content;
    at = start + size;
  }
  throw new MailevaError('Maileva answered a zip without a PDF', 200, null, true);
}

/**
 * The sending (mail v2 `sending_creation`, registered_mail v2 likewise) of a filing: our options by
 * Maileva's names; a simple letter's speed as `postage_type` (issue 55; FAST when the request
 * gave none, Maileva's own default) and its returns as `treat_undelivered_mail` (false unless
 * options.returnedMail is digital), which registered_mail v2 does not have.
 */
export function mailevaSending(filing: Filing, notificationEmail: string): Record<string, unknown> {
  const common = {
    name: filing.title.slice(0, 256) || filing.shipmentId,
    custom_id: filing.shipmentId,
    color_printing: filing.options.color === true,
    duplex_printing: filing.options.duplex === true,
    notification_email: notificationEmail,
    ...senderLines(filing.sender),
  };
  if (filing.mode === 'simple') {
    // Returns handled digitally (options.returnedMail): Maileva's "gestion électronique des PND", its notices to our address.
    const digital = filing.options.returnedMail === 'digital';
    return {
      ...common,
      print_sender_address: false,
      postage_type: MAILEVA_POSTAGE_TYPES[filing.options.postage ?? DEFAULT_POSTAGE],
      treat_undelivered_mail: digital,
      ...(digital ? { notification_treat_undelivered_mail: [notificationEmail] } : {}),
      // The return envelope, archive and envelope fields asked (./maileva-options.ts); print_sender_address among them when asked.
      ...mailevaOptionFields(filing),
    };
  }
  return {
    ...common,
    acknowledgement_of_receipt: filing.mode === 'ar',
    acknowledgement_of_receipt_scanning: filing.mode === 'ar',
    ...mailevaOptionFields(filing),
  };
}

/**
 * Maileva behind PostalOperator. Filing: find or create the sending (its `custom_id` is our
 * mailing id; its id is kept with the mailing before submitting), add the printed letter and the
 * recipient while it is a draft, submit it once, then wait (retried) until Maileva has processed
 * the recipient or rejected it. Tracking: the sending, the recipient and its delivery statuses.
 */
export class MailevaOperator implements PostalOperator {
  readonly name = 'maileva';

  constructor(
    private readonly client: MailevaClient,
    private readonly records: OperatorRecords,
    private readonly notificationEmail: string,
  ) {}

  async file(filing: Filing): Promise<void> {
    const api = apiOf(filing.mode);
    const known = await this.records.reference(filing.shipmentId);
    // A recipient is recorded right before the submit: from then on the letter may be Maileva's,
    // and no failure says for sure that it is not (the claim stays, no cancellation).
    let reachedOperator = known.recipientId !== null;
    let sendingId = known.sendingId;
    try {
      let sending = sendingId ? await this.client.getSending(api, sendingId) : await this.client.findSending(api, filing.shipmentId);
      // A sending created now is empty: no need to ask what it holds.
      const fresh = !sending;
      sending ??= await this.client.createSending(api, this.sendingOf(filing));
      if (sending.id !== sendingId) await this.records.remember(filing.shipmentId, { sendingId: sending.id });
      sendingId = sending.id;
      if (sending.status === undefined || sending.status === 'DRAFT') {
        if (fresh || (await this.client.documentCount(api, sending.id)) === 0)
          await this.client.addDocument(api, sending.id, filing.pdf, `${filing.shipmentId}.pdf`);
        const [existing] = fresh ? [] : await this.client.recipients(api, sending.id);
        const recipient =
          existing ??
          (await this.client.addRecipient(api, sending.id, {
            ...mailevaAddress(filing.recipient, recipientCountryCode(filing.recipient, filing.mode)),
            custom_id: filing.shipmentId.slice(0, 32),
          }));
        await this.records.remember(filing.shipmentId, { recipientId: recipient.id });
        reachedOperator = true;
        await this.client.submit(api, sending.id);
        sending = { ...sending, status: 'PENDING' };
      }
      reachedOperator = true;
      await this.acceptedOrRejected(api, sending);
    } catch (error) {
      if (!(error instanceof MailevaError)) throw error;
      if (!reachedOperator) throw error.retryable ? new OperatorUnavailableError(error.message) : new OperatorRejectedError(error.message);
      if (error.retryable || !sendingId) throw error;
      // A refusal once the letter may be Maileva's (e.g. of the submit): final only while the sending is still a draft.
      const sending = await this.client.getSending(api, sendingId).catch(() => undefined);
      if (sending?.status === 'DRAFT') throw new OperatorRejectedError(error.message);
      throw error;
    }
  }

  /** Filed once Maileva has processed the recipient (printed, in its envelope); refused for good when it rejects either. */
  private async acceptedOrRejected(api: MailevaApi, sending: Sending): Promise<void> {
    // The recipient's reason first: a sending is rejected as a whole when its only recipient is.
    const [recipient] = await this.client.recipients(api, sending.id);
    if (recipient?.status === 'REJECTED')
      throw new OperatorRejectedError(`Maileva rejected the recipient${recipient.status_detail ? `: ${recipient.status_detail}` : ''}`);
    if (sending.status === 'REJECTED')
      throw new OperatorRejectedError(`Maileva rejected the sending${sending.status_detail ? `: ${sending.status_detail}` : ''}`);
    if (recipient?.status !== 'PROCESSED')
      throw new OperatorPendingError(`submitted; Maileva has not processed the letter yet (sending ${sending.status ?? 'unknown'})`);
  }

  /** The sending Maileva creates for a filing (exported for its unit test through `mailevaSending`). */
  private sendingOf(filing: Filing): Record<string, unknown> {
    return mailevaSending(filing, this.notificationEmail);
  }

  async trackingStatus(mailingId: string, mode: Mode): Promise<OperatorNews> {
    const api = apiOf(mode);
    const { sending, recipient } = await this.filed(mailingId, mode);
    const deliveries = await this.client.deliveryStatuses(api, sending.id, recipient.id);
    return {
      status: mailevaStatus(mode, sending, recipient, deliveries),
      ...(recipient.registered_number ? { trackingNumber: recipient.registered_number } : {}),
      ...(typeof recipient.postage_price === 'number' ? { postageCents: Math.round(recipient.postage_price * 100) } : {}),
      ...(sending.envelope_type ? { envelopeType: sending.envelope_type } : {}),
    };
  }

  async proof(mailingId: string, mode: Mode, kind: ProofKind): Promise<Uint8Array | undefined> {
    if (mode === 'simple') return undefined;
    if (kind === 'filing') {
      const { sendingId } = await this.records.reference(mailingId);
      return sendingId ? pdfFrom(await this.client.depositProof(sendingId)) : undefined;
    }
    if (kind === 'delivery' && mode === 'ar') {
      const { sending, recipient } = await this.filed(mailingId, mode);
      return pdfFrom(await this.client.acknowledgementOfReceipt(sending.id, recipient.id));
    }
    return undefined;
  }

  private async filed(mailingId: string, mode: Mode): Promise<{ sending: Sending; recipient: Recipient }> {
    const api = apiOf(mode);
    const { sendingId, recipientId } = await this.records.reference(mailingId);
    if (!sendingId) throw new Error(`shipment ${mailingId} has no Maileva sending`);
    const sending = await this.client.getSending(api, sendingId);
    const recipients = await this.client.recipients(api, sendingId);
    const recipient = recipients.find((r) => r.id === recipientId) ?? recipients[0];
    if (!recipient) throw new Error(`the Maileva sending of shipment ${mailingId} has no recipient`);
    return { sending, recipient };
  }
}
