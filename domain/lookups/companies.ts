import type { Deps } from '../deps.js';
import { partnerLookup } from './lookup.js';

/** SPEC.md: a SIRET is exactly 14 digits (GET /v1/companies/{siret} and the production access request). */
export const SIRET_PATTERN = /^\d{14}$/;

/** La Poste's establishments are numbered outside the Luhn rule: their digits add up to a multiple of 5. */
const LA_POSTE_SIREN = '356000000';

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Why a string cannot be a SIRET, or undefined when it can: `format` (not 14 digits) or `checksum`
 * (INSEE's control key: Luhn on the SIREN and on the SIRET, La Poste's rule for its establishments).
 */
export function siretProblem(siret: string): 'format' | 'checksum' | undefined {
  if (!SIRET_PATTERN.test(siret)) return 'format';
  const siren = siret.slice(0, 9);
  if (!luhn(siren)) return 'checksum';
  if (siren === LA_POSTE_SIREN) {
    const sum = [...siret].reduce((total, d) => total + Number(d), 0);
    return sum % 5 === 0 || luhn(siret) ? undefined : 'checksum';
  }
  return luhn(siret) ? undefined : 'checksum';
}

/** The directory is refreshed daily; profiles are reused for six hours. */
const PROFILE_TTL_SECONDS = 6 * 3600;
export const DIRECTORY = 'company directory';

/**
 * The profile of an establishment from the national business directory (cache, else a short lookup
 * workflow; 502 PartnerFailure when the directory keeps failing); null when no establishment has this
 * SIRET. Not billed here: GET /v1/companies/{siret} bills its caller around it, and the developer
 * space's production access check (our own check) calls it without billing.
 */
export function companyProfile(deps: Deps, siret: string) {
  return partnerLookup(deps, {
    key: `company:${siret}`,
    ttlSeconds: PROFILE_TTL_SECONDS,
    workflow: 'companyProfileLookup',
    args: [siret],
    idPrefix: 'company-profile',
    partner: DIRECTORY,
    breaker: 'companyDirectory',
  });
}
