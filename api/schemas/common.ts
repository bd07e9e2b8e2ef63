import Joi from 'joi';

/** SPEC.md: slugs are 1 to 80 characters. */
export const slug = Joi.string().min(1).max(80).description('Catalogue identifier');
export const uuid = Joi.string()
  .guid({ version: ['uuidv4', 'uuidv5', 'uuidv7', 'uuidv1'] })
  .description('UUID');
export const amountCents = Joi.number().integer().description('Amount in euro cents, excluding VAT');

/** SPEC.md pagination: limit 1-100 default 20, cursor at most 200 characters. */
export const pageQuery = {
  limit: Joi.number().integer().min(1).max(100).default(20),
  cursor: Joi.string().max(200).description("The previous page's nextCursor"),
};

export const errorObject = Joi.object({
  error: Joi.object({
    code: Joi.string().required().example('invalid_request'),
    message: Joi.string().required(),
    details: Joi.any().description('Machine-readable context, e.g. the invalid fields'),
  }).required(),
}).label('Error');

export function listEnvelope(item: Joi.Schema, label: string): Joi.ObjectSchema {
  return Joi.object({
    data: Joi.array().items(item).required().description('Items, most recent first'),
    nextCursor: Joi.string().allow(null).required().description('Opaque cursor of the next page; null on the last page'),
    hasMore: Joi.boolean().required(),
  }).label(label);
}

/** What the API did with a request instead of refusing it (domain/catalogue/compatibility.ts): on a mailing and a letter render. */
export const requestWarningsSchema = Joi.array()
  .items(
    Joi.object({
      code: Joi.string()
        .valid(
          'field_replaced',
          'field_renamed',
          'field_defaulted',
          'value_retired',
          'address_unverified',
          'address_check_unavailable',
          'address_check_not_applied',
        )
        .required()
        .description(
          'field_replaced: a value given in letter.fields was replaced by the validated sender or recipient; field_renamed: a field of an earlier catalogue was read under its new name; field_defaulted: a field added since was given the value that writes the earlier letter; value_retired: an option of an earlier catalogue, since withdrawn, was read as the option that replaces it (the message names both); address_unverified: the national address base does not confirm the recipient address, posted as given (options.addressCheck: lenient); address_check_unavailable: the address base could not be reached in time, the address was posted unchecked; address_check_not_applied: options.addressCheck was given for a recipient abroad, which the national address base does not hold (checked by the postal rules alone)',
        ),
      field: Joi.string().required().description('The field of the request concerned, e.g. letter.fields.senderName'),
      message: Joi.string().required(),
    }).label('RequestWarning'),
  )
  .description('What was done with the request instead of refusing it; empty when nothing')
  .label('RequestWarnings');
