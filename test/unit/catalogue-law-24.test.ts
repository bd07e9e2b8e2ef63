import { expect } from 'chai';
import { catalogue, letterFields, type LetterData } from '../../domain/catalogue/catalogue.js';
import { renderLetter } from '../../domain/letters/render.js';
import { checkValues, type FieldValue } from '../../domain/letters/values.js';
import { calculators } from '../../domain/calculations/calculators.js';
import { prepareComputation } from '../../domain/calculations/compute.js';

const NOW = new Date('2026-11-24T10:00:00Z');
const base = { senderName: 'Marie Dupont', senderAddress: '12 rue des Lilas\n69003 Lyon', place: 'Lyon' };
const recipient = { recipientName: 'Service Clients', recipientAddress: '5 avenue de la République\n69002 Lyon' };

function letter(slug: string): LetterData {
  const found = catalogue().letters.get(slug);
  if (!found) throw new Error(`no letter ${slug}`);
  return found;
}

/** Renders a catalogue letter the way /render does: values checked first, then laid out. */
function render(slug: string, given: Record<string, FieldValue>, providerSlug?: string): string {
  const l = letter(slug);
  const provider = providerSlug ? l.providers.find((p) => p.slug === providerSlug) : undefined;
  const { values, problems } = checkValues(letterFields(l, provider), { ...base, ...(provider ? {} : recipient), ...given });
  expect(problems, JSON.stringify(problems)).to.deep.equal([]);
  return renderLetter(l, provider, values, NOW).text;
}

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
    it('1. tax claim: the deadline follows the tax (local direct taxes: 31 December of the following year)', () => {
      const values = {
        fiscalNumber: '1234567890123',
        taxYear: 2025,
        noticeReference: '25 75 1234567 89',
        disputedAmountCents: 65000,
        reasons: 'Erreur de surface.',
      };
      for (const taxType of ['taxe-fonciere', 'taxe-habitation']) {
        const text = render('reclamation-fiscale', { ...values, taxType });
        expect(text).to.include(
          "article R*196-2 du même livre pour les impôts directs locaux, soit au plus tard le 31 décembre de l'année suivant celle de la mise en recouvrement",
        );
        expect(text).not.to.include('deuxième année');
      }
      for (const taxType of ['impot-revenu', 'prelevements-sociaux']) {
        const text = render('reclamation-fiscale', { ...values, taxType });
        expect(text).to.include(
          'article R*196-1 du même livre, soit au plus tard le 31 décembre de la deuxième année suivant celle de la mise en recouvrement',
        );
      }
      expect(render('reclamation-fiscale', { ...values, taxType: 'autre' })).to.include('délai prévu aux articles R*196-1 et R*196-2 du même livre.');
      // The summary (the catalogue) gives both deadlines, with the example of a taxe foncière collected in 2025.
      expect(letter('reclamation-fiscale').summary).to.include("une taxe foncière mise en recouvrement en 2025 se conteste jusqu'au 31 décembre 2026");
    });

    it('2. train, G30: the 60-day deadline for postal claims is in the summary and the letter, with its source', () => {
      const values = {
        trainNumber: '6611',
        travelDate: '2026-11-01',
        departureStation: 'Paris Gare de Lyon',
        arrivalStation: 'Marseille Saint-Charles',
        bookingReference: 'ABC123',
        ticketPriceCents: 8900,
        arrivalDelayMinutes: 95,
      };
      const g30 = render('indemnisation-retard-train', { ...values, claimBasis: 'g30' }, 'sncf-voyageurs');
      expect(g30).to.include('dans le délai de soixante jours suivant la date du voyage');
      expect(render('indemnisation-retard-train', { ...values, claimBasis: 'minimum-ue' })).not.to.include('soixante jours');
      const l = letter('indemnisation-retard-train');
      expect(l.summary).to.include('dans les 60 jours suivant la date du voyage');
      expect(l.sources.find((s) => s.url.endsWith('/A11166'))!.note).to.include('délai de 60 jours');
    });

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
