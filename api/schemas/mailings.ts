import Joi from 'joi';
import { MODES, PROOF_KINDS, STATUSES } from '../../domain/mailings/states.js';
import { listEnvelope, pageQuery, requestWarningsSchema, slug, uuid } from './common.js';
import { freeLetter } from '../../domain/letters/free-letter.js';
import { SEND_AT_MAX_DAYS, SEND_AT_PATTERN } from '../../domain/mailings/send-date.js';

/** A send date's shape (400 otherwise); a day in the past or too far ahead is a 422 naming `sendAt`. */
const sendAt = Joi.string()
  .pattern(SEND_AT_PATTERN, 'YYYY-MM-DD')
  .description(
    `The day the letter is filed (YYYY-MM-DD, Europe/Paris), from today to ${SEND_AT_MAX_DAYS} days ahead. Paid at once; it stays paid, and can be canceled free, until 00:00 Europe/Paris that day, when it is filed. Absent: filed at once.`,
  );

/**
 * An address as sent; its postal rules (6 lines of 38 characters, a real postcode and commune)
 * are checked after the shape and answer 422 address_invalid.
 */
const postalAddress = Joi.object({
  name: Joi.string().max(200).required(),
  lines: Joi.array().items(Joi.string().allow('').max(200)).max(10).required(),
  postcode: Joi.string().max(10).required(),
  city: Joi.string().max(100).required(),
  country: Joi.string().valid('FR').default('FR'),
}).label('MailingAddress');

const catalogueLetter = Joi.object({
  slug: slug.required(),
  provider: Joi.string().min(1).max(80),
  fields: Joi.object()
    .pattern(Joi.string().max(64), Joi.alternatives(Joi.string().max(5000), Joi.number()))
    .max(200)
    .default({}),
}).label('CatalogueLetterContent');

export const mailingRequestSchema = Joi.object({
  mode: Joi.string()
    .valid(...MODES)
    .required()
    .description('simple, registered, or ar (registered with acknowledgment of receipt)'),
  letter: Joi.alternatives(catalogueLetter, freeLetter).required(),
  sender: postalAddress.required(),
  recipient: postalAddress.description("Optional when the catalogue letter's provider carries the address"),
  recipientEmail: Joi.string().email({ tlds: false }).max(254),
  reference: Joi.string().max(30).description('Your own reference (at most 30 characters), filterable'),
  options: Joi.object({
    color: Joi.boolean().default(false),
    duplex: Joi.boolean().default(false),
    emailCopy: Joi.boolean().default(false).description('Also send an electronic copy to recipientEmail (then required)'),
  }).default({ color: false, duplex: false, emailCopy: false }),
  sendAt,
}).label('MailingRequest');

export type { MailingAddressInput, MailingRequest } from '../../domain/mailings/request.js';

export const shipmentSchema = Joi.object({
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
  document: Joi.object({
    kind: Joi.string().valid('catalogue', 'free').required(),
    title: Joi.string().required(),
    text: Joi.string().required(),
    letter: Joi.object({ slug: Joi.string().required(), provider: Joi.string().allow(null).required() }),
  }).description('The letter content; absent from webhook payloads'),
}).label('Shipment');

export const shipmentListSchema = listEnvelope(shipmentSchema, 'ShipmentList');

export const mailingListQuery = Joi.object({
  ...pageQuery,
  reference: Joi.string().max(30),
  status: Joi.string().valid(...STATUSES),
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
}).label('ProofLink');

/** V1TestAdvance: {} (next step), { step } (that step) or { status: returned | error }. */
export const testAdvanceSchema = Joi.object({
  step: Joi.number().integer().min(1).max(10),
  status: Joi.string().valid('returned', 'error'),
})
  .oxor('step', 'status')
  .label('V1TestAdvance');

export type { TestAdvance } from '../../domain/mailings/states.js';
