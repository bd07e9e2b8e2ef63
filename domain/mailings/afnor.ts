import { ADDRESS_MAX_CHARS } from '../letters/values.js';
import { isAbroad, withoutCountryLine } from './countries.js';
import type { MailingAddressInput } from './request.js';

/**
 * The postal address norm NF Z10-011, as La Poste applies it: at most 6 lines of at most 38
 * characters (name, up to 4 lines, then the postcode line), the last line in upper case without
 * accents or punctuation ("69001 LYON", "42000 SAINT ETIENNE"). The count and lengths are checked
 * by ./addresses.ts; this module writes the form.
 */

/** The postcode line's city: upper case, no accents, hyphens and apostrophes as spaces. */
export function postalCity(city: string): string {
  return city
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[-'’.,]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
}

/** A whole word, accents included (\b stops at an accented letter). */
const word = (text: string): RegExp => new RegExp(`(?<!\\p{L})${text}(?!\\p{L})`, 'iu');

/** The norm's abbreviations of street types and titles, used only when a line would not fit in 38 characters. */
const STREET_TYPES: [RegExp, string][] = [
  [word('avenue'), 'AV'],
  [word('boulevard'), 'BD'],
  [word('allée'), 'ALL'],
  [word('chemin'), 'CHE'],
  [word('faubourg'), 'FG'],
  [word('impasse'), 'IMP'],
  [word('place'), 'PL'],
  [word('quai'), 'QU'],
  [word('route'), 'RTE'],
  [word('square'), 'SQ'],
  [word('zone industrielle'), 'ZI'],
  [word("zone d['’]activités?"), 'ZA'],
  [word('résidence'), 'RES'],
  [word('bâtiment'), 'BAT'],
  [word('saint'), 'ST'],
  [word('sainte'), 'STE'],
  [word('général'), 'GAL'],
  [word('docteur'), 'DR'],
  [word('président'), 'PDT'],
  [word('colonel'), 'COL'],
  [word('maréchal'), 'MAL'],
];

/** A line as the norm writes it: single spaces, abbreviated (one word at a time) only if over 38 characters. */
export function postalLine(line: string): string {
  let text = line.replace(/\s+/g, ' ').trim();
  for (const [word, short] of STREET_TYPES) {
    if (text.length <= ADDRESS_MAX_CHARS) break;
    text = text.replace(word, short);
  }
  return text;
}

/**
 * Splits a line longer than 38 characters at word boundaries (a directory's one-line address): the
 * lines the window can print, or the line unchanged when it fits.
 */
export function wrapLine(line: string): string[] {
  const text = postalLine(line);
  if (text.length <= ADDRESS_MAX_CHARS) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current && `${current} ${word}`.length > ADDRESS_MAX_CHARS) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * The address as it is printed and stored: the norm's spacing, abbreviations and postcode line.
 * Abroad: the spacing and the city in capitals (the UPU's form), no French abbreviation, and a
 * last line naming the country dropped (the country line is printed from `country`, last).
 */
export function afnorAddress(address: MailingAddressInput): MailingAddressInput {
  const abroad = isAbroad(address);
  const spaced = (line: string): string => line.replace(/\s+/g, ' ').trim();
  return {
    name: spaced(address.name),
    lines: abroad ? withoutCountryLine(address.lines.map(spaced), address.country) : address.lines.map(postalLine),
    postcode: abroad ? spaced(address.postcode).toUpperCase() : address.postcode.trim(),
    city: postalCity(address.city),
    country: address.country,
  };
}
