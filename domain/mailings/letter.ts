import { findLetter } from '../catalogue/catalogue.js';
import { explainMissing, newlyRequired, refuseWithdrawnProvider, upgradeLetterFields, type RequestWarning } from '../catalogue/compatibility.js';
import { unprocessable } from '../errors.js';
import { requireValidLetterValues, type FieldValue } from '../letters/values.js';
import { flatten, frenchDate, parisTodayIso, renderLetter, segmentsText, type LetterDocument } from '../letters/render.js';
import { normalize } from '../../lib/text.js';
import type { AddressedMailingRequest, MailingAddressInput } from './request.js';
import { addressLines, type PostalAddress, type MailingDocument } from './mailing.js';

export interface PreparedLetter {
  title: string;
  recipient: PostalAddress;
  layout: LetterDocument;
  document: MailingDocument;
  warnings: RequestWarning[];
}

function asAddress(input: MailingAddressInput): PostalAddress {
  return { name: input.name.trim(), lines: input.lines.map((l) => l.trim()), postcode: input.postcode.trim(), city: input.city.trim(), country: input.country };
}

/** The lines under the name: the street lines, the postcode line in the destination's order, the country line abroad. */
const blockText = (a: PostalAddress): string => addressLines(a).slice(1).join('\n');

/**
 * The same text but for spacing, line breaks, case, accents and punctuation: a repeated address is
 * not a different one, nor is it once printed in the postal norm's form ("69001 LYON").
 */
const sameText = (a: string, b: string): boolean => normalize(a) === normalize(b);

/**
 * Turns the letter of a MailingRequest into what is printed: a catalogue letter goes through the
 * same checks and renderer as /v1/letters (sender and recipient blocks come from the request's
 * addresses); a free-form letter is laid out the same way.
 */
export function prepareLetter(request: AddressedMailingRequest): PreparedLetter {
  const sender = asAddress(request.sender);
  if ('slug' in request.letter) {
    const { slug, provider: providerSlug, fields } = request.letter;
    refuseWithdrawnProvider(slug, providerSlug);
    const { letter, provider } = findLetter(slug, providerSlug);
    if (!provider && !request.recipient) throw unprocessable('A recipient address is required unless the letter has a provider.', { field: 'recipient' });
    const recipient = provider ? provider.address : asAddress(request.recipient!);
    const upgraded = upgradeLetterFields(slug, fields, 'letter.fields.');
    const warnings = upgraded.warnings;
    // The envelope window prints exactly the validated addresses. A request may repeat them in
    // letter.fields (the catalogue lists them as fields); a different value is replaced, and said so.
    const printed: Record<string, FieldValue> = {
      senderName: sender.name,
      senderAddress: blockText(sender),
      ...(provider ? {} : { recipientName: recipient.name, recipientAddress: blockText(recipient) }),
    };
    // With a provider the recipient fields are not the letter's: its address is printed.
    const replaced = provider ? [...Object.keys(printed), 'recipientName', 'recipientAddress'] : Object.keys(printed);
    for (const name of replaced) {
      const given = upgraded.fields[name];
      if (!(name in printed)) delete upgraded.fields[name];
      if (given === undefined || (name in printed && sameText(String(given), String(printed[name])))) continue;
      const from = name.startsWith('sender') ? 'sender' : provider ? `provider ${provider.slug}` : 'recipient';
      warnings.push({
        code: 'field_replaced',
        field: `letter.fields.${name}`,
        message: `letter.fields.${name} was replaced by ${from}: the letter prints the validated address, as the envelope window does.`,
      });
    }
    const values: Record<string, FieldValue> = { place: sender.city.replace(/\s+cedex.*$/i, ''), ...upgraded.fields, ...printed };
    const clean = requireValidLetterValues(letter, provider, values);
    const rendered = renderLetter(letter, provider, clean);
    if (rendered.missingFields.length)
      throw unprocessable(`The letter needs ${explainMissing('letters', slug, rendered.missingFields)}.`, {
        missingFields: rendered.missingFields,
        newlyRequired: newlyRequired('letters', slug, rendered.missingFields),
      });
    return {
      title: letter.title,
      recipient,
      layout: rendered.document,
      document: { kind: 'catalogue', title: letter.title, text: rendered.text, letter: { slug, provider: provider?.slug ?? null } },
      warnings,
    };
  }
  if ('pdf' in request.letter) throw new Error('an own PDF is prepared by domain/mailings/own-pdf-letter.ts');
  if (!request.recipient) throw unprocessable('A free-form letter needs a recipient address.', { field: 'recipient' });
  const recipient = asAddress(request.recipient);
  const text = (t: string) => [{ type: 'text' as const, text: t }];
  const date = frenchDate(parisTodayIso());
  const layout: LetterDocument = {
    title: request.letter.title,
    sender: text(`${sender.name}\n${blockText(sender)}`),
    recipient: text(`${recipient.name}\n${blockText(recipient)}`),
    placeAndDate: text(`${sender.city.replace(/\s+cedex.*$/i, '')}, le ${date}`),
    subject: text(request.letter.title),
    references: [],
    body: text(request.letter.body.replace(/\r\n/g, '\n')),
    signature: text(sender.name),
  };
  return {
    title: request.letter.title,
    recipient,
    layout,
    document: { kind: 'free', title: request.letter.title, text: segmentsText(flatten(layout)) },
    warnings: [],
  };
}
