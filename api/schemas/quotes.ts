import Joi from 'joi';
import { slug } from './common.js';
import { computedHead, computeRequestSchema } from './calculators.js';

export const quoteParams = Joi.object({ slug: slug.required() });

export const quoteEstimateRequestSchema = computeRequestSchema
  .keys({
    inputs: computeRequestSchema.extract('inputs').description("The quote's inputs by name (see GET /v1/catalogue); contact fields are not needed to estimate"),
  })
  .label('QuoteEstimateRequest');

const lineItem = Joi.object({
  code: Joi.string().required().description('Stable identifier of the line, e.g. handling, transport, volumeDiscount'),
  label: Joi.string().required(),
  quantity: Joi.number().required(),
  unit: Joi.string().required().description('m3, truck, km, floor_m3, letter, sheet, page, document, flat'),
  unitAmountCents: Joi.number().integer().required(),
  amountCents: Joi.number().integer().required().description('quantity × unitAmountCents, rounded to the cent; negative for a discount'),
}).label('QuoteLineItem');

export const quoteEstimateSchema = Joi.object({
  ...computedHead,
  route: Joi.object({
    from: Joi.string().required(),
    to: Joi.string().required(),
    distanceKm: Joi.number().required(),
    durationMinutes: Joi.number().integer().required(),
  })
    .label('QuoteRoute')
    .allow(null)
    .required()
    .description('The road route, for quotes that need one (geocoded labels of from and to); null otherwise'),
  currency: Joi.string().valid('EUR').required(),
  lineItems: Joi.array().items(lineItem).required(),
  totalCents: Joi.number().integer().required().description('Sum of the line items, excluding VAT'),
  vatRate: Joi.number().required(),
  vatCents: Joi.number().integer().required(),
  totalInclVatCents: Joi.number().integer().required(),
  validUntil: Joi.string().required().description('Date (Europe/Paris) until which the estimate holds: 30 days'),
  notes: Joi.array().items(Joi.string()).required().description('What the estimate includes or not, and what binds'),
  source: Joi.array().items(Joi.string()).required(),
}).label('QuoteEstimate');
