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
  requiredWhen: Joi.object({
    field: Joi.string().required(),
    values: Joi.array().items(Joi.string()).min(1).required(),
  }).description(
    'The field is required when the enum field `field` has one of `values` (a letter then prints the passage that uses it; a calculator computes with it)',
  ),
  filledFrom: Joi.string()
    .valid('sender', 'recipient')
    .description(
      "In POST /v1/mailings this field is filled from the request's `sender` or `recipient` (the validated addresses the envelope window shows): no need to send it there; a different value is replaced, with a warning on the mailing",
    ),
}).label('Field');

/**
 * Where each legal source may point: the official French sites (Légifrance for the texts,
 * service-public.fr for the administration's own explanations), and EUR-Lex for EU regulations,
 * CJEU judgments and conventions the EU is party to, which neither French site publishes.
 */
export const SOURCE_URL = /^https:\/\/(?:www\.legifrance\.gouv\.fr|(?:www\.|entreprendre\.)?service-public\.fr|eur-lex\.europa\.eu)\//;
const isoDay = Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/);

/** The id Légifrance and DILA's LEGI data give one version of an article: LEGIARTI and 12 digits. */
export const LEGIARTI = /^LEGIARTI\d{12}$/;

/**
 * One legal source of a letter or a tool. A check date is a claim: `checkedOn` is the day the article
 * itself was read on the official site or in its official data (DILA's LEGI data, from which
 * Légifrance is published; the note then says which version of the code was read). A source read
 * only on an unofficial copy says `status: "read_on_copy"` (its date is the day of that reading: it
 * is not verified); a source nobody has read yet says `status: "unverified"` and has no date.
 * `legiarti` and `quote` tie a source to the official text: for the codes the LEGI data package
 * ships, test/unit/official-texts.test.ts finds the article by its id, checks it is in force under
 * the cited number and that it still says the quote.
 */
export const legalSourceSchema = Joi.object({
  text: Joi.string().min(3).max(200).required().description('The text: a code, a law, a regulation, a judgment'),
  article: Joi.string()
    .min(1)
    .max(100)
    .required()
    .description('The article(s) relied on, numbered as Légifrance numbers them (e.g. "R*311-12"), or "—" for a text as a whole'),
  url: Joi.string().pattern(SOURCE_URL).required().description('Légifrance, service-public.fr, or EUR-Lex for EU texts'),
  status: Joi.string()
    .valid('unverified', 'read_on_copy')
    .description(
      '"unverified": the text has not been read on the official site (then no checkedOn); "read_on_copy": it was read only on an unofficial copy, on the day checkedOn (not verified); absent: read on the official site or in its official data',
    ),
  checkedOn: isoDay
    .when('status', { is: 'unverified', then: Joi.forbidden(), otherwise: Joi.required() })
    .description(
      'Day (YYYY-MM-DD) the text was last read: on the official site or in its official data, or on a copy when status is "read_on_copy"; absent when status is "unverified"',
    ),
  legiarti: Joi.string()
    .pattern(LEGIARTI)
    .description(
      "Légifrance's id of the version of the article relied on (LEGIARTI and 12 digits), as in the article's address on Légifrance (…/article_lc/LEGIARTI…)",
    ),
  quote: Joi.string().min(10).max(300).description('The phrase of that article the letter or tool relies on, verbatim (short; spacing aside)'),
  note: Joi.string().max(500).description('What remains to check, or why the source is only partly verified'),
}).label('LegalSource');

/** Where a provider's postal address comes from. */
export const addressSourceSchema = Joi.object({
  description: Joi.string().min(3).max(400).required(),
  url: Joi.string().uri({ scheme: ['https', 'http'] }),
  checkedOn: isoDay.required(),
  reliability: Joi.string().valid('good', 'medium').required(),
}).label('AddressSource');

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
  addressSource: addressSourceSchema.required(),
  fields: Joi.array().items(fieldSchema).required(),
}).label('ProviderData');

export const letterDataSchema = Joi.object({
  slug: catalogueSlug.required(),
  title: Joi.string().required(),
  category: catalogueSlug.required(),
  summary: Joi.string().required(),
  legalBasis: Joi.array().items(Joi.string()).min(1).required(),
  sources: Joi.array().items(legalSourceSchema).min(1).required(),
  recommendedMode: Joi.string().valid('simple', 'registered', 'ar').required(),
  keywords: Joi.array().items(Joi.string()).min(1).required(),
  providers: Joi.array().items(providerSchema).required(),
  fields: Joi.array().items(fieldSchema).required(),
  subject: Joi.string().required(),
  body: Joi.string().required(),
  onlyWhen: Joi.array()
    .items(
      Joi.object({
        field: Joi.string().required(),
        when: Joi.object({ field: Joi.string().required(), values: Joi.array().items(Joi.string()).min(1).required() }).required(),
        why: Joi.string().min(20).required(),
      }),
    )
    .description(
      'Fields refused (422) when given while the enum field `when.field` has none of `when.values`, and why: the letter would print what the other field does not say',
    ),
}).label('LetterData');

export const toolDataSchema = Joi.object({
  slug: catalogueSlug.required(),
  title: Joi.string().required(),
  category: catalogueSlug.required(),
  summary: Joi.string().required(),
  inputs: Joi.array().items(fieldSchema).required(),
  source: Joi.array().items(Joi.string()).required(),
  sources: Joi.array().items(legalSourceSchema).min(1).required(),
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
  sources: Joi.array().items(legalSourceSchema).required(),
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
  sources: Joi.array().items(legalSourceSchema),
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
