import { expect } from 'chai';
import { catalogue, letterFields, type LetterData } from '../../domain/catalogue/catalogue.js';
import { renderLetter } from '../../domain/letters/render.js';
import { checkValues, type FieldValue } from '../../domain/letters/values.js';

/** The fields every letter has, filled as a customer would (the law tests give only the letter's own). */
export const SENDER_VALUES = { senderName: 'Marie Dupont', senderAddress: '12 rue des Lilas\n69003 Lyon', place: 'Lyon' };
export const RECIPIENT_VALUES = { recipientName: 'Service Clients', recipientAddress: '5 avenue de la République\n69002 Lyon' };

export function catalogueLetter(slug: string): LetterData {
  const found = catalogue().letters.get(slug);
  if (!found) throw new Error(`no letter ${slug}`);
  return found;
}

/** Renders a catalogue letter the way /render does: values checked first (none may be refused), then laid out. */
export function renderChecked(slug: string, given: Record<string, FieldValue>, now: Date, providerSlug?: string) {
  const letter = catalogueLetter(slug);
  const provider = providerSlug ? letter.providers.find((p) => p.slug === providerSlug) : undefined;
  const { values, problems } = checkValues(letterFields(letter, provider), { ...SENDER_VALUES, ...(provider ? {} : RECIPIENT_VALUES), ...given });
  expect(problems, JSON.stringify(problems)).to.deep.equal([]);
  return renderLetter(letter, provider, values, now);
}

/** The details of the 422 that `fn` throws (fails when it throws none). */
export function refusalDetails(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return (error as { details?: unknown }).details;
  }
  throw new Error('expected a 422');
}
