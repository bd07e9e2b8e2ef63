import { contradictedValues, findLetter, letterFields, type Field, type LetterData, type Provider } from '../catalogue/catalogue.js';
import { checkValue, type FieldProblem, type FieldValue } from '../letters/values.js';
import { renderLetter } from '../letters/render.js';
import { normalize } from '../../lib/text.js';
import { amountsIn, datesIn, referencesIn } from './extract.js';
import type { GenerationTask } from './task.js';

export interface FillTarget {
  letter: LetterData;
  provider: Provider | undefined;
  fields: Field[];
}

/** The letter and the exact fields to fill (404 for an unknown slug or provider). */
export function fillTarget(slug: string, providerSlug: string | undefined): FillTarget {
  const { letter, provider } = findLetter(slug, providerSlug);
  return { letter, provider, fields: letterFields(letter, provider) };
}

/** The structured output for a letter's fields: one nullable value per field, options as an enum. */
function fieldsSchema(fields: Field[]) {
  const properties = Object.fromEntries(
    fields.map((f) => [
      f.name,
      f.type === 'enum'
        ? { type: ['string', 'null'], enum: [...f.options!.map((o) => o.value), null], description: f.label }
        : { type: ['amount', 'integer', 'number'].includes(f.type) ? ['number', 'null'] : ['string', 'null'], description: `${f.label} (${f.type})` },
    ]),
  );
  const values = { type: 'object', properties, required: fields.map((f) => f.name), additionalProperties: false };
  return { name: 'letter_fields', schema: { type: 'object', properties: { values }, required: ['values'], additionalProperties: false } };
}

export function fillTask({ letter, fields }: FillTarget, sentence: string): GenerationTask {
  return {
    prompt: 'fill-letter',
    data: {
      letter: { title: letter.title, summary: letter.summary },
      fields: fields.map((f) => ({
        name: f.name,
        label: f.label,
        type: f.type,
        required: f.required,
        pattern: f.pattern,
        options: f.options,
        help: f.help,
        example: f.example,
      })),
      sentence,
    },
    output: fieldsSchema(fields),
    maxTokens: 1500,
  };
}

/**
 * The model's values, kept only when they pass the same checks as /render: unknown fields are
 * dropped, invalid values reported in `rejected`. Then the letter is rendered with them.
 */
export function acceptFilled(target: FillTarget, proposed: unknown) {
  const raw = proposed && typeof proposed === 'object' ? ((proposed as { values?: unknown }).values ?? {}) : {};
  const values: Record<string, FieldValue> = {};
  const rejected: FieldProblem[] = [];
  for (const field of target.fields) {
    const value = (raw as Record<string, unknown>)[field.name];
    if (value === null || value === undefined || value === '') continue;
    if (typeof value !== 'string' && typeof value !== 'number') {
      rejected.push({ field: field.name, message: `${field.label} must be a string or a number` });
      continue;
    }
    const checked = checkValue(field, value);
    if ('problem' in checked) rejected.push({ field: field.name, message: `${field.label} ${checked.problem}` });
    else values[field.name] = checked.value;
  }
  // A value the letter refuses beside the others (its onlyWhen) is dropped as /render would refuse it.
  for (const problem of contradictedValues(target.letter, values)) {
    delete values[problem.field];
    rejected.push(problem);
  }
  const { segments, text, missingFields } = renderLetter(target.letter, target.provider, values);
  return {
    slug: target.letter.slug,
    provider: target.provider?.slug ?? null,
    values,
    missingFields,
    rejected,
    render: { segments, text, missingFields, warnings: [] },
  };
}

/**
 * Test keys: a deterministic fill derived from the sentence alone (emails, phones, IBAN, SIRET,
 * dates, amounts, references, enum options named in it). Plausible and checked like real answers.
 */
export function simulateFill(fields: Field[], sentence: string): { values: Record<string, FieldValue | null> } {
  const normalized = normalize(sentence);
  const dates = datesIn(sentence);
  const amounts = amountsIn(sentence);
  const references = referencesIn(sentence);
  const first = (re: RegExp): string | null => re.exec(sentence)?.[0] ?? null;
  const values: Record<string, FieldValue | null> = {};
  for (const field of fields) {
    let value: FieldValue | null = null;
    switch (field.type) {
      case 'email':
        value = first(/[^\s@,;]+@[^\s@,;]+\.[a-z]{2,}/i);
        break;
      case 'phone':
        value = first(/(?:\+33\s?|\b0)[1-9](?:[\s.-]?\d{2}){4}\b/);
        break;
      case 'iban':
        value = first(/\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?\b/);
        break;
      case 'siret':
        value = first(/\b\d{3}\s?\d{3}\s?\d{3}\s?\d{5}\b/);
        break;
      case 'date':
        value = dates.shift() ?? null;
        break;
      case 'amount':
        value = amounts.shift() ?? null;
        break;
      case 'enum':
        value = field.options!.find((o) => normalized.includes(normalize(o.value)) || normalized.includes(normalize(o.label)))?.value ?? null;
        break;
      case 'text':
        if (/num[ée]ro|identifiant|r[ée]f[ée]rence|n°/i.test(field.label)) value = references.shift() ?? null;
        break;
      default:
        break;
    }
    values[field.name] = value;
  }
  return { values };
}
