import Joi from 'joi';
import { CHANNELS, ELECTRONIC_ENDS, FALLBACKS, MODES, PROOF_KINDS, STATUSES } from '../../domain/mailings/states.js';
import { listEnvelope, pageQuery, requestWarningsSchema, slug, uuid } from './common.js';
import { freeLetter } from '../../domain/letters/free-letter.js';
import { SEND_AT_MAX_DAYS } from '../../domain/mailings/send-date-check.js';
import { SEND_AT_PATTERN } from '../../domain/mailings/send-date-filing-time.js';

/** A send date's shape (400 otherwise); a day in the past or too far ahead is a 422 naming `sendAt`. */
export const sendAt = Joi.string()
  .pattern(SEND_AT_PATTERN, 'YYYY-MM-DD')
  .description(
    `The day the letter is filed (YYYY-MM-DD, Europe/Paris), from today to ${SEND_AT_MAX_DAYS} days ahead. Paid at once; it stays paid, and can be canceled free, until 00:00 Europe/Paris that day, when it is filed. Absent: filed at once.`,
  );
import { ADDRESS_PLACEMENTS } from '../../domain/mailings/own-pdf.js';
import { ADDRESS_CHECKS } from '../../domain/mailings/request.js';
import { ENVELOPE_WINDOWS } from '../../domain/mailings/postal-options.js';
import { ARCHIVE_YEARS } from '../../domain/access/postal-settings.js';
import { POSTAGE_SPEEDS } from '../../domain/mailings/postage.js';
import { RETURNED_MAIL } from '../../domain/mailings/returned-mail.js';

/**
 * An address as sent; its postal rules (6 lines of 38 characters, a real postcode and commune in
 * France, the country's rules abroad: domain/mailings/countries.ts) are checked after the shape
 * and answer 422 address_invalid.
 */
export const postalAddress = Joi.object({
  name: Joi.string().max(200).required(),
  lines: Joi.array().items(Joi.string().allow('').max(200)).max(10).required(),
  postcode: Joi.string().max(10).required(),
  city: Joi.string().max(100).required(),
  country: Joi.string()
    .pattern(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2')
    .default('FR')
    .description(
      "ISO 3166-1 alpha-2, in capitals (FR when absent). A sender is in France (FR). A recipient may be abroad, in any country of the postal operator's list (an unknown code: 422 address_invalid naming recipient.country); France's overseas departments and territories are FR with their postcode. Registered and AR letters abroad: Monaco (MC) and Andorra (AD) only (422 destination_not_served); an electronic one goes anywhere by email, its paper fallback only there",
    ),
}).label('MailingAddress');

/** A recipient named by its SIRET: the directory gives its registered address (and its name unless given). */
const siretRecipient = Joi.object({
  siret: Joi.string()
    .pattern(/^\d{14}$/)
    .required()
    .description("The establishment's SIRET (14 digits); its registered address comes from the national business directory"),
  name: Joi.string().max(200).description("Printed instead of the company's name from the directory"),
}).label('SiretRecipient');

const catalogueLetter = Joi.object({
  slug: slug.required(),
  provider: Joi.string().min(1).max(80),
  fields: Joi.object()
    .pattern(Joi.string().max(64), Joi.alternatives(Joi.string().max(5000), Joi.number()))
    .max(200)
    .default({}),
}).label('CatalogueLetterContent');

/**
 * The customer's own PDF, base64: checked before anything is charged (domain/mailings/own-pdf.ts,
 * 422 pdf_refused naming `details.reason`). SPEC.md's 1 MB body limit holds: a PDF of about 750 KB fits.
 */
const ownPdfLetter = Joi.object({
  pdf: Joi.string()
    .pattern(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)
    .min(4)
    .max(1_048_576)
    .required()
    .description('The PDF file, base64 encoded: A4 portrait pages, fonts embedded, no encryption, scripts or actions, at most 45 sheets'),
  title: Joi.string().max(200).description('Title of the mailing; "Document PDF" when absent'),
}).label('PdfLetterContent');

export const mailingMode = Joi.string()
  .valid(...MODES)
  .description('simple, registered, or ar (registered with acknowledgment of receipt)');
export const mailingLetter = Joi.alternatives(catalogueLetter, freeLetter, ownPdfLetter);
export const mailingRecipient = Joi.alternatives(postalAddress, siretRecipient);
export const mailingReference = Joi.string().max(30).description('Your own reference (at most 30 characters), filterable');

/** The operator's envelope, return envelope and archive options (issue 55; domain/mailings/postal-options.ts checks them per mode). */
const postalOperatorOptions = {
  returnEnvelope: Joi.boolean().description(
    "true: the account's pre-addressed return envelope (its settings: type and the operator's reference) is slipped into the letter, priced mailing.return_envelope; 422 return_envelope_not_configured when the account has none. A prepaid one (« enveloppe T ») is left out by the operator for a recipient outside metropolitan France and the overseas departments",
  ),
  archiveYears: Joi.number()
    .integer()
    .valid(...ARCHIVE_YEARS.simple)
    .description(
      "Years the operator archives the letter and its proofs: simple 0, 1, 3, 6 or 10 (0 included), registered and ar 3, 6 or 10 (3 included; 422 option_not_available otherwise); each year beyond the included ones is a mailing.archive_year. Absent: the account's setting, else the included duration",
    ),
  envelopeWindows: Joi.string()
    .valid(...ENVELOPE_WINDOWS)
    .description(
      "Simple letters only (422 option_not_available otherwise): a DL envelope with one window (the recipient) or two (the sender too). Absent: the operator's choice",
    ),
  printSenderAddress: Joi.boolean().description(
    "Simple letters only (422 option_not_available otherwise): the operator prints the sender's address too. Absent: false",
  ),
};

export const mailingOptions = Joi.object({
  color: Joi.boolean().default(false),
  duplex: Joi.boolean().default(false),
  emailCopy: Joi.boolean().default(false).description('Also send an electronic copy to recipientEmail (then required)'),
  addressPlacement: Joi.string()
    .valid(...ADDRESS_PLACEMENTS)
    .description(
      'PDF letters only. insert_blank_page (the default): an address sheet printed with the sender and recipient is put in front, priced as one more sheet; first_page: the window zone of page 1 must be blank (422 otherwise).',
    ),
  addressCheck: Joi.string()
    .valid(...ADDRESS_CHECKS)
    .description(
      'strict: a recipient address the national address base does not confirm is refused (422 address_invalid with details.suggestions); lenient: it is posted as given, with an address_unverified warning. Absent: strict, or lenient for accounts opened before 2026-11-25 (no request that worked is refused). The base holds French addresses only: for a recipient abroad it does not apply (an address_check_not_applied warning when given)',
    ),
  ...postalOperatorOptions,
  postage: Joi.string()
    .valid(...POSTAGE_SPEEDS)
    .description(
      'Mode simple only (422 option_not_available otherwise: registered letters have one speed). fast (the default): Lettre verte, announced J+3; economic: Ecopli, J+4, cheaper (unit mailing.simple.economic); urgent: the J+1 letter, dearer (unit mailing.simple.urgent)',
    ),
  returnedMail: Joi.string()
    .valid(...RETURNED_MAIL)
    .description(
      'Mode simple only (422 option_not_available otherwise). What happens to a letter that cannot be delivered: sender (the default), La Poste brings it back to the sender; digital, the operator takes it back and scans it, and the mailing ends returned (step 3) with the return proof and mailing.returned carrying the reason (unit mailing.returned_mail.digital)',
    ),
}).default({ color: false, duplex: false, emailCopy: false });

/** The recipient's email: the electronic channel's address, or where options.emailCopy goes. */
export const recipientEmail = Joi.string().email({ tlds: false }).max(254);

/** How a mailing reaches its recipient (issue 54): posted (the default), or a qualified electronic registered letter. */
export const mailingChannel = Joi.string()
  .valid(...CHANNELS)
  .description(
    'paper (the default): printed and posted. electronic: a qualified electronic registered letter (LRE, CPCE L100), for modes registered and ar only (422 channel_not_available), sent to recipientEmail (then required, 422 recipient_email_required); then `electronic` is required',
  );

/** The sender's statement of a consumer recipient's prior consent (CPCE L100): when and how. */
export const electronicConsent = Joi.object({
  date: Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
    .required()
    .description('The day the recipient agreed (YYYY-MM-DD), not in the future (422 otherwise)'),
  means: Joi.string().min(1).max(500).required().description('How it agreed, e.g. "clause 12 of the lease signed 2026-01-10" or "form on our site"'),
}).label('ElectronicConsent');

export const electronicRequest = Joi.object({
  recipientKind: Joi.string()
    .valid('professional', 'consumer')
    .required()
    .description('Whether the recipient is a professional; a consumer must have agreed beforehand (consent, 422 consent_required without it)'),
  consent: electronicConsent,
  fallback: Joi.string()
    .valid(...FALLBACKS)
    .default('none')
    .description(
      'paper: if the recipient refuses, does not claim within 15 days, or the email bounces, the same letter is posted in the mode asked (its paper price is held at creation, refunded when not used); none (the default): the mailing ends there',
    ),
})
  .label('ElectronicRequest')
  .description('With channel electronic only (required then; 422 when given for paper)');

export const mailingRequestSchema = Joi.object({
  mode: mailingMode.required(),
  letter: mailingLetter.required(),
  sender: postalAddress.required(),
  recipient: mailingRecipient.description(
    "An address, or { siret, name? } for an establishment's registered address. Optional when the catalogue letter's provider carries the address",
  ),
  recipientEmail,
  reference: mailingReference,
  options: mailingOptions,
  sendAt,
  channel: mailingChannel.default('paper'),
  electronic: electronicRequest,
}).label('MailingRequest');

export type { MailingAddressInput, MailingRequest } from '../../domain/mailings/request.js';

export const mailingSchema = Joi.object({
  id: uuid.required(),
  title: Joi.string().required(),
  mode: Joi.string()
    .valid(...MODES)
    .required(),
  modeLabel: Joi.string().required(),
  status: Joi.string()
    .valid(...STATUSES)
    .required(),
  statusLabel: Joi.string().required(),
  step: Joi.number().integer().min(0).required(),
  lastStep: Joi.number().integer().required(),
  trackingNumber: Joi.string().required(),
  createdAt: Joi.string().isoDate().required(),
  events: Joi.array()
    .items(
      Joi.object({
        step: Joi.number().integer().required(),
        status: Joi.string()
          .valid(...STATUSES)
          .required(),
        label: Joi.string().required(),
        at: Joi.string().isoDate().required(),
      }),
    )
    .required(),
  orderId: Joi.any().valid(null).required(),
  recipient: Joi.array().items(Joi.string()).required(),
  amountCents: Joi.number().integer().required(),
  reference: Joi.string().allow('').max(30).required(),
  test: Joi.boolean().required(),
  proofs: Joi.array()
    .items(
      Joi.object({
        kind: Joi.string()
          .valid(...PROOF_KINDS)
          .required(),
        label: Joi.string().required(),
      }),
    )
    .required(),
  warnings: requestWarningsSchema.required(),
  sendAt: sendAt.allow(null).required().description('The send date (YYYY-MM-DD, Europe/Paris) the mailing waits for while paid; null when filed at once'),
  batch: uuid.allow(null).required().description('The batch it was sent in (POST /v1/mailing-batches); null for a mailing of its own'),
  erasedAt: Joi.string()
    .isoDate()
    .allow(null)
    .required()
    .description(
      'When its personal data was erased (POST /v1/mailings/{id}/erase, or the account\'s retention period after it became final); null: not erased. An erased mailing keeps its amount, history, tracking number and hashes; its recipient reads ["(effacé)"], its document has an empty text (and the title "(effacé)" unless a catalogue letter), its proofs are listed but no longer downloadable',
    ),
  channel: Joi.string()
    .valid(...CHANNELS)
    .required()
    .description('paper (every mailing created without a channel) or electronic'),
  electronic: Joi.object({
    recipientKind: Joi.string().valid('professional', 'consumer').required(),
    consent: electronicConsent.allow(null).required(),
    fallback: Joi.string()
      .valid(...FALLBACKS)
      .required(),
    fallbackUsed: Joi.boolean()
      .required()
      .description('true once the letter goes on by post after refused, unclaimed or bounced (its lastStep is then 7, or 8 in mode ar)'),
    providerReference: Joi.string().allow(null).required().description("The provider's number of the electronic letter, once it took it"),
  })
    .label('MailingElectronic')
    .allow(null)
    .required()
    .description('The electronic channel; null for paper'),
  postage: Joi.object({
    speed: Joi.string()
      .valid(...POSTAGE_SPEEDS)
      .required()
      .description('options.postage as asked (fast when absent)'),
    product: Joi.string().required().description("La Poste's product for that speed"),
    deliveryDays: Joi.number().integer().min(1).required().description('The delivery time La Poste announces, in working days after posting (indicative)'),
  })
    .label('MailingPostage')
    .allow(null)
    .required()
    .description("A simple letter's postage speed; null for registered and AR letters, which have one speed"),
  returnedMail: Joi.string()
    .valid(...RETURNED_MAIL)
    .allow(null)
    .required()
    .description(
      'A simple letter that cannot be delivered: sender (every simple letter asked without options.returnedMail) or digital; null for registered and AR letters',
    ),
  document: Joi.object({
    kind: Joi.string().valid('catalogue', 'free', 'pdf').required(),
    title: Joi.string().required(),
    text: Joi.string().allow('').required().description('The letter as text; empty for a PDF letter (its text is not extracted)'),
    letter: Joi.object({ slug: Joi.string().required(), provider: Joi.string().allow(null).required() }),
    sha256: Joi.string()
      .pattern(/^[0-9a-f]{64}$/)
      .description('PDF letters: SHA-256 of the PDF as sent, which is what is printed (after the address sheet) and posted'),
    pages: Joi.number().integer().min(1).description('PDF letters: pages of the PDF as sent'),
    sheets: Joi.number().integer().min(1).description('PDF letters: sheets in the envelope (the address sheet included)'),
    addressPlacement: Joi.string()
      .valid(...ADDRESS_PLACEMENTS)
      .description('PDF letters: where the address is printed'),
  }).description('The letter content; absent from webhook payloads'),
}).label('Shipment');

/** What POST /v1/mailing-quotes answers: the price of that request, without charging or creating anything. */
export const mailingQuoteSchema = Joi.object({
  amountCents: Joi.number().integer().min(0).required().description('What POST /v1/mailings would debit (live keys), excluding VAT'),
  vatCents: Joi.number().integer().min(0).required().description('VAT on amountCents (20 %)'),
  sheets: Joi.number()
    .integer()
    .min(1)
    .allow(null)
    .required()
    .description('Sheets in the envelope (PDF letters: the address sheet included); null for catalogue and free letters, laid out at filing'),
  pages: Joi.number().integer().min(1).allow(null).required().description("Pages of the customer's PDF; null for catalogue and free letters"),
  lines: Joi.array()
    .items(
      Joi.object({
        unit: Joi.string().required().description('A unit of the price table (GET /v1/catalogue prices, docs/billing.md)'),
        quantity: Joi.number().integer().min(1).required(),
        amountCents: Joi.number().integer().min(0).required(),
      }),
    )
    .required(),
}).label('MailingQuote');

export const mailingListSchema = listEnvelope(mailingSchema, 'ShipmentList');

export const mailingListQuery = Joi.object({
  ...pageQuery,
  reference: Joi.string().max(30),
  status: Joi.string().valid(...STATUSES),
  batch: uuid.description("Only this batch's mailings"),
});

export const mailingIdParams = Joi.object({ id: uuid.required() });

export const proofParams = Joi.object({
  id: uuid.required(),
  kind: Joi.string()
    .valid(...PROOF_KINDS)
    .required(),
});

export const proofLinkSchema = Joi.object({
  kind: Joi.string()
    .valid(...PROOF_KINDS)
    .required(),
  url: Joi.string().uri().required().description('Signed download link of the PDF proof'),
  expiresAt: Joi.string().isoDate().required(),
  sha256: Joi.string()
    .pattern(/^[0-9a-f]{64}$/)
    .description(
      "SHA-256 of the proof's PDF, as the download serves it; it stays once the mailing's personal data is erased (404 proof_erased gives it then), to check a copy you kept",
    ),
}).label('ProofLink');

/** V1TestAdvance: {} (next step), { step } (that step) or { status }: returned | error, or an electronic letter's end. */
export const testAdvanceSchema = Joi.object({
  step: Joi.number().integer().min(1).max(10),
  status: Joi.string()
    .valid('returned', 'error', ...ELECTRONIC_ENDS)
    .description(
      'returned or error; for an electronic letter before its end, accepted, refused, unclaimed or bounced (with fallback paper, the last three then post it)',
    ),
})
  .oxor('step', 'status')
  .label('V1TestAdvance');

export type { TestAdvance } from '../../domain/mailings/states.js';
