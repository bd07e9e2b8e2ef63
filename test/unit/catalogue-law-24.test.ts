import { expect } from 'chai';
import {
  Catalogue,
  lawDrivenLettersWithoutVerifiedSource,
  letterFields,
  loadCatalogueData,
  sourceVerified,
  staleSources,
} from '../../domain/catalogue/catalogue.js';
import { catalogueSchema, legalSourceSchema } from '../../domain/catalogue/schema.js';
import { sourcesMarkdown } from '../../domain/catalogue/sources-md.js';
import { renderLetter } from '../../domain/letters/render.js';
import { checkValues, type FieldValue } from '../../domain/letters/values.js';
import { catalogueLetter, RECIPIENT_VALUES, refusalDetails, renderChecked, SENDER_VALUES } from '../support/catalogue-letters.js';
import { calculators } from '../../domain/calculations/calculators.js';
import { prepareComputation } from '../../domain/calculations/compute.js';

const NOW = new Date('2026-11-24T10:00:00Z');
const letter = catalogueLetter;
const render = (slug: string, given: Record<string, FieldValue>, providerSlug?: string): string => renderChecked(slug, given, NOW, providerSlug).text;

/**
 * Letters whose content the law drives (they cite an article, a deadline or an amount) and whose
 * sources nobody has read yet (issue 24). This list may only shrink: read a source, give it its
 * article-level address and its check date, and take the letter off. A new letter cannot join it.
 * Issue 51 took off the eight letters whose Code du travail, CSS or CRPA articles were read in
 * DILA's LEGI data, and put back the six whose only "verified" source had been read on an
 * unofficial copy (now `read_on_copy`): a reading that was never one is not a shrink to keep.
 * The train letter came back on 2026-11-29 (issue 51): its only dated source, a 2016 news page, was
 * never a read of SNCF's G30 terms in force.
 */
const WAITING_FOR_A_READ_SOURCE = [
  'cloture-compte-bancaire',
  'confirmation-opposition-carte',
  'contestation-facture-telecom',
  'contestation-operation-non-autorisee',
  'contestation-prelevement-sepa',
  'contestation-rattrapage-facture-energie',
  'declaration-sinistre',
  'demande-dossier-medical',
  'demande-effacement-donnees-rgpd',
  'demande-justificatifs-charges',
  'demande-quittance-loyer',
  'demande-remise-gracieuse-impots',
  'demande-travaux-bailleur',
  'droit-au-compte-banque-de-france',
  'ecretement-facture-eau-fuite',
  'garantie-legale-conformite',
  'garantie-vices-caches',
  'indemnisation-retard-annulation-vol',
  'indemnisation-retard-train',
  'mise-en-demeure-livraison',
  'mise-en-demeure-paiement',
  'opposition-prospection-commerciale',
  'reclamation-bagage-aerien',
  'reclamation-fiscale',
  'recours-amiable-securite-sociale',
  'requete-exoneration-amende',
  'resiliation-abonnement-reconduction-tacite',
  'resiliation-assurance-auto',
  'resiliation-assurance-emprunteur',
  'resiliation-assurance-habitation',
  'resiliation-contrat-energie',
  'resiliation-salle-de-sport',
  'restitution-depot-garantie',
  'retractation-achat-distance',
];

const unprocessableDetails = refusalDetails;

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

    it('2. train, G30: no claim deadline is asserted (the G30 terms in force were not read), and the 2016 page is no verified source (issue 51)', () => {
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
      expect(g30).not.to.include('soixante jours');
      expect(render('indemnisation-retard-train', { ...values, claimBasis: 'minimum-ue' })).not.to.include('soixante jours');
      const l = letter('indemnisation-retard-train');
      expect(l.summary).not.to.match(/\b60 jours|90 jours/);
      expect(l.summary).to.include('Le délai pour présenter une demande G30 est fixé par les conditions de SNCF Voyageurs');
      const page = l.sources.find((s) => s.url.endsWith('/A11166'))!;
      expect(sourceVerified(page)).to.equal(false);
      expect(page.note).to.include("Ce n'est pas une lecture des conditions G30 en vigueur");
    });

    it("3. flights: every boundary of article 7 for a delay (1500/3500 km; nothing under 3 hours; halving only on band c under 4 hours, and only as the carrier's option; issue 51)", () => {
      const fly = (distanceKm: number, intraEu: 'oui' | 'non', arrivalDelayMinutes: number) =>
        calculators['indemnite-retard-avion']!({ distanceKm, intraEu, arrivalDelayMinutes });
      const due = (distanceKm: number, intraEu: 'oui' | 'non', arrivalDelayMinutes: number) => fly(distanceKm, intraEu, arrivalDelayMinutes).compensationCents;
      // Sturgeon 61: compensation from 3 hours at final arrival.
      expect(due(1000, 'oui', 179)).to.equal(0);
      expect(due(6000, 'non', 179)).to.equal(0);
      // Art. 7 §1 a): 1 500 km or less.
      expect(due(1500, 'oui', 180)).to.equal(25000);
      expect(due(1500, 'non', 180)).to.equal(25000);
      // Art. 7 §1 b): over 1 500 km intra-EU, or 1 500 to 3 500 km; no reduction for a delay (Sturgeon 63: 7 §2 c) only).
      expect(due(1501, 'non', 180)).to.equal(40000);
      expect(due(1501, 'non', 181)).to.equal(40000);
      expect(due(3500, 'non', 180)).to.equal(40000);
      expect(due(3500, 'non', 181)).to.equal(40000);
      expect(due(5000, 'oui', 180)).to.equal(40000);
      expect(due(5000, 'oui', 181)).to.equal(40000);
      expect(fly(5000, 'oui', 180)).to.include({ reductionPossible: false, reducedCompensationCents: null });
      // Art. 7 §1 c): over 3 500 km outside the EU: 600 € due; the carrier may halve it while the delay is under 4 h.
      expect(fly(3501, 'non', 180)).to.include({ compensationCents: 60000, reductionPossible: true, reducedCompensationCents: 30000 });
      expect(fly(3501, 'non', 239)).to.include({ compensationCents: 60000, reductionPossible: true, reducedCompensationCents: 30000 });
      expect(fly(3501, 'non', 240)).to.include({ compensationCents: 60000, reductionPossible: false, reducedCompensationCents: null });
      expect(fly(3501, 'non', 241)).to.include({ compensationCents: 60000, reductionPossible: false });
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

  describe('B. check dates that mean something', () => {
    const data = loadCatalogueData();

    it('a source is either verified (article-level address and a check date), read on a copy (dated, not verified), or says "unverified" and has no date', () => {
      const all = [...data.letters, ...data.calculators, ...data.aiTools, ...data.quotes].flatMap((e) => e.sources);
      for (const s of all) {
        if (sourceVerified(s)) {
          expect(s.checkedOn).to.match(/^\d{4}-\d{2}-\d{2}$/);
          // Read means the article itself: no whole-code address.
          expect(s.url, s.text).not.to.include('/texte_lc/');
        } else if (s.status === 'read_on_copy') {
          expect(s.checkedOn).to.match(/^\d{4}-\d{2}-\d{2}$/);
          // The note says which copy was read.
          expect(s.note, s.text).to.match(/copie|doctrine\.fr/);
        } else {
          expect(s).to.include({ status: 'unverified' });
          expect(s).not.to.have.property('checkedOn');
        }
      }
      // The sources the notes of issue 24 named as not reread are unverified.
      const find = (slug: string, article: string) =>
        [...data.letters, ...data.calculators].find((e) => e.slug === slug)!.sources.find((s) => s.article.startsWith(article))!;
      expect(sourceVerified(find('resiliation-mutuelle-sante', 'L221-10-2'))).to.equal(false);
      expect(sourceVerified(find('contestation-prelevement-sepa', 'L133-25-1'))).to.equal(false);
      expect(sourceVerified(find('indemnite-retard-avion', '7'))).to.equal(false);
      // What was read on doctrine.fr on 2026-11-24 was read again in the LEGI data on 2026-11-29 (issue 51).
      expect(find('conges-payes-acquis', 'L3141-3')).to.include({
        checkedOn: '2026-11-29',
        url: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000033020826',
        legiarti: 'LEGIARTI000033020826',
      });
      // What was read only on a copy says so, and is not verified: 8 sources (issue 51).
      const onCopy = all.filter((s) => s.status === 'read_on_copy');
      expect(onCopy).to.have.length(8);
      expect(onCopy.some(sourceVerified)).to.equal(false);
      expect(find('restitution-depot-garantie', '22')).to.include({ status: 'read_on_copy', checkedOn: '2026-11-24' });
      expect(find('opposition-prospection-commerciale', 'L223-1')).to.include({ status: 'read_on_copy' });
    });

    it('the schema refuses a date on an unverified source, and a verified source without one', () => {
      const base = { text: 'Code civil', article: '1641', url: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000006441924' };
      expect(legalSourceSchema.validate({ ...base, status: 'unverified' }).error).to.equal(undefined);
      expect(legalSourceSchema.validate({ ...base, checkedOn: '2026-11-24' }).error).to.equal(undefined);
      expect(legalSourceSchema.validate({ ...base, status: 'unverified', checkedOn: '2026-11-24' }).error).to.not.equal(undefined);
      expect(legalSourceSchema.validate(base).error).to.not.equal(undefined);
      expect(legalSourceSchema.validate({ ...base, status: 'verified', checkedOn: '2026-11-24' }).error).to.not.equal(undefined);
      // Read on a copy: dated, and not verified (issue 51).
      expect(legalSourceSchema.validate({ ...base, status: 'read_on_copy', checkedOn: '2026-11-24' }).error).to.equal(undefined);
      expect(legalSourceSchema.validate({ ...base, status: 'read_on_copy' }).error).to.not.equal(undefined);
      expect(sourceVerified({ ...base, status: 'read_on_copy', checkedOn: '2026-11-24' })).to.equal(false);
      // The official id of the article and the phrase relied on.
      const quoted = { ...base, checkedOn: '2026-11-29', legiarti: 'LEGIARTI000006441924', quote: 'Le vendeur est tenu de la garantie' };
      expect(legalSourceSchema.validate(quoted).error).to.equal(undefined);
      expect(legalSourceSchema.validate({ ...quoted, legiarti: 'LEGIARTI6441924' }).error).to.not.equal(undefined);
      expect(legalSourceSchema.validate({ ...quoted, legiarti: 'LEGITEXT000006070721' }).error).to.not.equal(undefined);
      expect(legalSourceSchema.validate({ ...quoted, quote: 'x'.repeat(301) }).error).to.not.equal(undefined);
    });

    it('SOURCES.md says « non vérifié », and the catalogue the API returns carries the status (valid against its response schema)', () => {
      const md = sourcesMarkdown(data);
      expect(md).to.include('Code de la mutualité, art. L221-10-2 — <https://www.legifrance.gouv.fr/codes/texte_lc/LEGITEXT000006074067> (non vérifié)');
      expect(md).to.match(/Sources vérifiées : \d+ sur \d+ ; lues seulement sur une copie non officielle : 8 ; non vérifiées : \d+\./);
      expect(md).to.include(
        'Loi n° 89-462 du 6 juillet 1989 tendant à améliorer les rapports locatifs, art. 22 — <https://www.legifrance.gouv.fr/loda/article_lc/LEGIARTI000006475255> (lu sur une copie non officielle le 2026-11-24, non vérifié)',
      );
      expect(md).to.include(
        'Code du travail, art. L3121-36 — <https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000033020341> (vérifié le 2026-11-29) — « donnent lieu à une majoration de salaire de 25 %',
      );
      const body = JSON.parse(new Catalogue(data).body.toString('utf8')) as { letters: { slug: string; sources: { status?: string }[] }[] };
      const letter = body.letters.find((l) => l.slug === 'reclamation-fiscale')!;
      expect(letter.sources[0]).to.include({ status: 'unverified' }).and.not.to.have.property('checkedOn');
      expect(catalogueSchema.validate(body).error).to.equal(undefined);
    });

    it('an unverified source has no date to be stale (years later, only dated sources are reported)', () => {
      const copy = structuredClone(data);
      for (const l of copy.letters) for (const s of l.sources) Object.assign(s, { status: 'unverified', checkedOn: undefined });
      const stale = staleSources(copy, '2030-01-01');
      expect(stale.filter((x) => x.startsWith('letter ') && !x.includes('address of provider'))).to.deep.equal([]);
      expect(stale.some((x) => x.startsWith('calculator '))).to.equal(true);
    });

    it('every letter whose content the law drives rests on a verified source, but for the list waiting for a read', () => {
      expect(lawDrivenLettersWithoutVerifiedSource(data)).to.deep.equal(WAITING_FOR_A_READ_SOURCE);
      // A new law-driven letter without a verified source is reported.
      const copy = structuredClone(data);
      const added = structuredClone(copy.letters.find((l) => l.slug === 'restitution-depot-garantie')!);
      added.slug = 'nouvelle-lettre';
      added.sources = added.sources.map((s) => ({ text: s.text, article: s.article, url: s.url, status: 'unverified' as const }));
      copy.letters.push(added);
      expect(lawDrivenLettersWithoutVerifiedSource(copy)).to.include('nouvelle-lettre');
      // A letter that cites no article, deadline or amount is not concerned.
      added.body = 'Madame, Monsieur,\n\nJe vous prie de bien vouloir me transmettre ce document.';
      added.fields = [];
      expect(lawDrivenLettersWithoutVerifiedSource(copy)).not.to.include('nouvelle-lettre');
    });
  });

  describe('C. what 2026 added', () => {
    it('congé supplémentaire de naissance: the employee informs the employer, with the notice and the durations; shaped like the other travail letters', () => {
      const slug = 'information-conge-supplementaire-naissance';
      const l = letter(slug);
      expect(l).to.include({ category: 'travail', recommendedMode: 'ar' });
      expect(l.providers).to.deep.equal([]);
      expect(l.keywords).to.include.members(['congé de naissance', 'naissance', 'employeur']);
      expect(l.legalBasis[0]).to.equal('Code du travail, articles L1225-46-2 à L1225-46-7');
      // The articles were read in DILA's LEGI data (issue 51); the law's article 99 and the decree were not.
      expect(l.sources.map((s) => [s.article, sourceVerified(s)])).to.deep.equal([
        ['L1225-46-2', true],
        ['L331-8-1', true],
        ['99', false],
      ]);
      const values = { childEvent: 'naissance', childEventDate: '2026-09-14', leaveStartDate: '2026-12-01' };
      const immediate = render(slug, { ...values, leaveDuration: '1-mois', previousLeave: 'paternite-immediat' });
      expect(immediate).to.include("que je prendrai un congé supplémentaire de naissance d'une durée d'un mois, à compter du 1er décembre 2026.");
      expect(immediate).to.include(
        "Ce congé fait suite à mon congé de paternité et d'accueil de l'enfant, dont il prendra immédiatement la suite : la présente information vous parvient donc au moins quinze jours avant son début.",
      );
      expect(immediate).not.to.include('au moins un mois');
      const split = render(slug, { ...values, leaveDuration: '2-mois-fractionne', secondPeriodStartDate: '2027-03-01', previousLeave: 'paternite' });
      expect(split).to.include(
        "d'une durée de deux mois, fractionné en deux périodes d'un mois, à compter du 1er décembre 2026, la seconde période débutant le 1er mars 2027.",
      );
      expect(split).to.include('la présente information vous parvient au moins un mois avant son début.');
      expect(split).to.include('articles L1225-46-2 et suivants du Code du travail, issus de la loi n° 2025-1403 du 30 décembre 2025');
      // The second period's start is required only for a split leave.
      const { values: checked } = checkValues(letterFields(l), {
        ...SENDER_VALUES,
        ...RECIPIENT_VALUES,
        ...values,
        leaveDuration: '2-mois-fractionne',
        previousLeave: 'paternite',
      });
      expect(renderLetter(l, undefined, checked, NOW).missingFields).to.deep.equal(['secondPeriodStartDate']);
      expect(renderLetter(l, undefined, { ...checked, leaveDuration: '1-mois' }, NOW).missingFields).to.deep.equal([]);
    });

    it('housing: since 1 January 2025 a G-rated home is not decent under a lease signed or renewed since then; the repairs letter says so when the tenant says both', () => {
      const values = {
        rentedAddress: '3 rue Neuve, 69001 Lyon',
        issueNoticedDate: '2026-11-02',
        issueDescription: 'Le chauffage ne fonctionne plus.',
        deadlineDays: 15,
      };
      const g = render('demande-travaux-bailleur', { ...values, energyClassG: 'oui', leaseEnergyDate: 'depuis-2025-01-01' });
      expect(g).to.include(
        'mon bail ayant été signé, renouvelé ou tacitement reconduit depuis le 1er janvier 2025, le logement doit, pour être décent, atteindre au moins la classe F',
      );
      // An existing request without the new fields renders as before.
      expect(render('demande-travaux-bailleur', values)).not.to.include('classe F');
    });
  });
});
