import { expect } from 'chai';
import { catalogue, letterFields, sourceVerified } from '../../domain/catalogue/catalogue.js';
import { compatibilityProblems, upgradeLetterFields } from '../../domain/catalogue/compatibility.js';
import { renderLetter } from '../../domain/letters/render.js';
import { checkValues, type FieldValue } from '../../domain/letters/values.js';
import { catalogueLetter, RECIPIENT_VALUES, renderChecked, SENDER_VALUES } from '../support/catalogue-letters.js';

const NOW = new Date('2026-11-29T10:00:00Z');
const render = (slug: string, given: Record<string, FieldValue>): string => renderChecked(slug, given, NOW).text;

/** What a request of the catalogue of today, or of an earlier one, prints: upgraded as the API does, then rendered. */
function renderUpgraded(slug: string, given: Record<string, FieldValue>) {
  const upgraded = upgradeLetterFields(slug, given);
  return { text: render(slug, upgraded.fields as Record<string, FieldValue>), fields: upgraded.fields, warnings: upgraded.warnings };
}

const BIRTH = 'information-conge-supplementaire-naissance';
const QUINZE = 'la présente information vous parvient donc au moins quinze jours avant son début.';
const UN_MOIS = '; la présente information vous parvient au moins un mois avant son début.';
const base = { childEvent: 'naissance', childEventDate: '2026-09-14', leaveDuration: '1-mois', leaveStartDate: '2026-12-01' };

describe('catalogue law, issue 51: the birth leave and the other Code du travail letters read in the LEGI data', () => {
  describe('congé supplémentaire de naissance (defect 2)', () => {
    it('the shorter notice only right after a paternity or adoption leave, never after a maternity leave', () => {
      const cases: [string, string, string][] = [
        ['maternite', 'mon congé de maternité', UN_MOIS],
        ['paternite-immediat', "mon congé de paternité et d'accueil de l'enfant, dont il prendra immédiatement la suite :", QUINZE],
        ['paternite', "mon congé de paternité et d'accueil de l'enfant", UN_MOIS],
        ['adoption-immediat', "mon congé d'adoption, dont il prendra immédiatement la suite :", QUINZE],
        ['adoption', "mon congé d'adoption", UN_MOIS],
      ];
      for (const [previousLeave, label, notice] of cases) {
        const text = render(BIRTH, { ...base, previousLeave });
        expect(text, previousLeave).to.include(`Ce congé fait suite à ${label} ${notice}`);
        expect(text, previousLeave).not.to.include(notice === QUINZE ? 'au moins un mois' : 'quinze jours');
      }
      expect(render(BIRTH, { ...base, previousLeave: 'maternite' })).to.include(
        'Ce congé fait suite à mon congé de maternité ; la présente information vous parvient au moins un mois avant son début.',
      );
      // No option says "right after" a maternity leave, and the old second field is gone.
      const l = catalogueLetter(BIRTH);
      expect(l.fields.find((f) => f.name === 'previousLeave')!.options!.map((o) => o.value)).to.deep.equal([
        'maternite',
        'paternite-immediat',
        'paternite',
        'adoption-immediat',
        'adoption',
      ]);
      expect(l.fields.map((f) => f.name)).not.to.include('succession');
    });

    it('the children concerned: born or adopted from 1 January 2026, or born before and expected from then', () => {
      expect(render(BIRTH, { ...base, previousLeave: 'paternite' })).to.include(
        'À la suite de la naissance de mon enfant le 14 septembre 2026, je vous informe',
      );
      expect(render(BIRTH, { ...base, childEvent: 'adoption', childEventDate: '2026-02-02', previousLeave: 'adoption' })).to.include(
        "À la suite de l'arrivée à mon foyer de mon enfant adopté le 2 février 2026, je vous informe",
      );
      const early = render(BIRTH, {
        ...base,
        childEvent: 'naissance-anticipee',
        childEventDate: '2025-12-20',
        expectedBirthDate: '2026-01-10',
        previousLeave: 'maternite',
      });
      expect(early).to.include(
        'À la suite de la naissance anticipée de mon enfant le 20 décembre 2025 (naissance initialement prévue le 10 janvier 2026), je vous informe',
      );
      expect(render(BIRTH, { ...base, previousLeave: 'paternite', expectedBirthDate: '2026-10-01' })).not.to.include('initialement prévue');
      // The expected date is required for an early birth only.
      const l = catalogueLetter(BIRTH);
      const { values } = checkValues(letterFields(l), {
        ...SENDER_VALUES,
        ...RECIPIENT_VALUES,
        ...base,
        previousLeave: 'maternite',
        childEvent: 'naissance-anticipee',
      });
      expect(renderLetter(l, undefined, values, NOW).missingFields).to.deep.equal(['expectedBirthDate']);
      expect(renderLetter(l, undefined, { ...values, childEvent: 'naissance' }, NOW).missingFields).to.deep.equal([]);
      // The help says which children, after the law's article 99, X (read in DILA's note).
      const help = l.fields.find((f) => f.name === 'childEventDate')!.help!;
      expect(help).to.include('enfants nés ou adoptés à compter du 1er janvier 2026');
      expect(help).to.include('enfants nés avant cette date dont la naissance était prévue à compter de cette date');
    });

    it('the earlier leave used up, the contract suspended (no salary), the CPAM daily allowance', () => {
      const text = render(BIRTH, { ...base, previousLeave: 'paternite' });
      expect(text).to.include("J'aurai alors épuisé mon droit à ce précédent congé, condition posée par l'article L1225-46-2 du Code du travail.");
      expect(text).to.include(
        "Ce congé, d'une durée d'un ou de deux mois, le cas échéant fractionné en deux périodes d'un mois, m'est ouvert par l'article L1225-46-2 du Code du travail ; il entraîne la suspension de mon contrat de travail.",
      );
      expect(text).to.include('Vous ne me verserez donc pas de salaire pendant sa durée');
      expect(text).to.include(
        "je percevrai de ma caisse primaire d'assurance maladie, dans les conditions prévues à l'article L331-8-1 du Code de la sécurité sociale, une indemnité journalière.",
      );
      expect(text).not.to.include('fractionnée');
    });

    it('the time limit and 1 July 2026 only as what the Assurance maladie states; summary, legal basis and sources', () => {
      const l = catalogueLetter(BIRTH);
      expect(l.summary).not.to.include('applicable depuis le 1er juillet 2026');
      expect(l.summary).to.include(
        "Selon l'Assurance maladie, ce délai est d'un mois, ou de quinze jours dans ce cas, et le congé peut être pris depuis le 1er juillet 2026",
      );
      expect(l.summary).to.include('La loi fixe le délai de prévenance entre quinze jours et un mois');
      expect(l.summary).to.include('jamais un congé de maternité');
      expect(l.summary).to.include("la caisse primaire d'assurance maladie verse une indemnité journalière (article L331-8-1 du Code de la sécurité sociale)");
      const start = l.fields.find((f) => f.name === 'leaveStartDate')!.help!;
      expect(start).to.match(/^Selon l'Assurance maladie, le congé peut être pris depuis le 1er juillet 2026/);
      expect(start).to.include("jusqu'au 31 mars 2027");
      // Nowhere outside "selon l'Assurance maladie" are the decree's figures given as the law's.
      const previous = l.fields.find((f) => f.name === 'previousLeave')!.help!;
      expect(previous).to.include("Selon l'Assurance maladie, il est d'un mois, ou de quinze jours dans ce cas.");
      expect(previous).not.to.match(/^Le délai de prévenance est d'un mois/);
      expect(l.legalBasis).to.deep.equal([
        'Code du travail, articles L1225-46-2 à L1225-46-7',
        'Code de la sécurité sociale, article L331-8-1',
        'Loi n° 2025-1403 du 30 décembre 2025 de financement de la sécurité sociale pour 2026, article 99',
      ]);
      const [travail, css, law] = l.sources;
      expect(travail).to.include({ article: 'L1225-46-2', legiarti: 'LEGIARTI000053271696', checkedOn: '2026-11-29' });
      expect(travail!.quote).to.include(
        "qui peut être réduit lorsque le congé est pris immédiatement après le congé de paternité et d'accueil de l'enfant ou le congé d'adoption",
      );
      expect(css).to.include({ text: 'Code de la sécurité sociale', article: 'L331-8-1', legiarti: 'LEGIARTI000053270151', checkedOn: '2026-11-29' });
      expect(law).to.include({ article: '99', status: 'unverified' });
      expect(law!.note).to.include('décret non lu');
    });

    it('an earlier request (previousLeave and succession) still works: paternity or adoption right before keeps the shorter notice, maternity now gets one month', () => {
      const old = { ...base, succession: 'immediate' };
      const paternity = renderUpgraded(BIRTH, { ...old, previousLeave: 'paternite' });
      expect(paternity.fields).to.include({ previousLeave: 'paternite-immediat' }).and.not.to.have.property('succession');
      expect(paternity.text).to.include(QUINZE);
      expect(paternity.warnings).to.have.length(1);
      expect(paternity.warnings[0]).to.include({ code: 'field_renamed', field: 'succession' });
      expect(paternity.warnings[0]!.message).to.include('previousLeave "paternite" with succession "immediate" was read as previousLeave "paternite-immediat"');
      expect(renderUpgraded(BIRTH, { ...old, previousLeave: 'adoption' }).fields).to.include({ previousLeave: 'adoption-immediat' });
      // Right after a maternity leave the law allows no shorter notice: the letter now says one month.
      const maternity = renderUpgraded(BIRTH, { ...old, previousLeave: 'maternite' });
      expect(maternity.fields).to.include({ previousLeave: 'maternite' });
      expect(maternity.text).to.include(UN_MOIS);
      expect(maternity.text).not.to.include('quinze jours');
      expect(maternity.warnings[0]!.message).to.include('L1225-46-2').and.to.include('was read as previousLeave "maternite"');
      // A later start keeps the leave given, with one month.
      for (const previousLeave of ['maternite', 'paternite', 'adoption']) {
        const later = renderUpgraded(BIRTH, { ...base, previousLeave, succession: 'differee' });
        expect(later.fields, previousLeave).to.include({ previousLeave });
        expect(later.text, previousLeave).to.include(UN_MOIS);
      }
      // The new values win over the old field; the old field alone is dropped (previousLeave is then missing, as before).
      expect(upgradeLetterFields(BIRTH, { previousLeave: 'paternite-immediat', succession: 'differee' }).fields).to.deep.equal({
        previousLeave: 'paternite-immediat',
      });
      const alone = upgradeLetterFields(BIRTH, { succession: 'immediate' });
      expect(alone.fields).to.deep.equal({});
      expect(alone.warnings[0]!.message).to.match(/^succession is now part of previousLeave \(since 2026-11-29\): .*Send previousLeave instead\.$/);
      // A request of today is left as it is.
      expect(upgradeLetterFields(BIRTH, { previousLeave: 'adoption' })).to.deep.equal({ fields: { previousLeave: 'adoption' }, warnings: [] });
      expect(compatibilityProblems(catalogue().data)).to.deep.equal([]);
    });
  });

  describe('other sources read in the LEGI data', () => {
    it("parental leave: one year's seniority, as L1225-47 says since 2023 (no reference date)", () => {
      const text = render('demande-conge-parental', {
        childEvent: 'naissance',
        childEventDate: '2026-01-12',
        leaveType: 'temps-plein',
        leaveStartDate: '2026-05-04',
        leaveDurationMonths: 12,
      });
      expect(text).to.include("Tout salarié justifiant d'une ancienneté minimale d'une année a droit à ce congé (article L1225-47 du Code du travail).");
      expect(text).not.to.include('à la date de la naissance');
      expect(text).not.to.include("dans l'entreprise à la date");
      const sources = catalogueLetter('demande-conge-parental').sources;
      expect(sources.map((s) => s.article)).to.deep.equal(['L1225-47', 'L1225-48', 'L1225-50']);
      expect(sources.every(sourceVerified)).to.equal(true);
      expect(sources[0]).to.include({ legiarti: 'LEGIARTI000047293352', quote: "tout salarié justifiant d'une ancienneté minimale d'une année a le droit" });
    });

    it('overtime: L3121-36 at its own address (not an old version of L3121-37)', () => {
      const source = catalogueLetter('reclamation-heures-supplementaires').sources.find((s) => s.article === 'L3121-36')!;
      expect(source).to.include({
        url: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000033020341',
        legiarti: 'LEGIARTI000033020341',
        checkedOn: '2026-11-29',
      });
    });

    it('health insurance: the one-year rule is CSS L932-21-2 (L932-12-2 only says how notice is given)', () => {
      const l = catalogueLetter('resiliation-mutuelle-sante');
      const ground = l.fields.find((f) => f.name === 'terminationGround')!.options!.find((o) => o.value === 'infra-annuelle')!;
      expect(ground.label).to.include("de l'article L932-21-2 du Code de la sécurité sociale").and.not.to.include('L932-12-2');
      expect(l.legalBasis).to.include('Code de la sécurité sociale, articles L932-21-2 et L932-21-3');
      expect(l.sources.map((s) => s.article))
        .to.include.members(['L932-21-2', 'L932-21-3'])
        .and.not.to.include('L932-12-2');
    });

    it('administrative documents: silence is a refusal under R*311-12, the month is R311-13', () => {
      const text = render('demande-communication-documents-administratifs', {
        documentDescription: 'Le plan local d’urbanisme.',
        deliveryMode: 'consultation',
      });
      expect(text).to.include('vaudrait décision de refus (articles R*311-12 et R311-13 du même code)');
      const refusal = catalogueLetter('demande-communication-documents-administratifs').sources.find((s) => s.article === 'R*311-12')!;
      expect(refusal).to.include({ legiarti: 'LEGIARTI000031370407', checkedOn: '2026-11-29' });
    });

    it('severance pay: the rules no article states have their own unverified source; L1234-9 is not credited with them', () => {
      const tool = catalogue().calculators.get('indemnite-licenciement')!;
      expect(tool.source[0]).to.equal("Code du travail, article L1234-9 (droit à indemnité à partir de 8 mois d'ancienneté ininterrompus)");
      expect(tool.source.some((s) => s.startsWith('Jurisprudence de la Cour de cassation, non relue'))).to.equal(true);
      const own = tool.sources.find((s) => s.url === 'https://www.service-public.fr/particuliers/vosdroits/F987')!;
      expect(own).to.include({ status: 'unverified' });
      expect(own.note).to.include("date d'envoi de la lettre de licenciement").and.to.include('fin du préavis');
      expect(sourceVerified(tool.sources.find((s) => s.article === 'L1234-9')!)).to.equal(true);
    });

    it('social security appeal: R142-1 says two months, but stays unverified (L142-1 changed on 2026-11-01, after the data)', () => {
      const source = catalogueLetter('recours-amiable-securite-sociale').sources[0]!;
      expect(source).to.include({ article: 'R142-1', status: 'unverified', legiarti: 'LEGIARTI000037595656' });
      expect(source.note).to.include('1er novembre 2026');
    });
  });
});
