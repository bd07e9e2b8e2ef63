import { expect } from 'chai';
import { batchRowsFromCsv, parseCsv } from '../../domain/batches/csv.js';

describe('batch rows from a CSV file', () => {
  it('reads quoted cells with separators, quotes and line breaks, comma or semicolon separated', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi""\nthere"\r\n\n')).to.deep.equal([
      ['a', 'b'],
      ['x, y', 'say "hi"\nthere'],
    ]);
    expect(parseCsv('a;b\n1,5;2')).to.deep.equal([
      ['a', 'b'],
      ['1,5', '2'],
    ]);
  });

  it('maps recipient columns, the reference, and every other column to the letter fields', () => {
    const rows = batchRowsFromCsv('\uFEFFname,line1,line2,postalCode,city,reference,prenom\nJean Martin,5 rue A,,69002,Lyon,R-1,Jean\n');
    expect(rows).to.deep.equal([
      {
        recipient: { name: 'Jean Martin', lines: ['5 rue A'], postcode: '69002', city: 'Lyon', country: 'FR' },
        fields: { prenom: 'Jean' },
        reference: 'R-1',
      },
    ]);
  });

  it('takes a recipient by SIRET, with an optional name', () => {
    expect(batchRowsFromCsv('siret;name\n35600000000048;\n35600000000048;Service')).to.deep.equal([
      { recipient: { siret: '35600000000048' } },
      { recipient: { siret: '35600000000048', name: 'Service' } },
    ]);
  });

  it('refuses a file without rows or without the recipient columns, in French', () => {
    expect(() => batchRowsFromCsv('name,city\n')).to.throw('ligne d’en-tête');
    expect(() => batchRowsFromCsv('name,city\nA,B')).to.throw('postalCode');
  });

  it("reads the electronic channel's columns (recipientEmail, a consumer's consentDate and consentMeans) apart from the letter's fields", () => {
    const csv =
      'name,line1,postalCode,city,recipientEmail,consentDate,consentMeans,prenom\nA,1 rue B,75001,PARIS,a@example.fr,2026-01-10,bail,Anne\nC,2 rue D,75001,PARIS,c@example.fr,2026-01-11,,Carl\n';
    const [first, second] = batchRowsFromCsv(csv);
    expect(first).to.deep.include({ recipientEmail: 'a@example.fr', consent: { date: '2026-01-10', means: 'bail' }, fields: { prenom: 'Anne' } });
    // Only what was given: the API names what is missing.
    expect(second).to.deep.include({ recipientEmail: 'c@example.fr', consent: { date: '2026-01-11' }, fields: { prenom: 'Carl' } });
  });
});
