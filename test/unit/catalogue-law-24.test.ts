import { expect } from 'chai';
import { calculators } from '../../domain/calculations/calculators.js';
import { prepareComputation } from '../../domain/calculations/compute.js';

const unprocessableDetails = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return (error as { details?: unknown }).details;
  }
  throw new Error('expected a 422');
};

describe('catalogue law (issue 24)', () => {
  describe('A. defects', () => {
    it('3. flights: every boundary of article 7 (1500/3500 km; halved when the delay does not exceed 2, 3 or 4 hours; nothing under 3 hours)', () => {
      const fly = (distanceKm: number, intraEu: 'oui' | 'non', arrivalDelayMinutes: number) =>
        calculators['indemnite-retard-avion']!({ distanceKm, intraEu, arrivalDelayMinutes }).compensationCents;
      // Sturgeon: compensation from 3 hours at arrival.
      expect(fly(1000, 'oui', 179)).to.equal(0);
      expect(fly(6000, 'non', 179)).to.equal(0);
      // Art. 7 §1 a): 1 500 km or less; 7 §2 a) (2 h) can never apply once 3 h are reached.
      expect(fly(1500, 'oui', 180)).to.equal(25000);
      expect(fly(1500, 'non', 180)).to.equal(25000);
      // Art. 7 §1 b): over 1 500 km intra-EU, or 1 500 to 3 500 km; 7 §2 b): halved up to 3 h inclusive.
      expect(fly(1501, 'non', 180)).to.equal(20000);
      expect(fly(1501, 'non', 181)).to.equal(40000);
      expect(fly(3500, 'non', 181)).to.equal(40000);
      expect(fly(5000, 'oui', 181)).to.equal(40000);
      // Art. 7 §1 c): over 3 500 km outside the EU; 7 §2 c): halved when the delay does not exceed 4 h.
      expect(fly(3501, 'non', 180)).to.equal(30000);
      expect(fly(3501, 'non', 239)).to.equal(30000);
      expect(fly(3501, 'non', 240)).to.equal(30000);
      expect(fly(3501, 'non', 241)).to.equal(60000);
    });

    it('4. paid leave: months worked plus months of sick leave over 12 are refused (422), so the 24-day cap holds', () => {
      const details = unprocessableDetails(() => prepareComputation('conges-payes-acquis', { monthsWorked: 6, sickLeaveMonths: 12 }));
      expect(JSON.stringify(details)).to.include('sickLeaveMonths').and.to.include('12 months');
      expect(prepareComputation('conges-payes-acquis', { monthsWorked: 0, sickLeaveMonths: 12 }).inputs).to.include({ sickLeaveMonths: 12 });
      const prepared = prepareComputation('conges-payes-acquis', { monthsWorked: 0, sickLeaveMonths: 12 });
      expect(calculators['conges-payes-acquis']!(prepared.inputs)).to.include({ days: 24 });
      expect(unprocessableDetails(() => prepareComputation('conges-payes-acquis', { monthsWorked: -1 }))).to.deep.equal([
        { field: 'monthsWorked', message: 'must not be negative' },
      ]);
    });
  });
});
