import { communes } from '../geo/communes.js';
import { ADDRESS_MAX_CHARS } from '../letters/values.js';
import { countryProblems, foreignAddressProblems, isAbroad } from './countries.js';
import type { MailingAddressInput } from './request.js';

export interface AddressProblem {
  field: string;
  message: string;
}

const CONTROL = /\p{Cc}/u;

/**
 * Postal norm: at most 6 lines (name, up to 4 lines, postcode and city) of at most 38 characters.
 * The sender is in France; a recipient abroad (./countries.ts) has up to 3 lines (its country line
 * is the sixth), its postcode in its country's form where we know it, and no commune check.
 */
export function addressProblems(address: MailingAddressInput, field: string): AddressProblem[] {
  const problems: AddressProblem[] = countryProblems(address, field, field === 'sender' ? 'sender' : 'recipient');
  if (problems.length) return problems;
  const abroad = isAbroad(address);
  const lines = [address.name, ...address.lines];
  // A line break or any other control character would add lines to the envelope window.
  const parts: [string, string][] = [
    [`${field}.name`, address.name],
    ...address.lines.map((line, i): [string, string] => [`${field}.lines.${i}`, line]),
    [`${field}.postcode`, address.postcode],
    [`${field}.city`, address.city],
  ];
  for (const [name, text] of parts) if (CONTROL.test(text)) problems.push({ field: name, message: 'contains a control character (line break, tab…)' });
  if (!address.name.trim()) problems.push({ field: `${field}.name`, message: 'is empty' });
  address.lines.forEach((line, i) => {
    if (!line.trim()) problems.push({ field: `${field}.lines.${i}`, message: 'is empty' });
  });
  if (address.lines.length === 0) problems.push({ field: `${field}.lines`, message: 'needs at least one line (street or PO box)' });
  if (!abroad && address.lines.length > 4) problems.push({ field: `${field}.lines`, message: 'has more than 4 lines (6 with the name and the postcode line)' });
  lines.forEach((line, i) => {
    if (line.length > ADDRESS_MAX_CHARS)
      problems.push({ field: i === 0 ? `${field}.name` : `${field}.lines.${i - 1}`, message: `is longer than ${ADDRESS_MAX_CHARS} characters` });
  });
  if (abroad) return [...problems, ...foreignAddressProblems(address, field)];
  const cityLine = `${address.postcode} ${address.city}`;
  if (cityLine.length > ADDRESS_MAX_CHARS)
    problems.push({ field: `${field}.city`, message: `the postcode line is longer than ${ADDRESS_MAX_CHARS} characters` });
  const postal = communes().postalProblem(address.postcode.trim(), address.city.trim());
  if (postal) problems.push({ field: `${field}.postcode`, message: postal });
  return problems;
}
