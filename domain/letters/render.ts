import { parisDate } from '../../lib/paris-time.js';
import { fieldRequired, letterFields, resolvePassages, type Field, type LetterData, type Provider } from '../catalogue/catalogue.js';
import type { FieldValue } from './values.js';

export type Segment = { type: 'text'; text: string } | { type: 'field'; name: string; label: string; value: string | null };

/** A letter laid out in its parts, ready for the text form, the segments and the A4 PDF. */
export interface LetterDocument {
  title: string;
  sender: Segment[];
  recipient: Segment[];
  placeAndDate: Segment[];
  subject: Segment[];
  /** The provider's own references (customer number…) that the template does not quote, one per line. */
  references: Segment[];
  body: Segment[];
  signature: Segment[];
}

export interface LetterRender {
  segments: Segment[];
  text: string;
  missingFields: string[];
}

const dateFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const decimal = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 6 });

/** Today's date in Europe/Paris, as YYYY-MM-DD. */
export function parisTodayIso(now = new Date()): string {
  return parisDate(now.getTime());
}

/** "1er mars 2026", "12 mars 2026". */
export function frenchDate(iso: string): string {
  const text = dateFormat.format(new Date(iso + 'T00:00:00Z'));
  return text.replace(/^1 /, '1er ');
}

/** How a checked value reads in a French letter. */
export function formatValue(field: Field, value: FieldValue): string {
  switch (field.type) {
    case 'date':
      return frenchDate(String(value));
    case 'amount':
      return euros.format(Number(value) / 100);
    case 'number':
      return decimal.format(Number(value));
    case 'enum':
      return field.options!.find((o) => o.value === value)?.label ?? String(value);
    default:
      return String(value);
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z][\w.]*)\s*\}\}/g;

/** Splits a template into literal text and field slots. */
function segmentsOf(template: string, slot: (name: string) => Segment): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index! > last) out.push({ type: 'text', text: template.slice(last, match.index) });
    out.push(slot(match[1]!));
    last = match.index! + match[0].length;
  }
  if (last < template.length) out.push({ type: 'text', text: template.slice(last) });
  return out;
}

export function addressText(address: Provider['address']): string {
  return [address.name, ...address.lines, `${address.postcode} ${address.city}`].join('\n');
}

/**
 * Lays a catalogue letter out with the given (already checked) values. Missing values stay as
 * slots with value null and are listed in missingFields; the date defaults to today in Paris.
 */
export function layoutLetter(
  letter: LetterData,
  provider: Provider | undefined,
  values: Record<string, FieldValue>,
  now = new Date(),
): LetterDocument & { missingFields: string[] } {
  const fields = letterFields(letter, provider);
  const byName = new Map(fields.map((f) => [f.name, f]));
  const given = { date: parisTodayIso(now), ...values };
  const missing = new Set<string>();
  const slot = (name: string): Segment => {
    if (name === 'provider.name') return provider ? { type: 'text', text: provider.name } : slot('recipientName');
    const field = byName.get(name)!;
    const value = given[name as keyof typeof given];
    if (value === undefined) missing.add(name);
    return { type: 'field', name, label: field.label, value: value === undefined ? null : formatValue(field, value) };
  };
  for (const field of fields) if (fieldRequired(field, given) && given[field.name as keyof typeof given] === undefined) missing.add(field.name);
  // Passages printed only for some values of an enum field are resolved first.
  const subject = resolvePassages(letter.subject, given);
  const body = resolvePassages(letter.body, given);
  const quoted = new Set([...`${letter.subject}\n${letter.body}`.matchAll(PLACEHOLDER)].map((m) => m[1]));
  const references = (provider?.fields ?? [])
    .filter((f) => !quoted.has(f.name) && (f.required || given[f.name as keyof typeof given] !== undefined))
    .flatMap((f, i): Segment[] => [{ type: 'text', text: `${i ? '\n' : ''}${f.label} : ` }, slot(f.name)]);
  const document: LetterDocument = {
    title: letter.title,
    sender: segmentsOf('{{senderName}}\n{{senderAddress}}', slot),
    recipient: provider ? [{ type: 'text', text: addressText(provider.address) }] : segmentsOf('{{recipientName}}\n{{recipientAddress}}', slot),
    placeAndDate: segmentsOf('{{place}}, le {{date}}', slot),
    subject: segmentsOf(subject, slot),
    references,
    body: segmentsOf(body, slot),
    signature: segmentsOf('{{senderName}}', slot),
  };
  return { ...document, missingFields: fields.map((f) => f.name).filter((n) => missing.has(n)) };
}

const text = (t: string): Segment => ({ type: 'text', text: t });

/** The document as one list of segments, in reading order. */
export function flatten(document: LetterDocument): Segment[] {
  return [
    ...document.sender,
    text('\n\n'),
    ...document.recipient,
    text('\n\n'),
    ...document.placeAndDate,
    text('\n\nObjet : '),
    ...document.subject,
    ...(document.references.length ? [text('\n'), ...document.references] : []),
    text('\n\n'),
    ...document.body,
    text('\n\n'),
    ...document.signature,
  ];
}

/** Plain text; a missing value reads as [its label]. */
export function segmentsText(segments: Segment[]): string {
  return segments.map((s) => (s.type === 'text' ? s.text : (s.value ?? `[${s.label}]`))).join('');
}

export function renderLetter(
  letter: LetterData,
  provider: Provider | undefined,
  values: Record<string, FieldValue>,
  now = new Date(),
): LetterRender & { document: LetterDocument } {
  const { missingFields, ...document } = layoutLetter(letter, provider, values, now);
  const segments = flatten(document);
  return { segments, text: segmentsText(segments), missingFields, document };
}
