import type Joi from 'joi';
import type { Context } from 'koa';

/**
 * Forms and filters of the developer space validated by the domain's or the API's own Joi schemas
 * (their limits appear there only), with the refusal said in French for the page.
 */

/** The named fields of the posted form that are not blank (a blank optional field is absent). */
export function filledFields(ctx: Context, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = ctx.state.form?.get(name) ?? '';
    if (value.trim() !== '') out[name] = value;
  }
  return out;
}

/** One parameter of the query string ('' when absent, or when given more than once). */
export function queryText(ctx: Context, name: string): string {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : '';
}

/** The query's parameters that are not blank (an empty filter of a GET form is no filter). */
export function filledQuery(ctx: Context): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ctx.query).filter(([, value]) => value !== '' && value !== undefined));
}

/** The first refusal of a Joi validation, in French, naming the field by its label on the page. */
export function frenchError(error: Joi.ValidationError, labels: Record<string, string>): string {
  const detail = error.details[0]!;
  const field = String(detail.path[0] ?? '');
  const label = labels[field] ?? field;
  const limit = detail.context?.limit as number | undefined;
  switch (detail.type) {
    case 'any.required':
    case 'string.empty':
      return `${label} : ce champ est obligatoire.`;
    case 'string.min':
      return `${label} : ${limit} caractères au moins.`;
    case 'string.max':
      return `${label} : ${limit} caractères au plus.`;
    case 'string.email':
      return `${label} : adresse e-mail invalide.`;
    case 'any.only':
      return `${label} : choisissez une des valeurs proposées.`;
    case 'object.unknown':
      return `Paramètre inattendu : ${field}.`;
    default:
      return `${label} : valeur invalide.`;
  }
}

/** A field's maximum length in a schema (for the page's maxlength), if it has one. */
export function maxLength(schema: Joi.ObjectSchema, field: string): number | undefined {
  const rules = (schema.extract(field).describe() as { rules?: { name: string; args?: { limit?: number } }[] }).rules ?? [];
  return rules.find((rule) => rule.name === 'max')?.args?.limit;
}
