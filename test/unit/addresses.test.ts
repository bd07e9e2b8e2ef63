import { expect } from 'chai';
import { createRequire } from 'node:module';
import { addressProblems } from '../../domain/mailings/addresses.js';
import type { MailingAddressInput } from '../../api/schemas/mailings.js';

const address = (overrides: Partial<MailingAddressInput> = {}): MailingAddressInput => ({
  name: 'Marie Dupont',
  lines: ['12 rue des Lilas'],
  postcode: '75011',
  city: 'Paris',
  country: 'FR',
  ...overrides,
});

/** Only the field names, for short assertions. */
const fields = (a: MailingAddressInput): string[] => addressProblems(a, 'recipient').map((p) => p.field);

describe('postal addresses (domain/mailings/addresses)', () => {
  describe('postcode and city against the official commune list', () => {
    it('accepts real pairs: 75011 Paris, 69003 Lyon, 13001 Marseille', () => {
      expect(addressProblems(address(), 'recipient')).to.deep.equal([]);
      expect(addressProblems(address({ postcode: '69003', city: 'Lyon' }), 'recipient')).to.deep.equal([]);
      expect(addressProblems(address({ postcode: '13001', city: 'Marseille' }), 'recipient')).to.deep.equal([]);
    });

    it('keeps the list only: the raw records are not held by the module cache for the life of the process', () => {
      expect(addressProblems(address(), 'recipient')).to.deep.equal([]);
      const cached = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.endsWith('communes.json'));
      expect(cached).to.deep.equal([]);
    });

    it('accepts the usual spellings of a city: case, arrondissement number, CEDEX', () => {
      expect(fields(address({ city: 'PARIS 11' }))).to.deep.equal([]);
      expect(fields(address({ postcode: '69003', city: 'Lyon 3e' }))).to.deep.equal([]);
      expect(fields(address({ postcode: '75371', city: 'Paris Cedex 08' }))).to.deep.equal([]);
    });

    it('refuses a postcode that belongs to another city (75011 Lyon), naming the right one', () => {
      const problems = addressProblems(address({ city: 'Lyon' }), 'recipient');
      expect(problems).to.have.length(1);
      expect(problems[0]!.field).to.equal('recipient.postcode');
      expect(problems[0]!.message).to.include('75011').and.include('Paris');
    });

    it('refuses a postcode that does not exist (00000)', () => {
      const problems = addressProblems(address({ postcode: '00000' }), 'recipient');
      expect(problems).to.deep.equal([{ field: 'recipient.postcode', message: 'postcode 00000 does not exist' }]);
    });

    it('refuses a postcode that is not 5 digits', () => {
      const problems = addressProblems(address({ postcode: '7501' }), 'sender');
      expect(problems.map((p) => p.field)).to.deep.equal(['sender.postcode']);
      expect(problems[0]!.message).to.match(/not 5 digits/);
    });

    it('refuses a CEDEX city outside the postcode department', () => {
      expect(fields(address({ postcode: '75371', city: 'Lyon Cedex 08' }))).to.deep.equal(['recipient.postcode']);
    });

    it('refuses an empty city', () => {
      expect(fields(address({ city: '  ' }))).to.deep.equal(['recipient.postcode']);
    });
  });

  describe('postal norm: at most 6 lines of at most 38 characters', () => {
    it('accepts name + 4 lines + the postcode line (6 lines)', () => {
      expect(fields(address({ lines: ['Appartement 12', 'Bâtiment B', '12 rue des Lilas', 'BP 42'] }))).to.deep.equal([]);
    });

    it('refuses a fifth address line (7 lines in all)', () => {
      expect(fields(address({ lines: ['A', 'B', 'C', 'D', 'E'] }))).to.deep.equal(['recipient.lines']);
    });

    it('needs at least one address line', () => {
      const problems = addressProblems(address({ lines: [] }), 'recipient');
      expect(problems.map((p) => p.field)).to.deep.equal(['recipient.lines']);
      expect(problems[0]!.message).to.match(/at least one line/);
    });

    it('accepts lines of exactly 38 characters and refuses 39, naming the line', () => {
      const ok = 'x'.repeat(38);
      expect(fields(address({ name: ok, lines: [ok] }))).to.deep.equal([]);
      const long = 'x'.repeat(39);
      expect(fields(address({ name: long }))).to.deep.equal(['recipient.name']);
      expect(fields(address({ lines: ['12 rue des Lilas', long] }))).to.deep.equal(['recipient.lines.1']);
    });

    it('refuses a postcode line (postcode, space, city) over 38 characters', () => {
      // 5 + 1 + 33 = 39 characters; the postal check runs too, so only the city field is asserted here.
      expect(fields(address({ city: 'P'.repeat(33) }))).to.include('recipient.city');
      expect(fields(address({ city: 'P'.repeat(32) }))).not.to.include('recipient.city');
    });

    it('counts accented characters once', () => {
      const accented = 'é'.repeat(38);
      expect(fields(address({ lines: [accented] }))).to.deep.equal([]);
    });
  });

  describe('empty lines', () => {
    it('refuses an empty or blank name', () => {
      expect(fields(address({ name: '' }))).to.deep.equal(['recipient.name']);
      expect(fields(address({ name: '   ' }))).to.deep.equal(['recipient.name']);
    });

    it('refuses a blank address line, naming its index', () => {
      const problems = addressProblems(address({ lines: ['12 rue des Lilas', ' '] }), 'recipient');
      expect(problems).to.deep.equal([{ field: 'recipient.lines.1', message: 'is empty' }]);
    });

    it('reports every problem at once, under the given field prefix', () => {
      const problems = addressProblems(address({ name: '', lines: ['x'.repeat(39)], postcode: '00000' }), 'sender');
      expect(problems.map((p) => p.field).sort()).to.deep.equal(['sender.lines.0', 'sender.name', 'sender.postcode']);
    });
  });
});
