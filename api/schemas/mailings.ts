import Joi from 'joi';
import { MODES, PROOF_KINDS, STATUSES } from '../../domain/mailings/states.js';
import { listEnvelope, pageQuery, requestWarningsSchema, slug, uuid } from './common.js';
import { freeLetter } from '../../domain/letters/free-letter.js';
import { ADDRESS_CHECKS } from '../../domain/mailings/request.js';

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

export const mailingRequestSchema = Joi.object({
  mode: Joi.string()
    .valid(...MODES)
    .required()
    .description('simple, registered, or ar (registered with acknowledgment of receipt)'),
  letter: Joi.alternatives(catalogueLetter, freeLetter).required(),
  sender: postalAddress.required(),
  recipient: Joi.alternatives(postalAddress, siretRecipient).description(
    "An address, or { siret, name? } for an establishment's registered address. Optional when the catalogue letter's provider carries the address",
  ),
  recipientEmail: Joi.string().email({ tlds: false }).max(254),
  reference: Joi.string().max(30).description('Your own reference (at most 30 characters), filterable'),
  options: Joi.object({
    color: Joi.boolean().default(false),
    duplex: Joi.boolean().default(false),
    emailCopy: Joi.boolean().default(false).description('Also send an electronic copy to recipientEmail (then required)'),
    addressCheck: Joi.string()
      .valid(...ADDRESS_CHECKS)
      .default('strict')
      .description(
        'strict: a recipient address the national address base does not confirm is refused (422 address_invalid with details.suggestions); lenient: it is posted as given, with an address_unverified warning',
      ),
  }).default({ color: false, duplex: false, emailCopy: false, addressCheck: 'strict' }),
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
