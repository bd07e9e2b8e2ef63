import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Catalogue, catalogue, catalogueProblems, loadCatalogueData, staleSources } from '../../domain/catalogue/catalogue.js';
import { SOURCE_URL } from '../../domain/catalogue/schema.js';
import { sourcesMarkdown } from '../../domain/catalogue/sources-md.js';
import type { FieldValue } from '../../domain/letters/values.js';
import { catalogueLetter, refusalDetails, renderChecked } from '../support/catalogue-letters.js';
import { calculators } from '../../domain/calculations/calculators.js';
import { prepareComputation } from '../../domain/calculations/compute.js';
import { estimateQuote, prepareQuote } from '../../domain/calculations/quotes.js';
import { priceTable, VAT_RATE } from '../../domain/billing/prices.js';
import { parisDate } from '../../lib/paris-time.js';
import type { Deps } from '../../domain/deps.js';

// Read independently of the code under test: from dist/test/unit/ up to the project root.
const sourcesFile = readFileSync(new URL('../../../catalogue/SOURCES.md', import.meta.url), 'utf8');

const NOW = new Date('2026-11-23T10:00:00Z');
const letter = catalogueLetter;
/** Renders a catalogue letter the way /render does: values checked first, then laid out. */
const render = (slug: string, given: Record<string, FieldValue>, providerSlug?: string) => renderChecked(slug, given, NOW, providerSlug);
const unprocessableFields = refusalDetails;

describe('catalogue law (issue 16)', () => {
  describe('structured legal sources', () => {
    const data = loadCatalogueData();

    it('every letter, calculator, AI tool and quote has sources: text, article, an official URL and a check date or the status unverified', () => {
      for (const entry of [...data.letters, ...data.calculators, ...data.aiTools, ...data.quotes]) {
        expect(entry.sources.length, entry.slug).to.be.greaterThan(0);
        for (const s of entry.sources) {
          expect(s.text.length, entry.slug).to.be.greaterThan(2);
          expect(s.article.length, entry.slug).to.be.greaterThan(0);
          expect(s.url, entry.slug).to.match(SOURCE_URL);
          // A check date, or (issue 24) the source says it is unverified and has none.
          if (s.status === 'unverified') expect(s.checkedOn, entry.slug).to.equal(undefined);
          else expect(s.checkedOn, entry.slug).to.match(/^\d{4}-\d{2}-\d{2}$/);
        }
      }
      // French law is cited on Légifrance or service-public.fr; only EU texts point to EUR-Lex.
      const french = data.letters.flatMap((l) => l.sources).filter((s) => /^(Code|Loi|Décret|Livre)/.test(s.text));
      expect(french.length).to.be.greaterThan(50);
      expect(french.every((s) => /^https:\/\/www\.(legifrance\.gouv|service-public)\.fr\//.test(s.url))).to.equal(true);
    });

    it('no check is older than 12 months today (Europe/Paris): the law changes, and this is how we notice', () => {
      expect(staleSources(data, parisDate())).to.deep.equal([]);
    });

    it('reports a check older than 12 months, and one in the future', () => {
      const old = structuredClone(data);
      old.letters[0]!.sources[0]!.checkedOn = '2025-11-28';
      old.calculators[0]!.sources[0]!.checkedOn = '2026-11-30';
      // Today moved from 2026-11-23 to 2026-11-24 (issue 24), then to 2026-11-29 (issue 51): sources read on 2026-11-29 would be in the future.
      const stale = staleSources(old, '2026-11-29');
      expect(stale).to.have.length(2);
      expect(stale[0]).to.include(old.letters[0]!.slug).and.to.include('2025-11-28');
      expect(stale[1]).to.include('future');
      // Exactly 12 months is still fresh; a provider address is checked too.
      old.letters[0]!.sources[0]!.checkedOn = '2025-11-29';
      old.calculators[0]!.sources[0]!.checkedOn = '2026-11-29';
      const withProvider = old.letters.find((l) => l.providers.length)!;
      withProvider.providers[0]!.addressSource.checkedOn = '2024-01-01';
      expect(staleSources(old, '2026-11-29')).to.deep.equal([
        `letter ${withProvider.slug}: address of provider ${withProvider.providers[0]!.slug} last checked 2024-01-01`,
      ]);
    });

    it('catalogue/SOURCES.md is generated from that data and up to date (npm run sources)', () => {
      expect(sourcesFile, 'catalogue/SOURCES.md is stale: run `npm run sources`').to.equal(sourcesMarkdown(data));
      expect(sourcesFile).to.include('Code du travail, art. L1234-9');
    });

    it('the catalogue ETag changed, and covers the sources: a changed check date changes it', () => {
      // The ETag served before issue 16 (commit 1fe6445), computed with the same code on that commit's catalogue.
      expect(catalogue().etag).to.not.equal('"548afd91094ecaf0def7a46843734558"');
      const changed = structuredClone(data);
      changed.letters[0]!.sources[0]!.checkedOn = '2026-11-22';
      expect(new Catalogue(changed).etag).to.not.equal(catalogue().etag);
      expect(new Catalogue(structuredClone(data)).etag).to.equal(catalogue().etag);
    });

    it('rejects a passage on a field that is not an enum of the letter, or an unknown option', () => {
      const broken = structuredClone(data);
      const l = broken.letters.find((x) => x.slug === 'conge-locataire-preavis')!;
      l.body += '{{#nope=a}}x{{/nope}}{{#noticeReason=2-mois}}y{{/noticeReason}}{{#noticeReason=3-mois}}z';
      const problems = catalogueProblems(broken);
      expect(problems.some((p) => p.includes('depends on nope'))).to.equal(true);
      expect(problems.some((p) => p.includes('noticeReason=2-mois'))).to.equal(true);
      expect(problems.some((p) => p.includes('not closed'))).to.equal(true);
    });
  });

  describe('corrections, read in the rendered letters', () => {
    it('1. telecom: after the 12th month nothing is owed, at most 20 % with a subsidised phone; no "quart"', () => {
      for (const slug of ['resiliation-box-internet', 'resiliation-forfait-mobile']) {
        const values: Record<string, FieldValue> =
          slug === 'resiliation-box-internet' ? { subscriberId: 'A1', installationAddress: '12 rue des Lilas, 69003 Lyon' } : { phoneNumber: '06 12 34 56 78' };
        const plain = render(slug, { ...values, terminationContext: 'engagement-24-mois-apres-12' }).text;
        expect(plain).to.include("je ne suis redevable d'aucune des mensualités restant dues");
        const phone = render(slug, { ...values, terminationContext: 'engagement-apres-12-terminal-subventionne' }).text;
        expect(phone).to.include("que d'au plus 20 % du montant dû au titre de la fraction non échue");
        const field = letter(slug).fields.find((f) => f.name === 'terminationContext')!;
        const all = JSON.stringify(field);
        expect(all).not.to.match(/quart/);
        expect(all).not.to.include("jusqu'à la fin de l'engagement");
      }
    });

    it('2. late delivery: the contract is resolved by registered letter with acknowledgment or a durable medium, not a simple letter', () => {
      const text = render('mise-en-demeure-livraison', {
        orderNumber: 'C-1',
        orderDate: '2026-09-01',
        productDescription: 'un canapé',
        amountPaidCents: 89900,
        agreedDeliveryDate: '2026-10-01',
        additionalDays: 15,
      }).text;
      expect(text).to.include("je résoudrai le contrat par lettre recommandée avec demande d'avis de réception ou par un écrit sur un autre support durable");
      expect(text).not.to.include('simple courrier');
    });

    it('3. canvassing: prior consent since 11 August 2026, no Bloctel', () => {
      const l = letter('opposition-prospection-commerciale');
      expect(l.fields.map((f) => f.name))
        .to.include('phoneConsent')
        .and.not.include('bloctelStatus');
      const text = render('opposition-prospection-commerciale', { phoneNumber: '06 12 34 56 78', phoneConsent: 'jamais-consenti' }).text;
      expect(text).to.include('article L223-1 du Code de la consommation, dans sa rédaction en vigueur depuis le 11 août 2026');
      expect(text).to.include('sans mon consentement préalable, dont il vous appartient');
      expect(`${l.body} ${JSON.stringify(l.fields)}`).not.to.match(/inscrit sur la liste|Bloctel \(/);
    });

    it('4. severance pay: eligibility at the dismissal letter (2025-05-01, letter 2025-12-05, notice end 2026-01-05 → 0)', () => {
      const result = calculators['indemnite-licenciement']!({
        hireDate: '2025-05-01',
        notificationDate: '2025-12-05',
        noticeEndDate: '2026-01-05',
        averageSalary12MonthsCents: 200000,
      });
      expect(result).to.include({ eligible: false, indemnityCents: 0, seniority: '8 mois et 4 jours', seniorityAtNotification: '7 mois et 4 jours' });
      const eligible = calculators['indemnite-licenciement']!({
        hireDate: '2025-03-01',
        notificationDate: '2025-11-03',
        noticeEndDate: '2025-12-03',
        averageSalary12MonthsCents: 180000,
      });
      expect(eligible).to.include({ eligible: true, indemnityCents: 33750 });
      expect(
        catalogue()
          .calculators.get('indemnite-licenciement')!
          .inputs.find((f) => f.name === 'notificationDate'),
      ).to.include({ type: 'date', required: true });
    });

    it('5. kilometric scale: says which income years it covers; the latest is the default; others are refused', () => {
      const scale = catalogue().calculators.get('indemnites-kilometriques')!.scale as { incomeYears: number[] };
      expect(scale.incomeYears).to.include.members([2024, 2025]);
      expect(scale).not.to.have.property('year');
      const prepared = prepareComputation('indemnites-kilometriques', { fiscalHorsepower: '5', distanceKm: 4000, electricVehicle: 'non' });
      expect(prepared.defaultsApplied).to.deep.include({
        field: 'incomeYear',
        value: Math.max(...scale.incomeYears),
        reason: 'not given: the latest income year the scale covers',
      });
      expect(calculators['indemnites-kilometriques']!({ ...prepared.inputs, incomeYear: 2024 })).to.deep.equal({
        amountCents: 254400,
        incomeYear: 2024,
        scaleYear: 2025,
      });
      const details = unprocessableFields(() =>
        prepareComputation('indemnites-kilometriques', { fiscalHorsepower: '5', distanceKm: 4000, electricVehicle: 'non', incomeYear: 2019 }),
      );
      expect(JSON.stringify(details)).to.include('no scale for this income year');
    });

    it('6. SEPA direct debit: L133-25 and L133-25-1 (eight weeks, ten business days)', () => {
      const text = render('contestation-prelevement-sepa', {
        accountIban: 'FR7630006000011234567890189',
        creditorName: 'ACME',
        debitDate: '2026-11-02',
        amountCents: 4990,
      }).text;
      expect(text).to.include('articles L133-25 et L133-25-1 du Code monétaire et financier');
      expect(text).to.include("dix jours ouvrables suivant la réception de ma demande prévu à l'article L133-25-1");
    });

    it('7. insurance on L113-16 grounds: event type and date required and printed; sale date for a sold vehicle', () => {
      const habitation = { contractNumber: 'H-1', insuredAddress: '12 rue des Lilas, 69003 Lyon' };
      const missing = render('resiliation-assurance-habitation', { ...habitation, terminationGround: 'demenagement' });
      expect(missing.missingFields).to.include.members(['eventType', 'eventDate']);
      const full = render('resiliation-assurance-habitation', {
        ...habitation,
        terminationGround: 'demenagement',
        eventType: 'changement-domicile',
        eventDate: '2026-10-01',
      });
      expect(full.missingFields).to.deep.equal([]);
      expect(full.text).to.include(
        "L'événement qui motive cette résiliation est le changement de mon domicile, survenu le 1er octobre 2026, soit moins de trois mois",
      );
      expect(full.text).to.include('article R113-6 du Code des assurances');
      const yearly = render('resiliation-assurance-habitation', { ...habitation, terminationGround: 'echeance' });
      expect(yearly.missingFields).to.deep.equal([]);
      expect(yearly.text).not.to.include("L'événement qui motive");

      const auto = { contractNumber: 'A-1', vehicleRegistration: 'AB-123-CD' };
      const sold = render('resiliation-assurance-auto', { ...auto, terminationGround: 'cession' });
      expect(sold.missingFields).to.deep.equal(['saleDate']);
      expect(render('resiliation-assurance-auto', { ...auto, terminationGround: 'cession', saleDate: '2026-11-02' }).text).to.include(
        'Le véhicule a été cédé le 2 novembre 2026.',
      );
      const situation = render('resiliation-assurance-auto', { ...auto, terminationGround: 'changement-situation' });
      expect(situation.missingFields).to.deep.equal(['eventType', 'eventDate']);
    });

    it("8. train: SNCF's G30 is offered, the claims address is Caen's, and the calculator says it computes the EU minimum", () => {
      const values = {
        trainNumber: '6611',
        travelDate: '2026-11-02',
        departureStation: 'Paris Gare de Lyon',
        arrivalStation: 'Lyon Part-Dieu',
        bookingReference: 'ABCDEF',
        ticketPriceCents: 8000,
        arrivalDelayMinutes: 45,
      };
      const g30 = render('indemnisation-retard-train', { ...values, claimBasis: 'g30' }, 'sncf-voyageurs').text;
      expect(g30)
        .to.include('garantie G30')
        .and.to.include('75 % à partir de 3 heures')
        .and.to.include("25 % du prix du billet pour un retard à l'arrivée de 30 minutes");
      expect(g30).to.include('SNCF Voyageurs\nService G30 SNCF\nCS 69150\n14949 Caen Cedex 9');
      expect(g30).not.to.include('Arras');
      const eu = render('indemnisation-retard-train', { ...values, claimBasis: 'minimum-ue' }, 'sncf-voyageurs').text;
      expect(eu).to.include("au titre du minimum prévu par l'article 19 du règlement (UE) 2021/782");
      const calculator = catalogue().calculators.get('indemnite-retard-train')!;
      expect(calculator.title).to.match(/minimale européenne/);
      expect(calculator.summary).to.include('minimum européen');
      expect(calculators['indemnite-retard-train']!({ ticketPriceCents: 8000, arrivalDelayMinutes: 75 })).to.include({
        basis: 'minimum-ue',
        compensationCents: 2000,
      });
    });

    it('9. flights: the letter claims the full amount (no 300 € option), and the calculator gives the 300 € reduction only as possible (issue 51)', () => {
      const text = render('indemnisation-retard-annulation-vol', {
        flightNumber: 'AF123',
        flightDate: '2026-10-10',
        departureAirport: 'Paris-CDG',
        arrivalAirport: 'New York JFK',
        bookingReference: 'XYZ123',
        incidentType: 'retard',
        compensationAmount: '600',
      }).text;
      expect(text).to.include("l'indemnité forfaitaire de 600 euros, s'agissant d'un vol de plus de 3 500 kilomètres");
      expect(
        letter('indemnisation-retard-annulation-vol')
          .fields.find((f) => f.name === 'compensationAmount')!
          .options!.map((o) => o.value),
      ).to.deep.equal(['250', '400', '600']);
      expect(calculators['indemnite-retard-avion']!({ distanceKm: 6000, intraEu: 'non', arrivalDelayMinutes: 210 })).to.include({
        compensationCents: 60000,
        reductionPossible: true,
        reducedCompensationCents: 30000,
      });
    });

    it('10. notice of a furnished flat cites article 25-8, an unfurnished one article 15', () => {
      const values = { rentedAddress: '3 rue Neuve, 69001 Lyon', departureDate: '2026-12-31', newAddress: '8 place Bellecour, 69002 Lyon' };
      const furnished = render('conge-locataire-preavis', { ...values, noticeReason: '1-mois-meuble' }).text;
      expect(furnished).to.include("conformément à l'article 25-8 de la loi n° 89-462 du 6 juillet 1989");
      expect(furnished).not.to.include("l'article 15 de la loi");
      const empty = render('conge-locataire-preavis', { ...values, noticeReason: '3-mois' }).text;
      expect(empty).to.include("conformément à l'article 15 de la loi n° 89-462 du 6 juillet 1989");
      expect(empty).not.to.include('25-8 de la loi');
    });

    it('11. deposit: legal interest for leases before 27 March 2014, 20 % provision in a shared building (letter and calculator)', () => {
      const values = {
        rentedAddress: '3 rue Neuve, 69001 Lyon',
        keysReturnDate: '2026-09-01',
        depositAmountCents: 80000,
        monthlyRentCents: 80000,
        exitInventory: 'conforme',
      };
      const old = render('restitution-depot-garantie', { ...values, leaseDate: 'avant-2014-03-27', sharedBuilding: 'non' }).text;
      expect(old).to.include('produit intérêt au taux légal');
      expect(old).not.to.include('10 % du loyer mensuel');
      const recent = render('restitution-depot-garantie', { ...values, leaseDate: 'depuis-2014-03-27', sharedBuilding: 'oui' }).text;
      expect(recent).to.include('10 % du loyer mensuel en principal, soit 10 % de 800,00');
      expect(recent).to.include('ne pouvant excéder 20 % du dépôt de garantie');

      const deposit = calculators['depot-garantie-restitution']!;
      expect(
        deposit({
          monthlyRentCents: 60000,
          depositAmountCents: 60000,
          keysReturnDate: '2026-01-15',
          exitInventory: 'conforme',
          refundDate: '2026-03-17',
          leaseDate: 'avant-2014-03-27',
          legalInterestRatePercent: 7.3,
        }),
      ).to.include({ regime: 'interet-legal', penaltyCents: 0, lateDays: 30, legalInterestCents: 360, totalDueCents: 60360 });
      expect(
        deposit({
          monthlyRentCents: 80000,
          depositAmountCents: 80000,
          keysReturnDate: '2026-01-15',
          exitInventory: 'conforme',
          refundDate: '2026-04-20',
          sharedBuildingProvisionCents: 16000,
        }),
      ).to.include({ penaltyCents: 24000, provisionHeldCents: 16000, totalDueCents: 88000 });
      const tooMuch = unprocessableFields(() =>
        prepareComputation('depot-garantie-restitution', {
          monthlyRentCents: 80000,
          depositAmountCents: 80000,
          keysReturnDate: '2026-01-15',
          exitInventory: 'conforme',
          sharedBuildingProvisionCents: 16001,
        }),
      );
      expect(JSON.stringify(tooMuch)).to.include('at most 20 % of the deposit (16000 cents)');
    });

    it('12. hidden defects: the two years are for going to court, and the letter says it does not protect that', () => {
      const l = letter('garantie-vices-caches');
      const text = render('garantie-vices-caches', {
        productDescription: 'une voiture',
        purchaseDate: '2026-05-01',
        priceCents: 500000,
        discoveryDate: '2026-10-01',
        defectDescription: 'moteur',
        claim: 'resolution',
      }).text;
      expect(text).to.include('je saisirai la juridiction compétente dans le délai de deux ans');
      expect(text).not.to.include('La présente demande intervient dans le délai');
      expect(l.summary).to.include("ce courrier n'arrête pas ce délai");
      expect(l.fields.find((f) => f.name === 'discoveryDate')!.help).to.include("ne le suspend ni ne l'interrompt");
    });

    it('13. payment between businesses: late-payment penalties and the 40 € flat fee (L441-10); legal interest otherwise', () => {
      const values = { amountDueCents: 120000, debtOrigin: 'la facture n° 12', dueDate: '2026-10-01', paymentDeadlineDays: 8 };
      const b2b = render('mise-en-demeure-paiement', { ...values, debtContext: 'entre-professionnels' }).text;
      expect(b2b).to.include('indemnité forfaitaire pour frais de recouvrement de 40 euros (articles L441-10 et D441-5 du Code de commerce)');
      expect(b2b).to.include('majoré de dix points de pourcentage');
      const civil = render('mise-en-demeure-paiement', { ...values, debtContext: 'civile' }).text;
      expect(civil).to.include('intérêts au taux légal');
      expect(civil).not.to.include('40 euros');
    });

    it("14. Free's unverified address is gone: the recipient is left to the user", () => {
      const all = catalogue().data.letters.flatMap((l) => l.providers.map((p) => p.slug));
      expect(all).not.to.include('free');
      expect(all).not.to.include('free-mobile');
      expect(JSON.stringify(catalogue().data.letters)).not.to.include('75371');
      const box = render('resiliation-box-internet', {
        subscriberId: 'A1',
        installationAddress: '12 rue des Lilas, 69003 Lyon',
        terminationContext: 'sans-engagement',
      });
      expect(box.text).to.include('Service Clients\n5 avenue de la République\n69002 Lyon');
    });

    it('15. VAT: 20 % on every amount, postage included, and quotes use that one rate', async () => {
      expect(priceTable.amountsExcludeVat).to.equal(true);
      expect(priceTable.vat.rate).to.equal(0.2);
      expect(VAT_RATE).to.equal(priceTable.vat.rate);
      const prepared = prepareQuote(
        'devis-envoi-courriers-en-nombre',
        { letterCount: 10, pagesPerLetter: 1, printColor: 'noir-et-blanc', duplex: 'recto', postalMode: 'simple', email: 'a@example.fr' },
        '2026-11-23',
      );
      const estimate = await estimateQuote({} as Deps, prepared, '2026-11-23');
      expect(estimate.totalCents).to.equal(1890);
      expect(estimate).to.include({ vatRate: 0.2, vatCents: 378, totalInclVatCents: 2268 });
      expect(estimate.notes.join(' ')).to.include('affranchissement compris');
    });

    it('16. the legal-review quote says the amount is indicatif', async () => {
      expect(catalogue().quotes.get('devis-relecture-juridique')!.summary).to.include('indicatif');
      const prepared = prepareQuote(
        'devis-relecture-juridique',
        { documentType: 'courrier', pageCount: 1, deadline: '2026-12-31', email: 'a@example.fr' },
        '2026-11-23',
      );
      const estimate = await estimateQuote({} as Deps, prepared, '2026-11-23');
      expect(estimate.notes.join(' ')).to.include('Montant indicatif');
    });
  });
});
