import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { addressProblems } from '../../domain/mailings/addresses.js';
import { afnorAddress } from '../../domain/mailings/afnor.js';
import {
  countryLine,
  operatorCountryCode,
  OVERSEAS,
  RECIPIENT_COUNTRIES,
  REGISTERED_COUNTRIES,
  registeredReaches,
  zoneOf,
} from '../../domain/mailings/countries.js';
import { checkDestination, withZone } from '../../domain/mailings/destination.js';
import { addressLines } from '../../domain/mailings/mailing.js';
import { flatMailingPrice } from '../../domain/mailings/pricing.js';
import { priceOf } from '../../domain/billing/prices.js';
import { mailevaAddress, recipientCountryCode } from '../../activities/operator/maileva.js';
import { addressSheetLines } from '../../activities/pdf/address-sheet-html.js';
import { postalAddress } from '../../api/schemas/mailings.js';
import type { MailingAddressInput } from '../../domain/mailings/request.js';

const address = (overrides: Partial<MailingAddressInput> = {}): MailingAddressInput => ({
  name: 'Anna Schmidt',
  lines: ['Unter den Linden 5'],
  postcode: '10117',
  city: 'Berlin',
  country: 'DE',
  ...overrides,
});
const fields = (a: MailingAddressInput, field = 'recipient'): string[] => addressProblems(a, field).map((p) => `${p.field}`);

/** The `country_code` enum of one of Maileva's documents (parsed as YAML 1.2: NO stays Norway). */
function mailevaCountries(file: string): string[] {
  const spec = parse(readFileSync(join('test/fixtures/maileva', file), 'utf8')) as { components: { schemas: { country_code: { enum: string[] } } } };
  return spec.components.schemas.country_code.enum;
}

describe('letters abroad (domain/mailings/countries, addresses, destination)', () => {
  describe('the country lists against Maileva’s documents', () => {
    it('every recipient country is in the mail API’s country_code list; the overseas codes and the withdrawn ones are not ours', () => {
      const mail = new Set(mailevaCountries('mail-v2.yaml'));
      expect(RECIPIENT_COUNTRIES.filter((code) => !mail.has(code))).to.deep.equal([]);
      const left = [...mail].filter((code) => !(RECIPIENT_COUNTRIES as readonly string[]).includes(code)).sort();
      const overseas = Object.values(OVERSEAS).map((t) => t.code);
      expect(left).to.deep.equal([...overseas, 'AN', 'CS', 'TP', 'YU', 'ZR'].sort());
      expect(mail.has('NO'), 'Norway read as a string').to.equal(true);
    });

    it('registered letters go exactly where the registered mail API’s list goes', () => {
      expect([...REGISTERED_COUNTRIES].sort()).to.deep.equal([...mailevaCountries('registered-mail-v2.yaml')].sort());
    });
  });

  describe('the recipient’s country', () => {
    it('accepts an EU address in its own order, with no commune check', () => {
      expect(addressProblems(address(), 'recipient')).to.deep.equal([]);
      expect(addressProblems(address({ country: 'GB', postcode: 'SW1A 1AA', city: 'London', lines: ['10 Downing Street'] }), 'recipient')).to.deep.equal([]);
      expect(addressProblems(address({ country: 'NL', postcode: '1012 JS', city: 'Amsterdam', lines: ['Dam 1'] }), 'recipient')).to.deep.equal([]);
    });

    it('refuses an unknown code, naming recipient.country', () => {
      const problems = addressProblems(address({ country: 'XX' }), 'recipient');
      expect(problems).to.have.length(1);
      expect(problems[0]!.field).to.equal('recipient.country');
      expect(problems[0]!.message).to.include('"XX"');
      expect(fields(address({ country: 'YU' }))).to.deep.equal(['recipient.country']);
    });

    it('keeps the sender in France', () => {
      expect(fields(address(), 'sender')).to.deep.equal(['sender.country']);
      expect(addressProblems(address({ country: 'FR', postcode: '75011', city: 'Paris', lines: ['12 rue des Lilas'] }), 'sender')).to.deep.equal([]);
    });

    it('checks the postcode’s form where it is simple, and leaves it free elsewhere', () => {
      expect(fields(address({ postcode: '1011' }))).to.deep.equal(['recipient.postcode']);
      expect(fields(address({ country: 'PT', postcode: '1100148', city: 'Lisboa' }))).to.deep.equal(['recipient.postcode']);
      expect(fields(address({ country: 'PT', postcode: '1100-148', city: 'Lisboa' }))).to.deep.equal([]);
      expect(fields(address({ country: 'BR', postcode: 'anything 1', city: 'São Paulo' }))).to.deep.equal([]);
    });

    it('has at most 3 lines abroad (the country line is the sixth), a repeated country name not counted', () => {
      expect(fields(address({ lines: ['c/o Müller', 'Haus B', 'Unter den Linden 5', 'Hinterhof'] }))).to.deep.equal(['recipient.lines']);
      expect(fields(address({ lines: ['c/o Müller', 'Haus B', 'Unter den Linden 5', 'Germany'] }))).to.deep.equal([]);
      expect(fields(address({ lines: ['Unter den Linden 5'.padEnd(39, 'x')] }))).to.deep.equal(['recipient.lines.0']);
    });

    it('sends a French overseas territory’s own code back to FR with its postcode', () => {
      const problems = addressProblems(address({ country: 'GP', postcode: '97100', city: 'Basse-Terre' }), 'recipient');
      expect(problems.map((p) => p.field)).to.deep.equal(['recipient.country']);
      expect(problems[0]!.message).to.include('FR').and.include('971xx');
    });

    it('the Joi schema takes two capitals and leaves an unknown code to the postal rules (422, not 400)', () => {
      const { value, error } = postalAddress.validate({ name: 'A', lines: ['B'], postcode: '10117', city: 'Berlin', country: 'DE' });
      expect(error).to.equal(undefined);
      expect(value.country).to.equal('DE');
      expect(postalAddress.validate({ name: 'A', lines: ['B'], postcode: '1', city: 'C' }).value.country).to.equal('FR');
      expect(postalAddress.validate({ name: 'A', lines: ['B'], postcode: '1', city: 'C', country: 'XX' }).error).to.equal(undefined);
      expect(postalAddress.validate({ name: 'A', lines: ['B'], postcode: '1', city: 'C', country: 'DEU' }).error).not.to.equal(undefined);
    });
  });

  describe('the printed form', () => {
    it('prints the postcode line in the destination’s order and the country line last, in French capitals', () => {
      const printed = afnorAddress(address({ city: 'München', postcode: '80331', lines: ['Marienplatz  8', 'GERMANY'] }));
      expect(printed).to.deep.equal({ name: 'Anna Schmidt', lines: ['Marienplatz 8'], postcode: '80331', city: 'MUNCHEN', country: 'DE' });
      expect(addressLines(printed)).to.deep.equal(['Anna Schmidt', 'Marienplatz 8', '80331 MUNCHEN', 'ALLEMAGNE']);
      const london = afnorAddress(address({ country: 'GB', postcode: 'sw1a 1aa', city: 'London', lines: ['10 Downing Street'] }));
      expect(addressLines(london)).to.deep.equal(['Anna Schmidt', '10 Downing Street', 'LONDON SW1A 1AA', 'ROYAUME UNI']);
      expect(addressSheetLines(london)).to.deep.equal(addressLines(london));
      expect(countryLine('CI')).to.equal('COTE D IVOIRE');
    });

    it('prints a French address as before, overseas included (no country line)', () => {
      const fr = { name: 'A', lines: ['1 rue de la Darse'], postcode: '97100', city: 'BASSE TERRE', country: 'FR' };
      expect(addressLines(fr)).to.deep.equal(['A', '1 rue de la Darse', '97100 BASSE TERRE']);
      expect(addressSheetLines({ ...fr, city: 'Basse-Terre' }).at(-1)).to.equal('97100 BASSE-TERRE');
    });
  });

  describe('DOM and COM: France, with their postal zone and Maileva’s code', () => {
    const fr = (postcode: string) => ({ postcode, country: 'FR' });
    it('971-974 and 976 are OM1; 975, Saint-Barthélemy (97133), Saint-Martin (97150) and 984-988 OM2; France, Monaco and Andorra the French zone', () => {
      expect(['97100', '97200', '97300', '97400', '97600', '97122'].map((p) => zoneOf(fr(p)))).to.deep.equal(['om1', 'om1', 'om1', 'om1', 'om1', 'om1']);
      expect(['97500', '97133', '97150', '98600', '98714', '98800'].map((p) => zoneOf(fr(p)))).to.deep.equal(['om2', 'om2', 'om2', 'om2', 'om2', 'om2']);
      expect([zoneOf(fr('75011')), zoneOf({ postcode: '98000', country: 'MC' }), zoneOf({ postcode: 'AD500', country: 'AD' })]).to.deep.equal([
        'france',
        'france',
        'france',
      ]);
      expect([
        zoneOf({ postcode: '10117', country: 'DE' }),
        zoneOf({ postcode: '1201', country: 'CH' }),
        zoneOf({ postcode: '20500', country: 'US' }),
      ]).to.deep.equal(['europe', 'europe', 'world']);
    });

    it('gives Maileva the territory’s code where the mode’s API lists it, FR otherwise (as before)', () => {
      expect(['97100', '97200', '97300', '97400', '97600', '97500', '97133', '97150'].map((p) => operatorCountryCode(fr(p), false))).to.deep.equal([
        'GP',
        'MQ',
        'GF',
        'RE',
        'YT',
        'PM',
        'BL',
        'MF',
      ]);
      expect(['98600', '98714', '98800'].map((p) => operatorCountryCode(fr(p), false))).to.deep.equal(['WF', 'PF', 'NC']);
      expect(['98600', '98714', '98800', '97100', '75011'].map((p) => operatorCountryCode(fr(p), true))).to.deep.equal(['FR', 'FR', 'FR', 'GP', 'FR']);
      const registered = new Set(mailevaCountries('registered-mail-v2.yaml'));
      const mail = new Set(mailevaCountries('mail-v2.yaml'));
      for (const prefix of Object.keys(OVERSEAS)) {
        const postcode = `${prefix}00`.slice(0, 5);
        expect(mail.has(operatorCountryCode(fr(postcode), false)), prefix).to.equal(true);
        expect(registered.has(operatorCountryCode(fr(postcode), true)), prefix).to.equal(true);
      }
    });

    it('Maileva’s recipient: line 6 in the destination’s order, the country as its code; a French one as before', () => {
      const london = { name: 'Anna Schmidt', lines: ['10 Downing Street'], postcode: 'SW1A 1AA', city: 'London', country: 'GB' };
      expect(mailevaAddress(london, recipientCountryCode(london, 'simple'))).to.deep.equal({
        address_line_1: 'Anna Schmidt',
        address_line_2: '10 Downing Street',
        address_line_6: 'LONDON SW1A 1AA',
        country_code: 'GB',
      });
      const noumea = { name: 'A', lines: ['1 rue de Sébastopol'], postcode: '98800', city: 'Nouméa', country: 'FR' };
      expect(mailevaAddress(noumea, recipientCountryCode(noumea, 'simple'))).to.include({ address_line_6: '98800 NOUMÉA', country_code: 'NC' });
      expect(mailevaAddress(noumea, recipientCountryCode(noumea, 'registered')).country_code).to.equal('FR');
    });
  });

  describe('modes and prices by destination', () => {
    it('registered and AR only where the registered mail goes: 422 destination_not_served naming recipient.country', () => {
      expect(registeredReaches({ postcode: '98000', country: 'MC' })).to.equal(true);
      expect(registeredReaches({ postcode: '98800', country: 'FR' })).to.equal(true);
      expect(() => checkDestination({ mode: 'simple', recipient: address() })).not.to.throw();
      expect(() => checkDestination({ mode: 'registered', recipient: address({ country: 'MC', postcode: '98000', city: 'Monaco' }) })).not.to.throw();
      for (const mode of ['registered', 'ar'] as const) {
        try {
          checkDestination({ mode, recipient: address() });
          expect.fail('refused');
        } catch (error) {
          expect(error).to.include({ code: 'destination_not_served' });
          expect((error as { details: unknown }).details).to.deep.equal({ field: 'recipient.country', country: 'DE', mode });
        }
      }
    });

    it('an electronic registered letter goes abroad by email; only its paper fallback must be postable there', () => {
      const electronic = (fallback: 'none' | 'paper') => ({ recipientKind: 'professional' as const, fallback });
      expect(() => checkDestination({ mode: 'ar', recipient: address(), channel: 'electronic', electronic: electronic('none') })).not.to.throw();
      try {
        checkDestination({ mode: 'registered', recipient: address(), channel: 'electronic', electronic: electronic('paper') });
        expect.fail('refused');
      } catch (error) {
        expect(error).to.include({ code: 'destination_not_served' });
        expect((error as Error).message).to.match(/paper fallback .* cannot go to DE/);
      }
    });

    it('adds the zone’s line abroad, none in France, its overseas, Monaco and Andorra', () => {
      const base = flatMailingPrice('simple');
      expect(withZone(base, { recipient: address() }).lines.map((l) => l.unit)).to.deep.equal(['mailing.simple', 'mailing.zone.europe']);
      expect(withZone(base, { recipient: address() }).amountCents).to.equal(priceOf('mailing.simple') + priceOf('mailing.zone.europe'));
      expect(withZone(base, { recipient: address({ country: 'JP', postcode: '100-0001', city: 'Tokyo' }) }).amountCents).to.equal(
        priceOf('mailing.simple') + priceOf('mailing.zone.world'),
      );
      for (const recipient of [
        address({ country: 'FR', postcode: '97100' }),
        address({ country: 'FR', postcode: '98800' }),
        address({ country: 'MC', postcode: '98000' }),
        undefined,
      ])
        expect(withZone(base, { recipient })).to.deep.equal(base);
    });
  });
});
