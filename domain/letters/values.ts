import { contradictedValues, letterFields, type Field, type LetterData, type Provider } from '../catalogue/catalogue.js';
import { unprocessable } from '../errors.js';

export type FieldValue = string | number | boolean;

export interface FieldProblem {
  field: string;
  message: string;
}

/** Postal norm for an address block: at most 6 lines (name included) of at most 38 characters. */
export const ADDRESS_MAX_LINES = 5;
export const ADDRESS_MAX_CHARS = 38;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const FRENCH_PHONE = /^(?:\+33\s?|0)[1-9](?:[\s.-]?\d{2}){4}$/;

function ibanValid(raw: string): boolean {
  const iban = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function isoDateValid(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(text + 'T00:00:00Z');
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

function asNumber(value: FieldValue): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+(?:[.,]\d+)?$/.test(value.trim())) return Number(value.trim().replace(',', '.'));
  return undefined;
}

/** Checks one value against its field's type and pattern; returns the normalized value or a problem. */
export function checkValue(field: Field, value: FieldValue): { value: FieldValue } | { problem: string } {
  if (typeof value === 'boolean') return { problem: 'must be a string or a number' };
  const text = typeof value === 'string' ? value.trim() : String(value);
  if (text === '') return { problem: 'is empty' };
  if (field.pattern && !new RegExp(field.pattern, 'u').test(text)) return { problem: `does not match the expected format ${field.pattern}` };
  switch (field.type) {
    case 'text':
    case 'address':
      if (text.length > 500) return { problem: 'is longer than 500 characters' };
      if (/[\r\n]/.test(text)) return { problem: 'must be on one line' };
      return { value: text };
    case 'multiline': {
      if (text.length > 5000) return { problem: 'is longer than 5000 characters' };
      if (/address$/i.test(field.name)) {
        const lines = text
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean);
        if (lines.length > ADDRESS_MAX_LINES) return { problem: `has more than ${ADDRESS_MAX_LINES} lines (postal norm: 6 lines with the name)` };
        const long = lines.find((l) => l.length > ADDRESS_MAX_CHARS);
        if (long) return { problem: `has a line longer than ${ADDRESS_MAX_CHARS} characters: "${long}"` };
        return { value: lines.join('\n') };
      }
      return { value: text.replace(/\r\n/g, '\n') };
    }
    case 'date':
      return isoDateValid(text) ? { value: text } : { problem: 'must be a date YYYY-MM-DD' };
    case 'amount': {
      const n = asNumber(value);
      return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? { value: n } : { problem: 'must be a whole, non-negative number of euro cents' };
    }
    case 'integer': {
      const n = asNumber(value);
      return n !== undefined && Number.isSafeInteger(n) ? { value: n } : { problem: 'must be a whole number' };
    }
    case 'number': {
      const n = asNumber(value);
      return n !== undefined && Number.isFinite(n) ? { value: n } : { problem: 'must be a number' };
    }
    case 'email':
      return EMAIL.test(text) && text.length <= 254 ? { value: text } : { problem: 'must be an email address' };
    case 'phone':
      return FRENCH_PHONE.test(text) ? { value: text } : { problem: 'must be a French phone number (e.g. 06 12 34 56 78 or +33 6 12 34 56 78)' };
    case 'iban':
      return ibanValid(text)
        ? {
            value: text
              .replace(/\s+/g, '')
              .toUpperCase()
              .replace(/(.{4})(?=.)/g, '$1 '),
          }
        : { problem: 'must be a valid IBAN' };
    case 'enum':
      return field.options!.some((o) => o.value === text) ? { value: text } : { problem: `must be one of ${field.options!.map((o) => o.value).join(', ')}` };
    case 'siret': {
      const digits = text.replace(/\s+/g, '');
      return /^\d{14}$/.test(digits) && luhnValid(digits) ? { value: digits } : { problem: 'must be a SIRET of 14 digits' };
    }
    case 'postcode':
      return /^\d{5}$/.test(text) ? { value: text } : { problem: 'must be a French postcode of 5 digits' };
  }
}

/**
 * Checks every given value against the fields; unknown names are problems too (a typo must not
 * silently leave a blank in a letter). Returns the normalized values and every problem found.
 */
export function checkValues(fields: Field[], values: Record<string, FieldValue>): { values: Record<string, FieldValue>; problems: FieldProblem[] } {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const clean: Record<string, FieldValue> = {};
  const problems: FieldProblem[] = [];
  for (const [name, value] of Object.entries(values)) {
    const field = byName.get(name);
    if (!field) {
      problems.push({ field: name, message: 'is not a field of this letter' });
      continue;
    }
    const result = checkValue(field, value);
    if ('problem' in result) problems.push({ field: name, message: `${field.label} ${result.problem}` });
    else clean[name] = result.value;
  }
  return { values: clean, problems };
}

function refuse(problems: FieldProblem[], noun: string): Record<string, FieldValue> {
  throw unprocessable(`${problems.length} ${noun}${problems.length > 1 ? 's are' : ' is'} invalid: ${problems.map((p) => p.field).join(', ')}.`, problems);
}

/** Checks values against their fields; 422 naming every bad one ("2 field values are invalid: …"). */
export function requireValidValues(fields: Field[], given: Record<string, FieldValue>, noun = 'field value'): Record<string, FieldValue> {
  const { values, problems } = checkValues(fields, given);
  return problems.length ? refuse(problems, noun) : values;
}

/**
 * A catalogue letter's values, checked each against its field and then together (a field the
 * letter takes only with some value of another, its `onlyWhen`): 422 naming every bad one.
 */
export function requireValidLetterValues(letter: LetterData, provider: Provider | undefined, given: Record<string, FieldValue>): Record<string, FieldValue> {
  const { values, problems } = checkValues(letterFields(letter, provider), given);
  problems.push(...contradictedValues(letter, values));
  return problems.length ? refuse(problems, 'field value') : values;
}
