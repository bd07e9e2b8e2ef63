import type { Deps } from '../deps.js';
import { unprocessable } from '../errors.js';
import { companyProfile, siretProblem } from '../lookups/companies.js';
import type { CompanyProfile } from '../lookups/results.js';
import { ADDRESS_MAX_CHARS } from '../letters/values.js';
import { wrapLine } from './afnor.js';
import type { AddressedMailingRequest, MailingAddressInput, MailingRequest, SiretRecipientInput } from './request.js';

const isSiret = (recipient: MailingRequest['recipient']): recipient is SiretRecipientInput => !!recipient && 'siret' in recipient;

/** The directory writes an address on one line, postcode and city last: the lines before them. */
export function directoryAddress(establishment: CompanyProfile['establishment'], name: string): MailingAddressInput {
  const { address, postcode, city } = establishment;
  const tail = ` ${postcode} ${city}`.toUpperCase();
  const street = address.toUpperCase().endsWith(tail) ? address.slice(0, -tail.length) : address.replace(new RegExp(`\\s*${postcode}\\b.*$`), '');
  return { name, lines: street.trim() ? wrapLine(street.trim()) : [], postcode, city, country: 'FR' };
}

/**
 * A recipient given as `{ siret, name? }`: the establishment's registered address from the national
 * business directory, and the company's name unless one is given. An unknown SIRET or a closed
 * establishment is a 422 naming it; a directory that keeps failing is a 502 (nothing is charged:
 * this runs before the debit).
 */
export async function recipientOfSiret(deps: Deps, given: SiretRecipientInput): Promise<MailingAddressInput> {
  const { siret } = given;
  if (siretProblem(siret))
    throw unprocessable(`No establishment has the SIRET ${siret}: its control key is wrong.`, { field: 'recipient.siret', siret }, 'recipient_siret_unknown');
  const profile = await companyProfile(deps, siret);
  if (!profile)
    throw unprocessable(
      `The business directory knows no establishment with the SIRET ${siret}.`,
      { field: 'recipient.siret', siret },
      'recipient_siret_unknown',
    );
  if (profile.establishment.status === 'closed')
    throw unprocessable(
      `The establishment ${siret} (${profile.company.name}) is closed in the business directory: a letter would not reach it. Send the address it gave you instead.`,
      { field: 'recipient.siret', siret },
      'recipient_siret_closed',
    );
  return directoryAddress(profile.establishment, given.name ?? printableName(profile));
}

/** The company's name if it fits the window's line, else its acronym; else the caller must name it. */
export function printableName(profile: CompanyProfile): string {
  const { name, acronym } = profile.company;
  if (name.length <= ADDRESS_MAX_CHARS) return name;
  if (acronym && acronym.length <= ADDRESS_MAX_CHARS) return acronym;
  throw unprocessable(
    `The directory's name of ${profile.siret}, "${name}", is longer than the ${ADDRESS_MAX_CHARS} characters of an address line: give recipient.name.`,
    { field: 'recipient.name', siret: profile.siret },
    'address_invalid',
  );
}

/** The request with its recipient as an address: a SIRET is looked up, an address is kept. */
export async function withRecipientAddress(deps: Deps, request: MailingRequest): Promise<AddressedMailingRequest> {
  const { recipient } = request;
  if (!isSiret(recipient)) return { ...request, recipient };
  return { ...request, recipient: await recipientOfSiret(deps, recipient) };
}
