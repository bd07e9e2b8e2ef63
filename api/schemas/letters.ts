import Joi from 'joi';
import { catalogueLetterSchema, fieldSchema, postalAddressSchema } from '../../domain/catalogue/schema.js';
import { requestWarningsSchema, slug } from './common.js';

export const letterSlugParams = Joi.object({ slug: slug.required() });

export const letterDetailQuery = Joi.object({
  provider: Joi.string().min(1).max(80).description('Provider slug: the exact fields for that provider'),
});

const fieldValue = Joi.alternatives(Joi.string().max(5000), Joi.number());

/** LetterRenderRequest (render and pdf). */
export const letterRenderRequestSchema = Joi.object({
  provider: Joi.string().min(1).max(80).description('A provider of the letter; its address becomes the recipient and its own fields apply'),
  fields: Joi.object().pattern(Joi.string().max(64), fieldValue).max(200).default({}).description('Field values by field name'),
}).label('LetterRenderRequest');

export interface LetterRenderRequest {
  provider?: string;
  fields: Record<string, string | number>;
}

const segmentSchema = Joi.alternatives(
  Joi.object({ type: Joi.string().valid('text').required(), text: Joi.string().allow('').required() }).label('LetterTextSegment'),
  Joi.object({
    type: Joi.string().valid('field').required(),
    name: Joi.string().required(),
    label: Joi.string().required(),
    value: Joi.string().allow(null).required(),
  }).label('LetterFieldSegment'),
).label('Segment');

export const letterRenderSchema = Joi.object({
  segments: Joi.array().items(segmentSchema).required().description('Literal text and field slots, in reading order'),
  text: Joi.string().required().description('The letter as plain text; a missing value reads as [its label]'),
  missingFields: Joi.array().items(Joi.string()).required().description('Required fields without a value'),
  warnings: requestWarningsSchema.required(),
}).label('LetterRender');

export const letterDetailSchema = catalogueLetterSchema
  .keys({
    provider: Joi.object({ slug: Joi.string().required(), name: Joi.string().required(), address: postalAddressSchema.required() })
      .label('LetterProvider')
      .allow(null)
      .required(),
    fields: Joi.array().items(fieldSchema).required().description('Every field to send, for this provider when one is given'),
    template: Joi.object({ subject: Joi.string().required(), body: Joi.string().required() }).required(),
  })
  .label('LetterDetail');
