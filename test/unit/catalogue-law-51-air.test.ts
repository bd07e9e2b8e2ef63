import { expect } from 'chai';
import { catalogueProblems, letterFields, loadCatalogueData } from '../../domain/catalogue/catalogue.js';
import { upgradeLetterFields } from '../../domain/catalogue/compatibility.js';
import { calculators, type Inputs, type Output } from '../../domain/calculations/calculators.js';
import { prepareComputation } from '../../domain/calculations/compute.js';
import { checkValues } from '../../domain/letters/values.js';
import { catalogueLetter, refusalDetails, renderChecked } from '../support/catalogue-letters.js';

const NOW = new Date('2026-11-29T10:00:00Z');
const SLUG = 'indemnite-retard-avion';
const LETTER = 'indemnisation-retard-annulation-vol';
const compute = (inputs: Inputs): Output => calculators[SLUG]!(inputs);

/** A delay at final arrival, as earlier requests gave it (no incident). */
const delay = (distanceKm: number, intraEu: 'oui' | 'non', arrivalDelayMinutes: number) => compute({ distanceKm, intraEu, arrivalDelayMinutes });
/** What the passenger may claim, and what the carrier may reduce it to (null: no reduction). */
const outcome = (result: Output) => [result.compensationCents, result.reductionPossible ? result.reducedCompensationCents : null];

const LETTER_VALUES = {
  flightNumber: 'AF123',
  flightDate: '2026-10-10',
  departureAirport: 'Paris-CDG',
  arrivalAirport: 'New York JFK',
  bookingReference: 'XYZ123',
  incidentType: 'retard',
  compensationAmount: '600',
};

/**
 * Issue 51, defect 1: flight compensation at its boundaries (Regulation 261/2004 art. 5 and 7;
 * CJEU Sturgeon, C-402/07, points 61 and 63; Nelson, C-581/10), row by row the tables of the legal
 * research of issue 51 (air-delay.md, §3).
 */
describe('catalogue law (issue 51): flight compensation', () => {
  describe('a delay at final arrival (Sturgeon 61 and 63)', () => {
    it('nothing under 3 h 00 in any band; the full amount from 3 h 00', () => {
      for (const [km, eu, full] of [
        [1000, 'oui', 25000],
        [1500, 'non', 25000],
        [1501, 'non', 40000],
        [3500, 'non', 40000],
        [2000, 'oui', 40000],
        [5000, 'oui', 40000],
        [3501, 'non', 60000],
      ] as const) {
        expect(delay(km, eu, 179), `${km} ${eu} 179`).to.include({
          compensationCents: 0,
          reductionPossible: false,
          exclusion: 'retard-inferieur-a-trois-heures',
        });
        expect(delay(km, eu, 180), `${km} ${eu} 180`).to.include({ compensationCents: full, exclusion: null });
      }
    });

    it('bands a and b: the full amount, never reducible (no 200 € outcome for a delay)', () => {
      expect(outcome(delay(1500, 'oui', 180))).to.deep.equal([25000, null]);
      expect(outcome(delay(1500, 'non', 210))).to.deep.equal([25000, null]);
      expect(outcome(delay(1501, 'non', 180))).to.deep.equal([40000, null]);
      expect(outcome(delay(1501, 'non', 181))).to.deep.equal([40000, null]);
      expect(outcome(delay(3500, 'non', 180))).to.deep.equal([40000, null]);
      expect(outcome(delay(2000, 'oui', 180))).to.deep.equal([40000, null]);
      // Intra-EU over 3 500 km stays in band b: 400 €, and 7 §2 c) does not reach it.
      for (const minutes of [180, 239, 240]) expect(outcome(delay(5000, 'oui', minutes)), `${minutes}`).to.deep.equal([40000, null]);
      for (const minutes of [180, 181, 239, 240, 241, 600])
        for (const [km, eu] of [
          [1000, 'non'],
          [3500, 'non'],
          [5000, 'oui'],
        ] as const)
          expect(delay(km, eu, minutes), `${km} ${eu} ${minutes}`).to.include({ reductionPossible: false, reducedCompensationCents: null });
    });

    it('band c (3 500 km and 3 501 km): 600 € due; the carrier may halve it only while the delay is under 4 h 00 (strict)', () => {
      expect(delay(3500, 'non', 180).band).to.equal('b');
      expect(delay(3501, 'non', 180).band).to.equal('c');
      expect(outcome(delay(3501, 'non', 180))).to.deep.equal([60000, 30000]);
      expect(outcome(delay(3501, 'non', 210))).to.deep.equal([60000, 30000]);
      expect(outcome(delay(3501, 'non', 239))).to.deep.equal([60000, 30000]);
      expect(outcome(delay(3501, 'non', 240))).to.deep.equal([60000, null]);
      expect(outcome(delay(3501, 'non', 241))).to.deep.equal([60000, null]);
      const reducible = delay(6000, 'non', 239);
      expect(reducible.reductionBasis).to.contain('article 7, paragraphe 2, c)').and.contain('Sturgeon, point 63');
      expect(reducible.explanation)
        .to.contain('Indemnité de 600 € due')
        .and.contain("faculté qu'il lui appartient d'invoquer, l'indemnité à réclamer est de 600 €");
      expect(delay(6000, 'non', 240).explanation).to.contain("le retard n'est pas inférieur à quatre heures");
    });

    it('the amount due is never the reduced one: `reduced` stays false, and incident "retard" gives what no incident gave', () => {
      for (const [km, eu, minutes] of [
        [6000, 'non', 200],
        [2000, 'oui', 180],
        [1000, 'oui', 60],
      ] as const) {
        const old = delay(km, eu, minutes);
        expect(old.reduced).to.equal(false);
        expect(compute({ incident: 'retard', distanceKm: km, intraEu: eu, arrivalDelayMinutes: minutes })).to.deep.equal(old);
      }
      expect(delay(6000, 'non', 300).explanation)
        .to.contain('circonstances extraordinaires')
        .and.contain('article 5, paragraphe 3');
    });
  });

  describe('a cancellation or a denied boarding with re-routing (art. 5 §1 c) and 7 §2)', () => {
    /** Denied boarding, re-routing offered arriving `arrival` minutes after the scheduled arrival. */
    const denied = (distanceKm: number, intraEu: 'oui' | 'non', arrival: number) =>
      compute({ incident: 'refus-embarquement', distanceKm, intraEu, reroutingOffered: 'oui', reroutingArrivalDelayMinutes: arrival });
    /** Cancellation outside the 5 §1 c) exceptions (notified under 7 days, re-routing leaving 90 min early). */
    const cancelled = (distanceKm: number, intraEu: 'oui' | 'non', arrival: number) =>
      compute({
        incident: 'annulation',
        distanceKm,
        intraEu,
        cancellationNotice: 'moins-de-7-jours',
        reroutingOffered: 'oui',
        reroutingArrivalDelayMinutes: arrival,
        reroutingDepartureAdvanceMinutes: 90,
      });

    it('no 3-hour minimum; the carrier may halve up to 2 h, 3 h or 4 h by band, bounds included', () => {
      for (const incident of [denied, cancelled]) {
        // Band a: 2 h.
        expect(outcome(incident(1000, 'oui', 60))).to.deep.equal([25000, 12500]);
        expect(outcome(incident(1000, 'oui', 120))).to.deep.equal([25000, 12500]);
        expect(outcome(incident(1000, 'oui', 121))).to.deep.equal([25000, null]);
        // Band b: 3 h, intra-EU or 1 501 to 3 500 km, and intra-EU over 3 500 km.
        for (const [km, eu] of [
          [2000, 'oui'],
          [1501, 'non'],
          [3500, 'non'],
          [5000, 'oui'],
        ] as const) {
          expect(outcome(incident(km, eu, 180)), `${km} ${eu} 180`).to.deep.equal([40000, 20000]);
          expect(outcome(incident(km, eu, 181)), `${km} ${eu} 181`).to.deep.equal([40000, null]);
        }
        expect(outcome(incident(5000, 'oui', 240))).to.deep.equal([40000, null]);
        // Band c: 4 h.
        expect(outcome(incident(3501, 'non', 240))).to.deep.equal([60000, 30000]);
        expect(outcome(incident(3501, 'non', 241))).to.deep.equal([60000, null]);
        // A re-routing arriving before the scheduled time is within every bound.
        expect(outcome(incident(3501, 'non', -30))).to.deep.equal([60000, 30000]);
      }
      expect(denied(1000, 'oui', 120).reductionBasis).to.equal('article 7, paragraphe 2, a)');
      expect(denied(2000, 'oui', 180).reductionBasis).to.equal('article 7, paragraphe 2, b)');
      expect(denied(6000, 'non', 240).reductionBasis).to.equal('article 7, paragraphe 2, c)');
    });

    it('without re-routing offered: the full amount, not reducible', () => {
      expect(outcome(compute({ incident: 'refus-embarquement', distanceKm: 6000, intraEu: 'non', reroutingOffered: 'non' }))).to.deep.equal([60000, null]);
      const cancelled = compute({
        incident: 'annulation',
        distanceKm: 1000,
        intraEu: 'oui',
        cancellationNotice: '7-jours-a-2-semaines',
        reroutingOffered: 'non',
      });
      expect(outcome(cancelled)).to.deep.equal([25000, null]);
      expect(cancelled.explanation).to.contain("aucun réacheminement n'a été proposé");
    });

    it('art. 5 §1 c): notice of two weeks or more removes the right', () => {
      for (const reroutingOffered of ['oui', 'non'])
        expect(
          compute({
            incident: 'annulation',
            distanceKm: 6000,
            intraEu: 'non',
            cancellationNotice: '2-semaines-ou-plus',
            reroutingOffered,
            reroutingArrivalDelayMinutes: 600,
            reroutingDepartureAdvanceMinutes: 0,
          }),
        ).to.include({ compensationCents: 0, reductionPossible: false, exclusion: 'annulation-notifiee-au-moins-deux-semaines-avant' });
    });

    it('art. 5 §1 c) iii): under 7 days, a re-routing leaving at most 1 h early and arriving less than 2 h late removes it', () => {
      const under7 = (early: number, arrival: number, distanceKm = 1000, intraEu = 'oui') =>
        compute({
          incident: 'annulation',
          distanceKm,
          intraEu,
          cancellationNotice: 'moins-de-7-jours',
          reroutingOffered: 'oui',
          reroutingArrivalDelayMinutes: arrival,
          reroutingDepartureAdvanceMinutes: early,
        });
      expect(under7(60, 119)).to.include({ compensationCents: 0, exclusion: 'reacheminement-article-5-1-c-iii' });
      expect(under7(0, -10)).to.include({ compensationCents: 0, exclusion: 'reacheminement-article-5-1-c-iii' });
      // 2 h 00 late is not "less than two hours": due, and reducible under 7 §2 a) ("does not exceed").
      expect(outcome(under7(60, 120))).to.deep.equal([25000, 12500]);
      // Leaving 1 h 01 early: the exception does not apply.
      expect(outcome(under7(61, 119))).to.deep.equal([25000, 12500]);
      // The 2-hour window of (ii) does not serve under 7 days.
      expect(outcome(under7(90, 100, 6000, 'non'))).to.deep.equal([60000, 30000]);
    });

    it('art. 5 §1 c) ii): 7 days to 2 weeks, a re-routing leaving at most 2 h early and arriving less than 4 h late removes it', () => {
      const within = (early: number, arrival: number, distanceKm: number, intraEu: 'oui' | 'non') =>
        compute({
          incident: 'annulation',
          distanceKm,
          intraEu,
          cancellationNotice: '7-jours-a-2-semaines',
          reroutingOffered: 'oui',
          reroutingArrivalDelayMinutes: arrival,
          reroutingDepartureAdvanceMinutes: early,
        });
      expect(within(120, 239, 1000, 'oui')).to.include({ compensationCents: 0, exclusion: 'reacheminement-article-5-1-c-ii' });
      expect(within(120, 239, 6000, 'non')).to.include({ compensationCents: 0, exclusion: 'reacheminement-article-5-1-c-ii' });
      // 4 h 00 late: due; reducible only where 7 §2 reaches 4 h (band c).
      expect(outcome(within(120, 240, 1000, 'oui'))).to.deep.equal([25000, null]);
      expect(outcome(within(120, 240, 2000, 'oui'))).to.deep.equal([40000, null]);
      expect(outcome(within(120, 240, 6000, 'non'))).to.deep.equal([60000, 30000]);
      // Leaving 2 h 01 early: the exception does not apply.
      expect(outcome(within(121, 239, 6000, 'non'))).to.deep.equal([60000, 30000]);
      expect(within(121, 239, 6000, 'non').explanation)
        .to.contain('circonstances extraordinaires')
        .and.contain("l'annulation");
    });

    it('a denied boarding cites article 4 §3 and no extraordinary circumstances (article 5 §3 speaks of cancellations)', () => {
      const text = String(denied(2000, 'oui', 181).explanation);
      expect(text).to.contain("refus d'embarquement").and.contain('article 4, paragraphe 3');
      expect(text).to.not.contain('circonstances extraordinaires');
    });
  });

  describe('the inputs, as POST /v1/calculators/indemnite-retard-avion/compute checks them', () => {
    it('an earlier request (no incident) is a delay, said in defaultsApplied; the result is the full amount', () => {
      const prepared = prepareComputation(SLUG, { distanceKm: 6000, intraEu: 'non', arrivalDelayMinutes: 210 });
      expect(prepared.inputs).to.include({ incident: 'retard' });
      expect(prepared.defaultsApplied).to.have.length(1);
      expect(prepared.defaultsApplied[0]).to.include({ field: 'incident', value: 'retard' });
      expect(prepared.defaultsApplied[0]!.reason).to.match(/^not given \(an input since 2026-11-29\): without incident the calculator computes a delay/);
      expect(compute(prepared.inputs)).to.include({ compensationCents: 60000, reductionPossible: true, reducedCompensationCents: 30000 });
      expect(prepareComputation(SLUG, { incident: 'retard', distanceKm: 6000, intraEu: 'non', arrivalDelayMinutes: 210 }).defaultsApplied).to.deep.equal([]);
    });

    it('asks for what each incident needs (requiredWhen): the delay, the notice, the re-routing', () => {
      const missing = (given: Record<string, string | number>) =>
        (refusalDetails(() => prepareComputation(SLUG, given)) as { missingFields: string[] }).missingFields;
      expect(missing({ incident: 'retard', distanceKm: 1000, intraEu: 'oui' })).to.deep.equal(['arrivalDelayMinutes']);
      expect(missing({ incident: 'annulation', distanceKm: 1000, intraEu: 'oui' })).to.deep.equal(['cancellationNotice', 'reroutingOffered']);
      expect(missing({ incident: 'refus-embarquement', distanceKm: 1000, intraEu: 'oui', reroutingOffered: 'oui' })).to.deep.equal([
        'reroutingArrivalDelayMinutes',
      ]);
      // A cancellation gives no arrivalDelayMinutes; a denied boarding without re-routing needs nothing more.
      expect(
        prepareComputation(SLUG, { incident: 'refus-embarquement', distanceKm: 1000, intraEu: 'oui', reroutingOffered: 'non' }).inputs,
      ).to.not.have.property('arrivalDelayMinutes');
    });

    it('needs how early the re-routing left only where 5 §1 c) ii) or iii) turns on it, and never a negative one', () => {
      const cancellation = { incident: 'annulation', distanceKm: 6000, intraEu: 'non', reroutingOffered: 'oui' };
      const refused = (given: Record<string, string | number>) => refusalDetails(() => prepareComputation(SLUG, { ...cancellation, ...given }));
      expect(refused({ cancellationNotice: '7-jours-a-2-semaines', reroutingArrivalDelayMinutes: 239 })).to.deep.equal([
        {
          field: 'reroutingDepartureAdvanceMinutes',
          message:
            'is required here: the re-routing arrived soon enough for article 5(1)(c) of Regulation 261/2004 to exclude compensation if it left no earlier than it allows',
        },
      ]);
      expect(refused({ cancellationNotice: 'moins-de-7-jours', reroutingArrivalDelayMinutes: 119 })).to.have.length(1);
      // Not decisive: arriving 4 h (2 h) late or more, or notice of two weeks or more.
      for (const given of [
        { cancellationNotice: '7-jours-a-2-semaines', reroutingArrivalDelayMinutes: 240 },
        { cancellationNotice: 'moins-de-7-jours', reroutingArrivalDelayMinutes: 120 },
        { cancellationNotice: '2-semaines-ou-plus', reroutingArrivalDelayMinutes: 30 },
      ])
        expect(prepareComputation(SLUG, { ...cancellation, ...given }).inputs).to.include(given);
      expect(
        refused({ cancellationNotice: 'moins-de-7-jours', reroutingArrivalDelayMinutes: 300, reroutingDepartureAdvanceMinutes: -5 }) as { field: string }[],
      ).to.deep.equal([
        { field: 'reroutingDepartureAdvanceMinutes', message: 'must not be negative (0 when the re-routing left at or after the scheduled departure)' },
      ]);
    });

    it('the catalogue refuses a requiredWhen that names no option of the calculator', () => {
      const data = structuredClone(loadCatalogueData());
      const input = data.calculators.find((c) => c.slug === SLUG)!.inputs.find((i) => i.name === 'cancellationNotice')!;
      input.requiredWhen = { field: 'incident', values: ['annulee'] };
      expect(catalogueProblems(data)).to.deep.equal([`calculator ${SLUG}: input cancellationNotice names incident=annulee, which is not one of its options`]);
      input.requiredWhen = { field: 'distanceKm', values: ['1'] };
      expect(catalogueProblems(data)).to.deep.equal([
        `calculator ${SLUG}: input cancellationNotice depends on distanceKm, which is not an enum input of the calculator`,
      ]);
    });
  });

  describe('the catalogue entry', () => {
    const data = loadCatalogueData();
    const entry = data.calculators.find((c) => c.slug === SLUG)!;

    it('every worked example holds (as the e2e check of examples does)', () => {
      expect(entry.examples!.length).to.be.greaterThan(6);
      for (const example of entry.examples!) {
        const expected = { ...(example.expected as Record<string, unknown>) };
        if (typeof expected.compensationEur === 'number') expected.compensationCents = expected.compensationEur * 100;
        const result = compute(example.inputs as Inputs);
        const compared = Object.keys(expected).filter((k) => k in result);
        expect(compared, JSON.stringify(example.inputs)).to.include('compensationCents');
        for (const key of compared) expect(result[key], `${JSON.stringify(example.inputs)} ${key}`).to.deep.equal(expected[key]);
      }
    });

    it('states the delay rule as Sturgeon does ("inférieur à quatre heures"), the re-routing one as article 7 §2 does', () => {
      expect(entry.summary)
        .to.contain("d'au moins trois heures mais inférieur à quatre heures")
        .and.contain('le transporteur peut la réduire de moitié (300 €)');
      expect(entry.summary).to.not.match(/n'exc[èe]d/);
      expect(entry.summary).to.contain('au plus deux, trois ou quatre heures');
      expect(entry.source.join(' ')).to.contain('dont le retard est inférieur à quatre heures');
      expect(entry.source.join(' ')).to.not.match(/n'exc[èe]d/);
    });

    it('its sources stay unverified (nothing was read on EUR-Lex or curia), and their notes say what was read where', () => {
      expect(entry.sources.map((s) => s.article)).to.deep.equal(['7', '5', 'points 61 et 63', '—']);
      for (const s of [...entry.sources, ...catalogueLetter(LETTER).sources]) {
        expect(s.status, s.text).to.equal('unverified');
        expect(s).to.not.have.property('checkedOn');
        expect(s.note, s.text).to.match(/^(Non relu sur|Confirme Sturgeon)/);
        expect(s.note, s.text).to.match(/non officielle/);
      }
    });
  });

  describe('the letter indemnisation-retard-annulation-vol', () => {
    const render = (given: Record<string, string>) => renderChecked(LETTER, { ...LETTER_VALUES, ...given }, NOW).text;

    it('offers the full amounts only (250, 400, 600) and claims the one chosen in full', () => {
      const field = catalogueLetter(LETTER).fields.find((f) => f.name === 'compensationAmount')!;
      expect(field.options!.map((o) => o.value)).to.deep.equal(['250', '400', '600']);
      expect(field.help)
        .to.contain("La lettre réclame l'indemnité entière")
        .and.not.match(/\b(200|300) euros/);
      for (const amount of ['250', '400', '600']) {
        const text = render({ compensationAmount: amount });
        expect(text).to.contain(`je vous demande le versement de l'indemnité forfaitaire de ${amount} euros`);
        expect(text).to.contain('Ce montant est dû en totalité.');
      }
    });

    it('says the carrier may reduce it only in the cases of article 7 §2, and claims no reduced amount', () => {
      for (const incidentType of ['retard', 'annulation', 'refus-embarquement']) {
        const text = render({ incidentType });
        expect(text).to.contain(
          "Le transporteur ne peut le réduire de 50 % que dans les cas prévus à l'article 7, paragraphe 2, du règlement : en cas de réacheminement, lorsque l'heure d'arrivée du vol de remplacement ne dépasse pas de plus de deux, trois ou quatre heures, selon la distance, l'heure d'arrivée prévue du vol initialement réservé ; en cas de retard, pour un vol de plus de 3 500 kilomètres autre qu'un vol intracommunautaire, lorsque le retard à l'arrivée est inférieur à quatre heures (arrêt Sturgeon précité, point 63).",
        );
        expect(text).to.not.contain('réduite de moitié');
        expect(text).to.not.match(/n'exc[èe]d/);
        expect(text).to.not.match(/\b(200|300) euros/);
        // The extraordinary-circumstances sentence stays (article 5 §3: the carrier proves them).
        expect(text).to.contain(
          "Cette indemnisation n'est exclue que si le transporteur prouve que l'incident est dû à des circonstances extraordinaires qui n'auraient pas pu être évitées même si toutes les mesures raisonnables avaient été prises.",
        );
      }
    });

    it('does not overstate the right after a cancellation: notice of two weeks, and the re-routing of article 5 §1 c)', () => {
      const text = render({ incidentType: 'annulation' });
      expect(text).to.contain(
        "Ce vol a fait l'objet d'une annulation qui ne m'a pas été notifiée au moins deux semaines avant l'heure de départ prévue, sans que me soit proposé un réacheminement dans les conditions qui, selon l'article 5, paragraphe 1, c), du règlement (CE) n° 261/2004, excluent l'indemnisation.",
      );
      expect(text).to.not.contain('quatorze jours');
    });

    it('an earlier request with 300 or 200 (retired) claims the full 600 or 400, with a value_retired warning', () => {
      for (const [old, full] of [
        ['300', '600'],
        ['200', '400'],
      ]) {
        const { fields, warnings } = upgradeLetterFields(LETTER, { ...LETTER_VALUES, compensationAmount: old }, 'letter.fields.');
        expect(fields).to.deep.equal({ ...LETTER_VALUES, compensationAmount: full });
        expect(warnings).to.have.length(1);
        expect(warnings[0]).to.include({ code: 'value_retired', field: 'letter.fields.compensationAmount' });
        expect(warnings[0]!.message).to.match(
          new RegExp(`^compensationAmount "${old}" is no longer offered \\(since 2026-11-29\\): the letter claims the full amount`),
        );
        expect(warnings[0]!.message).to.contain(`It was read as "${full}"; send "${full}" instead.`);
        expect(renderChecked(LETTER, fields as Record<string, string>, NOW).text).to.contain(`l'indemnité forfaitaire de ${full} euros`);
      }
      // A current value is left alone, without a warning.
      expect(upgradeLetterFields(LETTER, LETTER_VALUES)).to.deep.equal({ fields: LETTER_VALUES, warnings: [] });
      // Without the translation, the retired value is no option any more (the 422 would name the field).
      const { problems } = checkValues(letterFields(catalogueLetter(LETTER)), { compensationAmount: '300' });
      expect(problems.map((p) => p.field)).to.deep.equal(['compensationAmount']);
    });
  });
});
