import Joi from 'joi';
import { CHANNELS, FALLBACKS, MODES, STATUSES } from '../../domain/mailings/states.js';
import { listEnvelope, pageQuery, requestWarningsSchema, uuid } from './common.js';
import {
  electronicConsent,
  electronicRequest,
  mailingChannel,
  mailingLetter,
  mailingMode,
  mailingOptions,
  mailingRecipient,
  mailingReference,
  postalAddress,
  recipientEmail,
  sendAt,
} from './mailings.js';

/**
 * Rows of one batch. SPEC.md's 1 MB body holds about 5,000 rows of a typical size (a recipient
 * address, two or three fields and a reference: about 190 bytes of JSON each; docs/batches.md).
 */
export const MAX_BATCH_ROWS = 5000;

const batchRow = Joi.object({
  recipient: mailingRecipient.required().description("An address, or { siret, name? } for an establishment's registered address"),
  fields: Joi.object()
    .pattern(Joi.string().max(64), Joi.alternatives(Joi.string().max(5000), Joi.number()))
    .max(200)
    .description("This row's values: a catalogue letter's fields (over the letter's own), or a free-form letter's {{variables}}"),
  reference: mailingReference.description("This row's mailing reference (at most 30 characters), filterable"),
  recipientEmail: recipientEmail.description(
    "This row's recipient's email: required with channel electronic (422 recipient_email_required), or with options.emailCopy",
  ),
  consent: electronicConsent.description(
    "With channel electronic and a consumer recipient: this row's recipient's prior consent (over the batch's electronic.consent, if any)",
  ),
}).label('MailingBatchRow');

export const batchRequestSchema = Joi.object({
  mode: mailingMode.required(),
  letter: mailingLetter
    .required()
    .description(
      'One letter for every row: a catalogue letter (each row completes its fields), a free-form letter whose title and body may hold {{variables}}, or an own PDF',
    ),
  sender: postalAddress.required(),
  options: mailingOptions,
  sendAt,
  channel: mailingChannel.default('paper'),
  electronic: electronicRequest.description(
    "With channel electronic only: every row's recipientKind and fallback (and a consent for rows without their own). Each row is checked as POST /v1/mailings checks one mailing",
  ),
  rows: Joi.array().items(batchRow).min(1).max(MAX_BATCH_ROWS).required().description(`One mailing per row, at most ${MAX_BATCH_ROWS}`),
  dryRun: Joi.boolean().default(false).description('true: check every row and answer the report and the price; nothing is created or charged'),
}).label('MailingBatchRequest');

export type { BatchRequest } from '../../domain/batches/request.js';

export const batchSchema = Joi.object({
  id: uuid.required(),
  mode: Joi.string()
    .valid(...MODES)
    .required(),
  test: Joi.boolean().required(),
  channel: Joi.string()
    .valid(...CHANNELS)
    .required()
    .description('paper (every batch created without a channel) or electronic'),
  fallback: Joi.string()
    .valid(...FALLBACKS)
    .allow(null)
    .required()
    .description("An electronic batch's paper fallback; null for paper"),
  status: Joi.string().valid('processing', 'completed').required().description('completed once every mailing of the batch is final (mailing_batch.completed)'),
  mailingCount: Joi.number().integer().min(1).required(),
  amountCents: Joi.number().integer().min(0).required().description('Debited once for the whole batch (live keys), excluding VAT'),
  counts: Joi.object()
    .pattern(Joi.string().valid(...STATUSES), Joi.number().integer().min(1))
    .required()
    .description("The batch's mailings by status (statuses with none are absent)"),
  createdAt: Joi.string().isoDate().required(),
  finishedAt: Joi.string().isoDate().allow(null).required(),
}).label('MailingBatch');

export const batchListSchema = listEnvelope(batchSchema, 'MailingBatchList');

export const batchReportSchema = Joi.object({
  valid: Joi.boolean().required().description('Every row can be sent'),
  rowCount: Joi.number().integer().min(1).required(),
  invalidCount: Joi.number().integer().min(0).required(),
  amountCents: Joi.number().integer().min(0).required().description('The sum of the valid rows: what a live key is debited, once (test keys: nothing)'),
  rows: Joi.array()
    .items(
      Joi.object({
        index: Joi.number().integer().min(0).required(),
        reference: Joi.string().allow(null).required(),
        ok: Joi.boolean().required(),
        amountCents: Joi.number().integer().min(0).allow(null).required(),
        warnings: requestWarningsSchema.required(),
        error: Joi.object({
          code: Joi.string().required(),
          message: Joi.string().required(),
          details: Joi.any(),
        })
          .label('MailingBatchRowError')
          .allow(null)
          .required()
          .description('What POST /v1/mailings would answer for this row (its 422 code, message and details)'),
      }),
    )
    .required(),
}).label('MailingBatchReport');

export const batchListQuery = Joi.object({ ...pageQuery });
export const batchIdParams = Joi.object({ id: uuid.required() });
