import { expect } from 'chai';
import { addMonths, calculators, monthsBetween } from '../api/calculations/calculators.js';
import { catalogue } from '../api/catalogue/catalogue.js';

/** The worked examples of catalogue/calculators.json, with their expected figures. */
describe('calculator formulas, against the catalogue\'s worked examples', () => {
  const centsOf = (expected: Record<string, unknown>): Record<string, unknown> => {
    // Examples give some amounts in euros; the formulas answer in cents.
    const out: Record<string, unknown> = { ...expected };
    if (typeof expected.amountEur === 'number') out.amountCents = Math.round(expected.amountEur * 100);
    if (typeof expected.compensationEur === 'number') out.compensationCents = Math.round(expected.compensationEur * 100);
    return out;
  };

  for (const [slug, compute] of Object.entries(calculators)) {
    const entry = catalogue().calculators.get(slug);
    it(`${slug}: every worked example`, () => {
      expect(entry, slug).to.not.equal(undefined);
      expect(entry!.examples!.length).to.be.greaterThan(0);
      for (const example of entry!.examples!) {
        const inputs = { ...(example.inputs as Record<string, string | number>) };
        if (slug === 'indemnite-licenciement' && inputs.averageSalary3MonthsCents === undefined) delete inputs.averageSalary3MonthsCents;
        const result = compute(inputs);
        const expected = centsOf(example.expected as Record<string, unknown>);
        for (const [key, value] of Object.entries(expected)) {
          if (key in result) expect(result[key], `${slug} ${JSON.stringify(example.inputs)} ${key}`).to.deep.equal(value);
        }
        // At least the headline figure of each example is checked.
        expect(Object.keys(expected).filter((k) => k in result).length, `${slug}: compared keys`).to.be.greaterThan(0);
      }
    });
  }

  it('counts calendar months the way French law does', () => {
    expect(addMonths('2025-11-30', 3)).to.equal('2026-02-28');
    expect(addMonths('2027-11-30', 3)).to.equal('2028-02-29');
    expect(addMonths('2026-01-31', 1)).to.equal('2026-02-28');
    expect(monthsBetween('2020-07-01', '2026-01-01')).to.deep.equal({ months: 66, days: 0 });
    expect(monthsBetween('2025-06-01', '2026-01-15')).to.deep.equal({ months: 7, days: 14 });
  });

  it('has a formula for every calculator of the catalogue but the one needing a partner', () => {
    const needPartner = ['cout-trajet-voiture'];
    expect([...catalogue().calculators.keys()].filter((slug) => !(slug in calculators))).to.deep.equal(needPartner);
  });
});
