import { expect } from 'chai';
import { siretProblem } from '../../domain/lookups/companies.js';
import { sameCompany } from '../../domain/access/production-access.js';

describe('production access checks (SIRET control key, legal name)', () => {
  it('accepts 14 digits with a right INSEE control key, La Poste’s establishments by their own rule', () => {
    expect(siretProblem('35600000000048')).to.equal(undefined); // La Poste, head office (also Luhn)
    expect(siretProblem('98765432400001')).to.equal(undefined);
    // A La Poste establishment: not Luhn, digits adding up to a multiple of 5.
    expect(siretProblem('35600000049837')).to.equal(undefined);
    expect(siretProblem('35600000049838')).to.equal('checksum');
  });

  it('refuses a wrong length or other characters (format) and a wrong control key (checksum)', () => {
    for (const bad of ['3560000000004', '356000000000480', '3560000000004A', '', '356 000 000 00048']) expect(siretProblem(bad), bad).to.equal('format');
    expect(siretProblem('12345678901234')).to.equal('checksum');
    expect(siretProblem('98765432400002')).to.equal('checksum');
    // The SIREN's own key is checked too.
    expect(siretProblem('98765432500001')).to.equal('checksum');
  });

  it('matches the directory’s name or acronym word for word, case, accents and punctuation aside', () => {
    const poste = { name: 'LA POSTE', acronym: null };
    expect(sameCompany('La Poste', poste)).to.equal(true);
    expect(sameCompany('la poste s.a.', poste)).to.equal(true);
    expect(sameCompany('Poste', poste)).to.equal(false);
    expect(sameCompany('La', poste)).to.equal(false);
    expect(sameCompany('Acme Logistique', poste)).to.equal(false);
    const sncf = { name: 'SOCIETE NATIONALE SNCF', acronym: 'SNCF' };
    expect(sameCompany('Société nationale SNCF', sncf)).to.equal(true);
    expect(sameCompany('SNCF', sncf)).to.equal(true);
  });
});
