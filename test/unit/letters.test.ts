import { expect } from 'chai';
import { catalogue, letterFields, SENDER_FIELDS, type Field, type LetterData, type Provider } from '../../domain/catalogue/catalogue.js';
import { formatValue, frenchDate, renderLetter, type Segment } from '../../domain/letters/render.js';
import { checkValue, checkValues, type FieldValue } from '../../domain/letters/values.js';
import { boxLetterValues } from '../support/fixtures.js';

function boxLetter(): { letter: LetterData; provider: Provider } {
  const letter = catalogue().letters.get('resiliation-box-internet');
  if (!letter) throw new Error('resiliation-box-internet is not in the catalogue');
  const provider = letter.providers.find((p) => p.slug === 'bouygues-telecom');
  if (!provider) throw new Error('provider bouygues-telecom is not in resiliation-box-internet');
  return { letter, provider };
}

/** A catalogue field by name, from any letter or provider. */
function catalogueField(name: string): Field {
  const all = catalogue().data.letters.flatMap((l) => [...l.fields, ...l.providers.flatMap((p) => p.fields)]);
  const field = all.find((f) => f.name === name);
  if (!field) throw new Error(`no field ${name} in the catalogue`);
  return field;
}

const problemOf = (field: Field, value: FieldValue): string | undefined => {
  const result = checkValue(field, value);
  return 'problem' in result ? result.problem : undefined;
};

// 23:30 UTC on 28 February is already 1 March in Paris (UTC+1 in winter).
const LATE_FEBRUARY_UTC = new Date('2026-02-28T23:30:00Z');

describe('letters (domain/letters)', () => {
  describe('frenchDate', () => {
    it("writes the first of the month as '1er': 2026-03-01 is '1er mars 2026'", () => {
      expect(frenchDate('2026-03-01')).to.equal('1er mars 2026');
      expect(frenchDate('2026-12-01')).to.equal('1er décembre 2026');
    });

    it('writes other days as plain numbers, 11 included', () => {
      expect(frenchDate('2026-03-12')).to.equal('12 mars 2026');
      expect(frenchDate('2026-08-11')).to.equal('11 août 2026');
      expect(frenchDate('2026-02-21')).to.equal('21 février 2026');
    });
  });

  describe('renderLetter of a catalogue letter', () => {
    it('resiliation-box-internet for Bouygues Telecom: checked values render with nothing missing', () => {
      const { letter, provider } = boxLetter();
      const { values, problems } = checkValues(letterFields(letter, provider), boxLetterValues);
      expect(problems).to.deep.equal([]);
      const render = renderLetter(letter, provider, values, LATE_FEBRUARY_UTC);
      expect(render.missingFields).to.deep.equal([]);
      expect(render.text).to.include('Marie Dupont\n12 rue des Lilas\n69003 Lyon');
      expect(render.text).to.include('Bouygues Telecom\nService Clients\nTSA 59013\n60643 Chantilly Cedex');
      expect(render.text).to.include('Objet : Résiliation de mon abonnement internet – identifiant FB-0987654321');
      expect(render.text).to.include("à l'adresse suivante : 12 rue des Lilas, 69003 Lyon.");
      expect(render.text).not.to.match(/\{\{|\}\}|\[/);
    });

    it('an enum value reads as its label, not its code', () => {
      const { letter, provider } = boxLetter();
      const render = renderLetter(letter, provider, boxLetterValues, LATE_FEBRUARY_UTC);
      expect(render.text).to.include("Cette résiliation intervient alors que mon contrat ne comporte pas, ou plus, de période minimale d'engagement.");
      expect(render.text).not.to.include('sans-engagement');
    });

    it('the date defaults to today in Europe/Paris, written in French', () => {
      const { letter, provider } = boxLetter();
      expect(renderLetter(letter, provider, boxLetterValues, LATE_FEBRUARY_UTC).text).to.include('Lyon, le 1er mars 2026');
    });

    it('a given date wins over today', () => {
      const { letter, provider } = boxLetter();
      expect(renderLetter(letter, provider, { ...boxLetterValues, date: '2026-03-12' }, LATE_FEBRUARY_UTC).text).to.include('Lyon, le 12 mars 2026');
    });

    it('the text is the segments read in order', () => {
      const { letter, provider } = boxLetter();
      const render = renderLetter(letter, provider, boxLetterValues, LATE_FEBRUARY_UTC);
      expect(render.segments.map((s) => (s.type === 'text' ? s.text : s.value)).join('')).to.equal(render.text);
    });

    it('an optional provider reference is left out unless given, then listed under the subject', () => {
      const { letter, provider } = boxLetter();
      expect(renderLetter(letter, provider, boxLetterValues, LATE_FEBRUARY_UTC).text).not.to.include('Numéro de compte client');
      const given = renderLetter(letter, provider, { ...boxLetterValues, bouyguesCustomerNumber: '123456789' }, LATE_FEBRUARY_UTC);
      expect(given.text).to.include('FB-0987654321\nNuméro de compte client Bouygues Telecom : 123456789\n\nMadame');
    });

    it('missing required fields are listed, in field order, and stay as null field segments', () => {
      const { letter, provider } = boxLetter();
      const { subscriberId: _id, place: _place, ...rest } = boxLetterValues;
      const render = renderLetter(letter, provider, rest, LATE_FEBRUARY_UTC);
      expect(render.missingFields).to.deep.equal(['subscriberId', 'place']);
      const slots = render.segments.filter((s): s is Extract<Segment, { type: 'field' }> => s.type === 'field' && render.missingFields.includes(s.name));
      expect(slots.length).to.be.greaterThan(0);
      expect(slots.every((s) => s.value === null)).to.equal(true);
      expect(new Set(slots.map((s) => s.name))).to.deep.equal(new Set(['subscriberId', 'place']));
      expect(render.text).to.include('identifiant [Identifiant abonné ou numéro de la ligne fixe]');
    });

    it('without a provider the recipient fields are required too', () => {
      const { letter } = boxLetter();
      const render = renderLetter(letter, undefined, boxLetterValues, LATE_FEBRUARY_UTC);
      expect(render.missingFields).to.deep.equal(['recipientName', 'recipientAddress']);
      const withRecipient = renderLetter(
        letter,
        undefined,
        { ...boxLetterValues, recipientName: 'Service Clients', recipientAddress: '5 avenue de la République\n69002 Lyon' },
        LATE_FEBRUARY_UTC,
      );
      expect(withRecipient.missingFields).to.deep.equal([]);
      expect(withRecipient.text).to.include('Service Clients\n5 avenue de la République\n69002 Lyon');
    });
  });

  describe('formatValue', () => {
    it('writes an amount of cents in euros, the French way', () => {
      expect(formatValue({ name: 'a', label: 'A', type: 'amount', required: true }, 12345)).to.match(/^123,45\s€$/u);
    });
  });

  describe('checkValue and checkValues', () => {
    const senderAddress = SENDER_FIELDS.find((f) => f.name === 'senderAddress')!;

    it('an address accepts 5 lines of 38 characters, trimmed and without blank lines', () => {
      const five = Array.from({ length: 5 }, (_, i) => `${i}`.padEnd(38, 'x'));
      expect(checkValue(senderAddress, five.map((l) => `  ${l} `).join('\n'))).to.deep.equal({ value: five.join('\n') });
      expect(checkValue(senderAddress, '12 rue des Lilas\r\n\r\n69003 Lyon')).to.deep.equal({ value: '12 rue des Lilas\n69003 Lyon' });
    });

    it('an address refuses a line over 38 characters', () => {
      expect(problemOf(senderAddress, `${'x'.repeat(39)}\n69003 Lyon`)).to.match(/longer than 38/);
    });

    it('an address refuses more than 5 lines (6 with the name)', () => {
      expect(problemOf(senderAddress, 'a\nb\nc\nd\ne\nf')).to.match(/more than 5 lines/);
    });

    it('a field pattern is enforced: a PDL is 14 digits or GI and 6 digits', () => {
      const pdl = catalogueField('deliveryPointId');
      expect(problemOf(pdl, '12345678901234')).to.equal(undefined);
      expect(problemOf(pdl, 'GI123456')).to.equal(undefined);
      expect(problemOf(pdl, '1234567890123')).to.match(/expected format/);
      expect(problemOf(pdl, 'GI12345')).to.match(/expected format/);
    });

    it('an enum refuses a value that is not one of its options, listing them', () => {
      const context = catalogueField('terminationContext');
      expect(problemOf(context, 'sans-engagement')).to.equal(undefined);
      expect(problemOf(context, 'Sans engagement')).to.equal(
        'must be one of sans-engagement, engagement-24-mois-apres-12, engagement-apres-12-terminal-subventionne, motif-legitime',
      );
    });

    it('a date must exist on the calendar', () => {
      const date: Field = { name: 'date', label: 'Date', type: 'date', required: false };
      expect(problemOf(date, '2026-02-28')).to.equal(undefined);
      expect(problemOf(date, '2026-02-30')).to.match(/YYYY-MM-DD/);
      expect(problemOf(date, '01/03/2026')).to.match(/YYYY-MM-DD/);
    });

    it('an amount is whole non-negative cents', () => {
      const amount: Field = { name: 'amount', label: 'Montant', type: 'amount', required: true };
      expect(checkValue(amount, '1250')).to.deep.equal({ value: 1250 });
      expect(problemOf(amount, '12,50')).to.match(/whole, non-negative/);
      expect(problemOf(amount, -1)).to.match(/whole, non-negative/);
    });

    it('an IBAN is checked by its key and written in groups of 4; a SIRET by its Luhn key', () => {
      const iban: Field = { name: 'iban', label: 'IBAN', type: 'iban', required: true };
      expect(checkValue(iban, 'fr7630006000011234567890189')).to.deep.equal({ value: 'FR76 3000 6000 0112 3456 7890 189' });
      expect(problemOf(iban, 'FR7630006000011234567890188')).to.equal('must be a valid IBAN');
      const siret: Field = { name: 'siret', label: 'SIRET', type: 'siret', required: true };
      expect(checkValue(siret, '732 829 320 00074')).to.deep.equal({ value: '73282932000074' });
      expect(problemOf(siret, '73282932000075')).to.match(/SIRET/);
    });

    it('empty values and booleans are refused', () => {
      expect(problemOf(senderAddress, '   ')).to.equal('is empty');
      expect(problemOf(senderAddress, true)).to.match(/string or a number/);
    });

    it('checkValues refuses unknown field names and prefixes problems with the field label', () => {
      const { letter, provider } = boxLetter();
      const { values, problems } = checkValues(letterFields(letter, provider), { ...boxLetterValues, subscriberID: 'typo', terminationContext: 'autre' });
      expect(problems).to.deep.include({ field: 'subscriberID', message: 'is not a field of this letter' });
      const context = problems.find((p) => p.field === 'terminationContext');
      expect(context?.message).to.match(/^Situation de votre contrat must be one of /);
      expect(values).not.to.have.property('subscriberID');
      expect(values).not.to.have.property('terminationContext');
      expect(values).to.include({ senderName: 'Marie Dupont', place: 'Lyon' });
    });
  });
});
