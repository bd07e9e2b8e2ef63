import { ADDRESS_MAX_CHARS } from '../letters/values.js';

/**
 * Letters abroad (issue 55, part 6): the countries a recipient may be in, the postal zone each
 * address is priced by, the country code the operator is given, the country line printed last,
 * and the postcode's form where it is simple. docs/operators.md, "Letters abroad", says the same.
 */

/**
 * The recipient countries: the ISO 3166-1 alpha-2 codes of `country_code` in Maileva's mail API
 * (mail-v2.yaml), less the codes ISO 3166-1 withdrew (AN, CS, TP, YU, ZR: Netherlands Antilles,
 * Serbia and Montenegro, East Timor, Yugoslavia, Zaire) and the French overseas territories,
 * which are France (`FR` and their French postcode, see OVERSEAS).
 */
export const RECIPIENT_COUNTRIES = [
  ...['AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ', 'BA', 'BB', 'BD', 'BE', 'BF', 'BG'],
  ...['BH', 'BI', 'BJ', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BV', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK'],
  ...['CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE', 'EG', 'EH', 'ER'],
  ...['ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GQ', 'GR', 'GS', 'GT'],
  ...['GU', 'GW', 'GY', 'HK', 'HM', 'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM', 'JO'],
  ...['JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV'],
  ...['LY', 'MA', 'MC', 'MD', 'ME', 'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ'],
  ...['NA', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PG', 'PH', 'PK', 'PL', 'PN', 'PR', 'PS', 'PT'],
  ...['PW', 'PY', 'QA', 'RO', 'RS', 'RU', 'RW', 'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR'],
  ...['SS', 'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ', 'UA'],
  ...['UG', 'UM', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU', 'WS', 'YE', 'ZA', 'ZM', 'ZW'],
] as const;

const RECIPIENT_SET = new Set<string>(RECIPIENT_COUNTRIES);

/**
 * The French overseas departments and territories, by their postcodes (the first three digits,
 * or the whole postcode for Saint-Barthélemy, 97133, and Saint-Martin, 97150, whose postcodes are
 * Guadeloupe's although their INSEE codes are 977 and 978): France (country `FR`, the commune list
 * and the national address base as before), with the code Maileva's `country_code` lists for each
 * (the operator routes them by it), and La Poste's overseas zone: OM1 the departments (DOM), OM2
 * the other territories (COM, TAAF).
 */
export const OVERSEAS: Record<string, { code: string; zone: 'om1' | 'om2'; name: string }> = {
  '971': { code: 'GP', zone: 'om1', name: 'Guadeloupe' },
  '972': { code: 'MQ', zone: 'om1', name: 'Martinique' },
  '973': { code: 'GF', zone: 'om1', name: 'Guyane' },
  '974': { code: 'RE', zone: 'om1', name: 'La Réunion' },
  '976': { code: 'YT', zone: 'om1', name: 'Mayotte' },
  '975': { code: 'PM', zone: 'om2', name: 'Saint-Pierre-et-Miquelon' },
  '97133': { code: 'BL', zone: 'om2', name: 'Saint-Barthélemy' },
  '97150': { code: 'MF', zone: 'om2', name: 'Saint-Martin' },
  '984': { code: 'TF', zone: 'om2', name: 'Terres australes et antarctiques françaises' },
  '986': { code: 'WF', zone: 'om2', name: 'Wallis-et-Futuna' },
  '987': { code: 'PF', zone: 'om2', name: 'Polynésie française' },
  '988': { code: 'NC', zone: 'om2', name: 'Nouvelle-Calédonie' },
};

const OVERSEAS_CODES = new Map(Object.entries(OVERSEAS).map(([prefix, territory]) => [territory.code, prefix]));

/**
 * Where registered and AR letters go: the `country_code` list of Maileva's registered mail API
 * (registered-mail-v2.yaml), France with five of its overseas territories, Monaco and Andorra.
 */
export const REGISTERED_COUNTRIES = ['FR', 'MC', 'AD', 'RE', 'YT', 'MQ', 'GP', 'MF', 'BL', 'GF', 'PM'] as const;
const REGISTERED_SET = new Set<string>(REGISTERED_COUNTRIES);

/**
 * The European zone of our price list: the European Union, the rest of the European Economic
 * Area, Switzerland, the United Kingdom and the European microstates. Monaco and Andorra are
 * served at the French price (La Poste's tariffs for France apply there).
 */
export const EUROPE = new Set([
  ...['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK'],
  ...['SI', 'ES', 'SE', 'AX', 'IS', 'LI', 'NO', 'CH', 'GB', 'SM', 'VA', 'GI', 'FO', 'GG', 'JE', 'IM'],
]);

/** The zone a letter is priced by: France (metropolitan, Monaco, Andorra), the overseas (OM1, OM2), Europe, the world. */
export const ZONES = ['france', 'om1', 'om2', 'europe', 'world'] as const;
export type Zone = (typeof ZONES)[number];

interface Located {
  postcode: string;
  country: string;
}

/** The overseas territory of a French postcode, if it is one. */
export function overseasOf(address: Located): (typeof OVERSEAS)[string] | undefined {
  if (address.country !== 'FR') return undefined;
  const postcode = address.postcode.trim();
  return OVERSEAS[postcode] ?? OVERSEAS[postcode.slice(0, 3)];
}

export function zoneOf(address: Located): Zone {
  if (address.country === 'FR') return overseasOf(address)?.zone ?? 'france';
  if (address.country === 'MC' || address.country === 'AD') return 'france';
  return EUROPE.has(address.country) ? 'europe' : 'world';
}

/** Whether an address is outside France (its overseas included in France): it prints a country line. */
export const isAbroad = (address: { country: string }): boolean => address.country !== 'FR';

/**
 * Maileva's `country_code` for an address, on the API the mode uses: a French overseas postcode
 * gives its territory's code where that API's list has it (mail: all eleven; registered mail: not
 * WF, PF, NC nor TF, which stay FR as before this change), otherwise the address's country.
 */
export function operatorCountryCode(address: Located, registered: boolean): string {
  const territory = overseasOf(address);
  if (!territory) return address.country;
  return !registered || REGISTERED_SET.has(territory.code) ? territory.code : 'FR';
}

/** Whether a mode reaches an address: a simple letter goes everywhere we accept; registered and AR where Maileva's registered API goes. */
export function registeredReaches(address: Located): boolean {
  return REGISTERED_SET.has(address.country);
}

const FRENCH_NAMES = new Intl.DisplayNames(['fr'], { type: 'region', fallback: 'code' });

/** The country line (UPU, La Poste's norm for international mail): the country's French name in capitals, without accents. */
export function countryLine(country: string): string {
  return (FRENCH_NAMES.of(country) ?? country)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[-'’.,]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
}

/** The country's names a recipient may have written as its last line (French or English, any case). */
function countryNames(country: string): string[] {
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' }).of(country) ?? country;
  return [
    countryLine(country),
    english
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase(),
  ];
}

/** Whether a line is the country's name (then the printed country line says it: it is not repeated). */
export function isCountryName(line: string, country: string): boolean {
  const key = line
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[-'’.,]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
  return countryNames(country).some((name) => name.replace(/[-'’.,]/g, ' ').replace(/\s+/g, ' ') === key);
}

/** The lines without a last one that names the country (it is printed from `country`, last). */
export function withoutCountryLine(lines: string[], country: string): string[] {
  const last = lines[lines.length - 1];
  return last !== undefined && lines.length > 1 && isCountryName(last, country) ? lines.slice(0, -1) : lines;
}

/**
 * The postcode's form where it is simple: the European Union's members and a few neighbours and
 * large destinations (the national posts' published forms). Other countries: free (38 characters
 * with the city).
 */
export const POSTCODE_FORMS: Record<string, { pattern: RegExp; example: string }> = {
  AD: { pattern: /^AD\d{3}$/, example: 'AD500' },
  AT: { pattern: /^\d{4}$/, example: '1010' },
  BE: { pattern: /^\d{4}$/, example: '1000' },
  BG: { pattern: /^\d{4}$/, example: '1000' },
  HR: { pattern: /^\d{5}$/, example: '10000' },
  CY: { pattern: /^\d{4}$/, example: '1010' },
  CZ: { pattern: /^\d{3} ?\d{2}$/, example: '110 00' },
  DK: { pattern: /^\d{4}$/, example: '1050' },
  EE: { pattern: /^\d{5}$/, example: '10111' },
  FI: { pattern: /^\d{5}$/, example: '00100' },
  DE: { pattern: /^\d{5}$/, example: '10115' },
  GR: { pattern: /^\d{3} ?\d{2}$/, example: '105 57' },
  HU: { pattern: /^\d{4}$/, example: '1051' },
  IE: { pattern: /^[A-Z]\d[\dW] ?[0-9A-Z]{4}$/i, example: 'D02 X285' },
  IT: { pattern: /^\d{5}$/, example: '00184' },
  LV: { pattern: /^LV-\d{4}$/, example: 'LV-1050' },
  LT: { pattern: /^(LT-)?\d{5}$/, example: 'LT-01100' },
  LU: { pattern: /^(L-)?\d{4}$/, example: 'L-1130' },
  MT: { pattern: /^[A-Z]{3} ?\d{4}$/i, example: 'VLT 1117' },
  NL: { pattern: /^\d{4} ?[A-Z]{2}$/i, example: '1012 JS' },
  PL: { pattern: /^\d{2}-\d{3}$/, example: '00-950' },
  PT: { pattern: /^\d{4}-\d{3}$/, example: '1100-148' },
  RO: { pattern: /^\d{6}$/, example: '010011' },
  SK: { pattern: /^\d{3} ?\d{2}$/, example: '811 01' },
  SI: { pattern: /^(SI-)?\d{4}$/, example: '1000' },
  ES: { pattern: /^\d{5}$/, example: '28013' },
  SE: { pattern: /^\d{3} ?\d{2}$/, example: '111 52' },
  CH: { pattern: /^\d{4}$/, example: '1201' },
  LI: { pattern: /^\d{4}$/, example: '9490' },
  NO: { pattern: /^\d{4}$/, example: '0150' },
  IS: { pattern: /^\d{3}$/, example: '101' },
  MC: { pattern: /^980\d{2}$/, example: '98000' },
  GB: { pattern: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i, example: 'SW1A 1AA' },
  US: { pattern: /^\d{5}(-\d{4})?$/, example: '20500' },
  CA: { pattern: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i, example: 'K1A 0B1' },
};

/**
 * Where the destination writes its postcode: before the city (France and most of Europe) or after
 * it ("LONDON SW1A 1AA", "WASHINGTON DC 20500": the United Kingdom, Ireland, the Americas,
 * Australia and others whose posts write the town first).
 */
const CITY_FIRST = new Set([
  'GB',
  'IE',
  'US',
  'CA',
  'AU',
  'NZ',
  'BR',
  'AR',
  'MX',
  'IN',
  'JP',
  'KR',
  'CN',
  'HK',
  'SG',
  'ZA',
  'MT',
  'LV',
  'GG',
  'JE',
  'IM',
  'GI',
]);

/** The postcode line of an address in its destination's order: "10115 BERLIN", "LONDON SW1A 1AA"; France as before. */
export function postcodeLine(address: { postcode: string; city: string; country: string }): string {
  return CITY_FIRST.has(address.country) ? `${address.city} ${address.postcode}` : `${address.postcode} ${address.city}`;
}

/** At most 3 lines between the name and the postcode line abroad: with the country line, the 6 lines of the norm. */
export const FOREIGN_MAX_LINES = 3;

export interface CountryProblem {
  field: string;
  message: string;
}

/** Why an address's country cannot be used (sender outside France, an unknown code, a French territory's own code), or none. */
export function countryProblems(address: Located, field: string, role: 'sender' | 'recipient'): CountryProblem[] {
  const country = address.country;
  if (role === 'sender') return country === 'FR' ? [] : [{ field: `${field}.country`, message: `must be FR: letters are posted from France (not ${country})` }];
  if (OVERSEAS_CODES.has(country))
    return [
      {
        field: `${field}.country`,
        message: `${country} is French: give country FR and the territory's postcode (${OVERSEAS_CODES.get(country)!.padEnd(5, 'x')})`,
      },
    ];
  if (!RECIPIENT_SET.has(country)) return [{ field: `${field}.country`, message: `"${country}" is not an ISO 3166-1 country code the postal operator serves` }];
  return [];
}

/** The rules of an address abroad, after its country is known: lines, the postcode's form, the postcode line's length. */
export function foreignAddressProblems(address: Located & { name: string; lines: string[]; city: string }, field: string): CountryProblem[] {
  const problems: CountryProblem[] = [];
  if (withoutCountryLine(address.lines, address.country).length > FOREIGN_MAX_LINES)
    problems.push({
      field: `${field}.lines`,
      message: `has more than ${FOREIGN_MAX_LINES} lines abroad (6 with the name, the postcode line and the country line)`,
    });
  const postcode = address.postcode.trim();
  const form = POSTCODE_FORMS[address.country];
  if (form && !form.pattern.test(postcode))
    problems.push({ field: `${field}.postcode`, message: `"${postcode}" is not a postcode of ${address.country} (e.g. ${form.example})` });
  if (!address.city.trim()) problems.push({ field: `${field}.city`, message: 'is empty' });
  const line = postcodeLine({ ...address, postcode, city: address.city.trim() });
  if (line.length > ADDRESS_MAX_CHARS) problems.push({ field: `${field}.city`, message: `the postcode line is longer than ${ADDRESS_MAX_CHARS} characters` });
  return problems;
}
