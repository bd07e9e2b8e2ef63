import { expect } from 'chai';
import { afnorAddress, postalCity, postalLine, wrapLine } from '../../domain/mailings/afnor.js';
import { ADDRESS_SCORE_THRESHOLD, confirms, streetLineIndex, suggestionsOf } from '../../domain/mailings/address-check.js';
import { directoryAddress, printableName } from '../../domain/mailings/siret-recipient.js';
import type { AddressMatch, CompanyProfile } from '../../domain/lookups/results.js';

const address = { name: 'Mairie de Lyon', lines: ['1 place de la Comédie'], postcode: '69001', city: 'Lyon', country: 'FR' as const };
const match = (over: Partial<AddressMatch> = {}): AddressMatch => ({
  label: '1 Place de la Comédie 69001 Lyon',
  score: 0.97,
  type: 'housenumber',
  housenumber: '1',
  street: 'Place de la Comédie',
  name: '1 Place de la Comédie',
  postcode: '69001',
  city: 'Lyon',
  citycode: '69381',
  ...over,
});

describe('the postal address norm (NF Z10-011)', () => {
  it('writes the postcode line in upper case, without accents or punctuation', () => {
    expect(postalCity('Lyon')).to.equal('LYON');
    expect(postalCity('Saint-Étienne')).to.equal('SAINT ETIENNE');
    expect(postalCity("L'Isle-d'Abeau")).to.equal('L ISLE D ABEAU');
    expect(postalCity('Lyon Cedex 03')).to.equal('LYON CEDEX 03');
  });

  it('abbreviates street types only when a line would exceed 38 characters', () => {
    expect(postalLine('12  avenue   de Ségur')).to.equal('12 avenue de Ségur');
    const long = '145 boulevard du Général Maréchal Leclerc';
    expect(long.length).to.be.above(38);
    const short = postalLine(long);
    expect(short.length).to.be.at.most(38);
    expect(short).to.equal('145 BD du Général Maréchal Leclerc');
    expect(postalLine('3 allée des Résidences Très Longues Encore')).to.match(/^3 ALL /);
  });

  it('splits a directory line that cannot fit into lines of 38 characters', () => {
    const lines = wrapLine('ZONE ARTISANALE DES GRANDS CHAMPS BATIMENT NUMERO 4 RUE DES ARTISANS');
    expect(lines.length).to.be.above(1);
    for (const line of lines) expect(line.length).to.be.at.most(38);
  });

  it('keeps the name and lines, spaced as the norm writes them', () => {
    expect(afnorAddress({ ...address, lines: [' Bât. B ', '1 place  de la Comédie'] })).to.deep.equal({
      name: 'Mairie de Lyon',
      lines: ['Bât. B', '1 place de la Comédie'],
      postcode: '69001',
      city: 'LYON',
      country: 'FR',
    });
  });
});

describe('the address check', () => {
  it('checks the line with the house number, else the last that is not a postal box', () => {
    expect(streetLineIndex(['Bât. B', '12 rue des Lilas'])).to.equal(1);
    expect(streetLineIndex(['12 rue des Lilas', 'Lieu-dit Les Combes'])).to.equal(0);
    expect(streetLineIndex(['Résidence les Pins', 'Chemin des Vignes', 'BP 12'])).to.equal(1);
    expect(streetLineIndex(['BP 12', 'CS 30001'])).to.equal(-1);
  });

  it('confirms the same number in the same postcode at or above the threshold, nothing else', () => {
    expect(confirms(match(), address, '1 place de la Comédie')).to.equal(true);
    expect(confirms(match({ score: ADDRESS_SCORE_THRESHOLD }), address, '1 place de la Comédie')).to.equal(true);
    expect(confirms(match({ score: ADDRESS_SCORE_THRESHOLD - 0.01 }), address, '1 place de la Comédie')).to.equal(false);
    expect(confirms(match({ postcode: '69002' }), address, '1 place de la Comédie')).to.equal(false);
    expect(confirms(match({ housenumber: '10' }), address, '1 place de la Comédie')).to.equal(false);
    // A number the base does not have: it answers with the street only.
    expect(confirms(match({ type: 'street', housenumber: null }), address, '999 place de la Comédie')).to.equal(false);
    // No number sent: the street (or a locality) is what can be confirmed.
    expect(confirms(match({ type: 'street', housenumber: null }), address, 'place de la Comédie')).to.equal(true);
    expect(confirms(match({ type: 'municipality' }), address, 'place de la Comédie')).to.equal(false);
  });

  it('suggests up to 3 of the base’s addresses in the request’s shape, never a commune alone', () => {
    const suggestions = suggestionsOf(
      [
        match({ postcode: '69001' }),
        match({ label: 'x', score: 0.39 }),
        match({ label: 'Lyon', type: 'municipality' }),
        match({ label: 'a', name: 'A' }),
        match({ label: 'b', name: 'B' }),
        match({ label: 'c', name: 'C' }),
      ],
      { ...address, lines: ['Bât. B', '1 plce Comedie'] },
      1,
    );
    expect(suggestions.map((s) => s.lines)).to.deep.equal([
      ['Bât. B', '1 Place de la Comédie'],
      ['Bât. B', 'A'],
      ['Bât. B', 'B'],
    ]);
    expect(suggestions[0]).to.include({ name: 'Mairie de Lyon', postcode: '69001', city: 'LYON', country: 'FR' });
  });

  it("takes the directory's one-line address apart: the lines before the postcode and city", () => {
    const establishment = {
      siret: '35600000000048',
      status: 'active' as const,
      isHeadOffice: true,
      address: '9 RUE DU COLONEL PIERRE AVIA 75015 PARIS',
      postcode: '75015',
      city: 'PARIS',
      activity: null,
      createdOn: null,
    };
    expect(directoryAddress(establishment, 'LA POSTE')).to.deep.equal({
      name: 'LA POSTE',
      lines: ['9 RUE DU COLONEL PIERRE AVIA'],
      postcode: '75015',
      city: 'PARIS',
      country: 'FR',
    });
    expect(directoryAddress({ ...establishment, address: '9 RUE DU COLONEL PIERRE AVIA 75015 PARIS 15' }, 'LA POSTE').lines).to.deep.equal([
      '9 RUE DU COLONEL PIERRE AVIA',
    ]);
  });

  it("prints the company's name, its acronym when the name does not fit, else asks for recipient.name", () => {
    const profile = (name: string, acronym: string | null) => ({ siret: '35600000000048', company: { name, acronym } }) as CompanyProfile;
    expect(printableName(profile('LA POSTE', null))).to.equal('LA POSTE');
    const long = 'SOCIETE NATIONALE DES CHEMINS DE FER FRANCAIS';
    expect(printableName(profile(long, 'SNCF'))).to.equal('SNCF');
    expect(() => printableName(profile(long, null)))
      .to.throw()
      .that.deep.includes({ code: 'address_invalid', details: { field: 'recipient.name', siret: '35600000000048' } });
  });
});
