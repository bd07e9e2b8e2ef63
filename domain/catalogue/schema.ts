import Joi from 'joi';

export const FIELD_TYPES = [
  'text',
  'multiline',
  'date',
  'amount',
  'integer',
  'number',
  'email',
  'phone',
  'iban',
  'enum',
  'siret',
  'postcode',
  'address',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const validRegExp = (value: string, helpers: Joi.CustomHelpers): string | Joi.ErrorReport => {
  try {
    new RegExp(value, 'u');
    return value;
  } catch {
    return helpers.error('any.invalid');
  }
};

/** A field of a letter, a provider, a calculator, an AI tool or a quote. */
export const fieldSchema = Joi.object({
  name: Joi.string()
    .pattern(/^[a-z][A-Za-z0-9]*$/)
    .max(64)
    .required(),
  label: Joi.string().min(1).max(200).required(),
  type: Joi.string()
    .valid(...FIELD_TYPES)
    .required(),
  required: Joi.boolean().required(),
  pattern: Joi.string().custom(validRegExp),
  options: Joi.when('type', {
    is: 'enum',
    then: Joi.array()
      .items(Joi.object({ value: Joi.string().required(), label: Joi.string().required() }))
      .min(1)
      .required(),
    otherwise: Joi.forbidden(),
  }),
  help: Joi.string().max(1000),
  example: Joi.alternatives(Joi.string(), Joi.number()),
  default: Joi.alternatives(Joi.string(), Joi.number(), Joi.boolean()),
}).label('Field');

/** A French postal address (at most 6 lines of 38 characters once printed). */
export const postalAddressSchema = Joi.object({
  name: Joi.string().min(1).max(38).required(),
  lines: Joi.array().items(Joi.string().min(1).max(38)).max(4).required(),
  postcode: Joi.string()
    .pattern(/^\d{5}$/)
    .required(),
  city: Joi.string().min(1).max(32).required(),
  country: Joi.string().valid('FR').required(),
}).label('PostalAddress');

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const catalogueSlug = Joi.string().pattern(slugPattern).min(1).max(80);

export const categorySchema = Joi.object({
  slug: catalogueSlug.required(),
  title: Joi.string().required(),
  description: Joi.string().required(),
}).label('Category');

export const providerSchema = Joi.object({
  slug: catalogueSlug.required(),
  name: Joi.string().required(),
  address: postalAddressSchema.required(),
  fields: Joi.array().items(fieldSchema).required(),
}).label('ProviderData');

export const letterDataSchema = Joi.object({
  slug: catalogueSlug.required(),
  title: Joi.string().required(),
  category: catalogueSlug.required(),
  summary: Joi.string().required(),
  legalBasis: Joi.array().items(Joi.string()).min(1).required(),
  recommendedMode: Joi.string().valid('simple', 'registered', 'ar').required(),
  keywords: Joi.array().items(Joi.string()).min(1).required(),
  providers: Joi.array().items(providerSchema).required(),
  fields: Joi.array().items(fieldSchema).required(),
  subject: Joi.string().required(),
  body: Joi.string().required(),
}).label('LetterData');

export const toolDataSchema = Joi.object({
  slug: catalogueSlug.required(),
  title: Joi.string().required(),
  category: catalogueSlug.required(),
  summary: Joi.string().required(),
  inputs: Joi.array().items(fieldSchema).required(),
  source: Joi.array().items(Joi.string()).required(),
  needsRoute: Joi.boolean(),
  examples: Joi.array().items(Joi.object().unknown(true)),
  scale: Joi.object().unknown(true),
}).label('ToolData');

/** What GET /v1/catalogue returns (DESIGN.md §2b). */
const publicField = fieldSchema;
export const catalogueLetterSchema = Joi.object({
  slug: Joi.string().required(),
  title: Joi.string().required(),
  category: Joi.string().required(),
  summary: Joi.string().required(),
  legalBasis: Joi.array().items(Joi.string()).required(),
  recommendedMode: Joi.string().valid('simple', 'registered', 'ar').required(),
  keywords: Joi.array().items(Joi.string()).required(),
  providers: Joi.array()
    .items(Joi.object({ slug: Joi.string().required(), name: Joi.string().required(), address: postalAddressSchema.required() }))
    .required(),
  fields: Joi.array().items(publicField).required(),
}).label('CatalogueLetter');
const publicTool = Joi.object({
  slug: Joi.string().required(),
  title: Joi.string().required(),
  category: Joi.string().required(),
  summary: Joi.string(),
  inputs: Joi.array().items(publicField).required(),
  source: Joi.array().items(Joi.string()),
  needsRoute: Joi.boolean(),
}).label('CatalogueTool');

export const catalogueSchema = Joi.object({
  version: Joi.string().required(),
  categories: Joi.array().items(categorySchema).required(),
  letters: Joi.array().items(catalogueLetterSchema).required(),
  calculators: Joi.array().items(publicTool).required(),
  aiTools: Joi.array().items(publicTool).required(),
  quotes: Joi.array().items(publicTool).required(),
  prices: Joi.object().unknown(true).required(),
}).label('Catalogue');
