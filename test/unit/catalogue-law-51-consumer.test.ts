import { expect } from 'chai';
import {
  catalogueProblems,
  lawDrivenLettersWithoutVerifiedSource,
  letterFields,
  loadCatalogueData,
  sourceVerified,
  type LegalSource,
} from '../../domain/catalogue/catalogue.js';
import { explainMissing, newlyRequired, upgradeLetterFields } from '../../domain/catalogue/compatibility.js';
import { acceptFilled, fillTarget } from '../../domain/ai/fill.js';
import { renderLetter } from '../../domain/letters/render.js';
import { prepareLetter } from '../../domain/mailings/letter.js';
import type { AddressedMailingRequest } from '../../domain/mailings/request.js';
import { checkValues, requireValidLetterValues, type FieldValue } from '../../domain/letters/values.js';
import { catalogueLetter, RECIPIENT_VALUES, refusalDetails, renderChecked, SENDER_VALUES } from '../support/catalogue-letters.js';
import { recipient, sender } from '../support/fixtures.js';

const NOW = new Date('2026-11-29T10:00:00Z');
const letter = catalogueLetter;
const render = (slug: string, given: Record<string, FieldValue>, providerSlug?: string) => renderChecked(slug, given, NOW, providerSlug);
/** A letter's source for this article. */
const source = (slug: string, article: string): LegalSource => letter(slug).sources.find((s) => s.article === article)!;

/** A POST /v1/mailings of a catalogue letter, as the API has validated it. */
const mailing = (slug: string, fields: Record<string, string | number>): AddressedMailingRequest => ({
  mode: 'simple',
  letter: { slug, fields },
  sender: { ...sender, country: 'FR' },
  recipient: { ...recipient, country: 'FR' },
  options: { color: false, duplex: false, emailCopy: false },
});

/** The 422 that `fn` throws: its message and details. */
function refusal(fn: () => unknown): { message: string; details: unknown } {
  try {
    fn();
  } catch (error) {
    return { message: (error as Error).message, details: (error as { details?: unknown }).details };
  }
  throw new Error('expected a 422');
}

/** The letters issue 51 (defects 3 to 8) corrected from the law. */
const CORRECTED = [
  'indemnisation-retard-train',
  'demande-travaux-bailleur',
  'conge-locataire-preavis',
  'contestation-facture-telecom',
  'requete-exoneration-amende',
  'retractation-achat-distance',
];

describe('catalogue law (issue 51): tenant and consumer letters', () => {
  describe('3. train: the EU minimum of article 19 as it is, no G30 deadline nobody read', () => {
    const values = {
      trainNumber: '6611',
      travelDate: '2026-11-02',
      departureStation: 'Paris Gare de Lyon',
      arrivalStation: 'Lyon Part-Dieu',
      bookingReference: 'ABCDEF',
      ticketPriceCents: 8000,
    };

    it('G30 under 60 minutes: money within a month is asked only for a delay of 60 minutes or more; no deadline is certified', () => {
      const g30 = render('indemnisation-retard-train', { ...values, arrivalDelayMinutes: 45, claimBasis: 'g30' }, 'sncf-voyageurs').text;
      expect(g30).to.include(
        "Si ce retard atteint au moins 60 minutes, cette compensation ne saurait être inférieure au minimum prévu par l'article 19 du règlement (UE) 2021/782 : je vous demande alors, conformément à ce même article, de me la verser en argent, dans le délai d'un mois suivant la présentation de ma demande.",
      );
      expect(g30).not.to.include('en numéraire');
      expect(g30).not.to.match(/soixante jours|60 jours|90 jours/);
      expect(g30).to.include('Je joins une copie de mon titre de transport.');
    });

    it('EU minimum: 25 % or 50 %, paid in money within a month of the request', () => {
      const eu = render('indemnisation-retard-train', { ...values, arrivalDelayMinutes: 95, claimBasis: 'minimum-ue' }).text;
      expect(eu).to.include("25 % du prix du billet pour un retard à l'arrivée de 60 à 119 minutes et 50 % à partir de 120 minutes");
      expect(eu).to.include(
        "Conformément à ce même article 19, je vous demande de me la verser en argent, dans le délai d'un mois suivant la présentation de ma demande.",
      );
      expect(eu).not.to.include('Si ce retard atteint au moins 60 minutes');
    });

    it('summary and help state the rights of article 19 and leave the G30 deadline to SNCF, with no figure', () => {
      const l = letter('indemnisation-retard-train');
      expect(l.summary).to.include(
        "25 % du prix du billet de 60 à 119 minutes, 50 % à partir de 120 minutes, versés dans le délai d'un mois suivant la demande, et en argent si vous le demandez",
      );
      expect(l.summary).to.include("en dessous de 60 minutes de retard, seule la G30 s'applique");
      const help = l.fields.find((f) => f.name === 'claimBasis')!.help!;
      expect(help).to.include("En dessous de 60 minutes, ce minimum ne s'applique pas.");
      expect(help).to.include('envoyez la demande sans attendre');
      // No claim deadline anywhere a client reads (the 2016 page's own words stay quoted in its source note).
      expect(`${l.summary}\n${JSON.stringify(l.fields)}\n${l.body}`).not.to.match(/soixante jours|\d+ jours/);
    });

    it('the 2016 service-public page is no longer a verified read of the G30 terms; the address taken from it says so', () => {
      const l = letter('indemnisation-retard-train');
      const page = l.sources.find((s) => s.url.endsWith('/A11166'))!;
      expect(page).to.include({ status: 'unverified' }).and.not.to.have.property('checkedOn');
      expect(page.note).to.include('Actualité de 2016');
      expect(sourceVerified(source('indemnisation-retard-train', '19'))).to.equal(false);
      const sncf = l.providers.find((p) => p.slug === 'sncf-voyageurs')!;
      expect(sncf.address.lines).to.deep.equal(['Service G30 SNCF', 'CS 69150']);
      expect(sncf.addressSource).to.include({ url: 'https://www.service-public.fr/particuliers/actualites/A11166', reliability: 'medium' });
      expect(sncf.addressSource.description).to.include(
        "C'est la page même de la source G30 de la lettre, qui n'est pas une lecture des conditions G30 en vigueur.",
      );
      // An earlier request without claimBasis still claims the EU minimum.
      expect(upgradeLetterFields('indemnisation-retard-train', {}).fields).to.deep.equal({ claimBasis: 'minimum-ue' });
    });
  });

  describe('4. repairs: the G paragraph only for a lease signed or renewed since 1 January 2025', () => {
    const slug = 'demande-travaux-bailleur';
    const values = {
      rentedAddress: '3 rue Neuve, 69001 Lyon',
      issueNoticedDate: '2026-11-02',
      issueDescription: 'Le chauffage ne fonctionne plus.',
      deadlineDays: 15,
    };

    it('a lease of 2025 or later: the home is not decent, the works must reach class F', () => {
      const text = render(slug, { ...values, energyClassG: 'oui', leaseEnergyDate: 'depuis-2025-01-01' }).text;
      expect(text).to.include(
        "Or, mon bail ayant été signé, renouvelé ou tacitement reconduit depuis le 1er janvier 2025, le logement doit, pour être décent, atteindre au moins la classe F, niveau de performance minimal exigé en France métropolitaine par l'article 6 de la loi du 6 juillet 1989 et par l'article 3 bis du décret n° 2002-120 du 30 janvier 2002",
      );
      expect(text).to.include("Les travaux nécessaires doivent donc également permettre d'atteindre ce niveau.");
      expect(text).not.to.include('à la prochaine échéance de mon bail');
    });

    it('an older lease never renewed since: a softer paragraph that claims no non-decency', () => {
      const text = render(slug, { ...values, energyClassG: 'oui', leaseEnergyDate: 'avant-2025-01-01' }).text;
      expect(text).to.include(
        'ce niveau sera donc exigé au plus tard à la prochaine échéance de mon bail, et je vous invite à en tenir compte dans les travaux à venir.',
      );
      expect(text).not.to.include('mon bail ayant été signé');
      expect(text).not.to.include('doivent donc également permettre');
    });

    it('the summary and help say which leases, and overseas from 2028', () => {
      const l = letter(slug);
      expect(l.summary).to.include("n'est plus décent pour un bail signé, renouvelé ou tacitement reconduit depuis cette date");
      expect(l.summary).to.include('à compter du 1er janvier 2028');
      const g = l.fields.find((f) => f.name === 'energyClassG')!;
      expect(g.help).to.include("la classe F ne sera exigée qu'à compter du 1er janvier 2028");
      const date = l.fields.find((f) => f.name === 'leaseEnergyDate')!;
      expect(date).to.deep.include({ type: 'enum', required: false, requiredWhen: { field: 'energyClassG', values: ['oui'] } });
      expect(date.options!.map((o) => o.value)).to.deep.equal(['depuis-2025-01-01', 'avant-2025-01-01']);
    });

    it('an earlier request with energyClassG alone: the lease date is missing, newly required, and no G paragraph is printed', () => {
      const { values: checked } = checkValues(letterFields(letter(slug)), { ...SENDER_VALUES, ...RECIPIENT_VALUES, ...values, energyClassG: 'oui' });
      const rendered = renderLetter(letter(slug), undefined, checked, NOW);
      expect(rendered.missingFields).to.deep.equal(['leaseEnergyDate']);
      expect(rendered.text).not.to.include('classe le logement en G');
      expect(explainMissing('letters', slug, rendered.missingFields)).to.match(/^leaseEnergyDate \(required since 2026-11-29: a G-rated home fails/);
      expect(newlyRequired('letters', slug, rendered.missingFields)).to.have.length(1);
      // A mailing of that earlier request is refused, saying since when and why.
      const refused = refusal(() => prepareLetter(mailing(slug, { ...values, energyClassG: 'oui' })));
      expect(refused.message).to.match(/^The letter needs leaseEnergyDate \(required since 2026-11-29: /);
      expect(refused.details).to.deep.include({ missingFields: ['leaseEnergyDate'] });
      // Without energyClassG nothing changes: no field is missing, no G paragraph.
      const plain = render(slug, values);
      expect(plain.missingFields).to.deep.equal([]);
      expect(plain.text).not.to.include('classe F');
    });

    it('the lease date without energyClassG=oui is refused (422 naming it and why), as /render, pdf and mailings check', () => {
      const given = { ...SENDER_VALUES, ...RECIPIENT_VALUES, ...values, leaseEnergyDate: 'depuis-2025-01-01' };
      const details = refusalDetails(() => requireValidLetterValues(letter(slug), undefined, given)) as { field: string; message: string }[];
      expect(details).to.have.length(1);
      expect(details[0]!.field).to.equal('leaseEnergyDate');
      expect(details[0]!.message).to.include('may be given only when energyClassG is oui: its paragraphs state that the home is rated G');
      expect(requireValidLetterValues(letter(slug), undefined, { ...given, energyClassG: 'oui' })).to.include({ leaseEnergyDate: 'depuis-2025-01-01' });
      // A mailing is refused the same way, before anything is charged.
      const refused = refusal(() => prepareLetter(mailing(slug, { ...values, leaseEnergyDate: 'depuis-2025-01-01' })));
      expect(refused.message).to.equal('1 field value is invalid: leaseEnergyDate.');
      expect(refused.details).to.deep.equal(details);
      expect(prepareLetter(mailing(slug, { ...values, energyClassG: 'oui', leaseEnergyDate: 'depuis-2025-01-01' })).document.text).to.include(
        'mon bail ayant été signé',
      );
      // The AI fill drops it the same way, and says so.
      const filled = acceptFilled(fillTarget(slug, undefined), { values: { ...values, leaseEnergyDate: 'avant-2025-01-01' } });
      expect(filled.values).not.to.have.property('leaseEnergyDate');
      expect(filled.rejected.map((r) => r.field)).to.deep.equal(['leaseEnergyDate']);
    });

    it('the start-up checks refuse an onlyWhen on a field the letter lacks, or on a value that is no option', () => {
      const data = structuredClone(loadCatalogueData());
      const l = data.letters.find((x) => x.slug === slug)!;
      l.onlyWhen = [
        { field: 'nope', when: { field: 'energyClassG', values: ['oui'] }, why: 'a reason long enough to pass' },
        { field: 'leaseEnergyDate', when: { field: 'energyClassG', values: ['non'] }, why: 'a reason long enough to pass' },
      ];
      const problems = catalogueProblems(data);
      expect(problems).to.include(`letter ${slug}: onlyWhen names nope, which is not a field of the letter`);
      expect(problems).to.include(`letter ${slug}: onlyWhen of leaseEnergyDate names energyClassG=non, which is not one of its options`);
    });
  });

  describe('5. notice to leave: one month for a tenant victim of domestic violence (art. 15 I 3° bis)', () => {
    const slug = 'conge-locataire-preavis';
    const values = { rentedAddress: '3 rue Neuve, 69001 Lyon', departureDate: '2026-12-31', newAddress: '8 place Bellecour, 69002 Lyon' };
    const proof =
      "Conformément au I de l'article 15 de la même loi, je précise ci-dessus le motif de ce délai réduit et joins au présent courrier le justificatif correspondant.";

    it("the new reason is stated in the statute's terms, with the proof sentence", () => {
      const text = render(slug, { ...values, noticeReason: '1-mois-violences' }).text;
      expect(text).to.include(
        "Le délai de préavis applicable est d'un mois, en application du 3° bis du I de l'article 15 de la loi, en tant que locataire bénéficiaire d'une ordonnance de protection ou dont le conjoint, partenaire lié par un pacte civil de solidarité ou concubin fait l'objet de poursuites, d'une procédure alternative aux poursuites ou d'une condamnation, même non définitive, en raison de violences exercées au sein du couple ou sur un enfant qui réside habituellement avec moi.",
      );
      expect(text).to.include(proof);
      expect(text).to.include("conformément à l'article 15 de la loi n° 89-462 du 6 juillet 1989");
    });

    it('the proof sentence is printed exactly when the notice is reduced (not for three months, nor for a furnished flat)', () => {
      for (const { value } of letter(slug).fields.find((f) => f.name === 'noticeReason')!.options!) {
        const text = render(slug, { ...values, noticeReason: value }).text;
        const reduced = value !== '3-mois' && value !== '1-mois-meuble';
        expect(text.includes(proof), value).to.equal(reduced);
        expect(text, value).not.to.include('en raison de ma situation personnelle, le justificatif');
      }
    });

    it('the help names the proofs accepted, no 6-month rule, and the victim may give a correspondence address', () => {
      const l = letter(slug);
      const help = l.fields.find((f) => f.name === 'noticeReason')!.help!;
      expect(help)
        .to.include("la copie de l'ordonnance de protection")
        .and.to.include('avis à victime')
        .and.to.include('Un simple dépôt de plainte ne suffit pas.');
      expect(help).to.include('envoyé plus tard, il ne réduit plus le préavis');
      expect(help).not.to.match(/6 mois|six mois/);
      expect(l.fields.find((f) => f.name === 'newAddress')!.help).to.include('adresse de correspondance');
      expect(l.summary).to.include('violences conjugales avec ordonnance de protection ou poursuites');
      expect(l.keywords).to.include.members(['violences conjugales', 'ordonnance de protection']);
      expect(l.legalBasis).to.include('Loi n° 2020-936 du 30 juillet 2020 visant à protéger les victimes de violences conjugales, article 11');
    });
  });

  describe('6. telecom bill: the letter does not stop the one-year limitation; it is the complaint the mediator needs', () => {
    const slug = 'contestation-facture-telecom';
    const values = {
      subscriberId: '0612345678',
      invoiceNumber: 'F2026-1',
      invoiceDate: '2026-10-05',
      disputedAmountCents: 4599,
      disputeReason: 'Option jamais souscrite.',
    };

    it('the letter no longer says it is made within the year; it is the written complaint of L612-2', () => {
      const text = render(slug, values).text;
      expect(text).not.to.include('est formée dans le délai');
      expect(text).to.include(
        "Je vous rappelle que l'article L34-2 du Code des postes et des communications électroniques soumet la restitution du prix de vos prestations à un délai d'un an à compter du paiement.",
      );
      expect(text).to.include(
        "La présente lettre constitue la réclamation écrite préalable prévue à l'article L612-2 du Code de la consommation. À défaut de réponse satisfaisante, je me réserve la possibilité de saisir le Médiateur des communications électroniques, puis, le cas échéant, la juridiction compétente.",
      );
    });

    it('summary and help say what interrupts the limitation (C. civ. 2240, 2241, 2244), as for hidden defects', () => {
      const l = letter(slug);
      expect(l.summary).to.include(
        "et ce courrier n'arrête pas ce délai : seuls la reconnaissance de votre droit par l'opérateur, une action en justice ou une mesure conservatoire ou d'exécution forcée l'interrompent (articles 2240, 2241 et 2244 du Code civil)",
      );
      expect(l.summary).to.include("qui doit l'être dans l'année qui suit cette réclamation (article L612-2 du Code de la consommation)");
      expect(l.fields.find((f) => f.name === 'invoiceDate')!.help).to.include("ne le suspend ni ne l'interrompt");
      expect(source(slug, '2240, 2241 et 2244')).to.include({ status: 'unverified' });
      expect(source(slug, 'L612-2')).to.include({ status: 'unverified' });
    });
  });

  describe('7. fines: a forfait post-stationnement is not contested by this letter', () => {
    const slug = 'requete-exoneration-amende';

    it("the summary and the notice number's help send an FPS to its RAPO, then the tribunal du stationnement payant", () => {
      const l = letter(slug);
      expect(l.summary).not.to.include('(radar, stationnement, feu rouge');
      expect(l.summary).to.include('forfait post-stationnement (FPS), que cette lettre ne permet pas de contester');
      expect(l.summary).to.include(
        "recours administratif préalable obligatoire (RAPO), dans le mois qui suit la notification de l'avis de paiement, auprès de l'organisme indiqué sur cet avis, puis, en cas de rejet, devant le tribunal du stationnement payant (anciennement commission du contentieux du stationnement payant)",
      );
      expect(l.fields.find((f) => f.name === 'noticeNumber')!.help).to.include("n'utilisez pas cette lettre");
      // No field offers paid parking, so no earlier request chose it: nothing to keep compatible.
      expect(JSON.stringify(l.fields.filter((f) => f.options).map((f) => f.options))).not.to.match(/stationnement|FPS/i);
      expect(upgradeLetterFields(slug, { contestationGround: 'contestation' })).to.deep.equal({ fields: { contestationGround: 'contestation' }, warnings: [] });
      for (const article of ['L2333-87', 'R2333-120-13 et suivants'])
        expect(source(slug, article)).to.include({ text: 'Code général des collectivités territoriales', status: 'unverified' });
      expect(l.sources.find((s) => s.text.startsWith('Décret n° 2024-733'))).to.include({ status: 'unverified' });
    });
  });

  describe('8. withdrawal: the online withdrawal function of L221-21 (ordonnance 2026-2), for contracts concluded online', () => {
    const slug = 'retractation-achat-distance';
    const values = {
      contractType: 'bien',
      productDescription: 'un aspirateur',
      orderNumber: 'CMD-1',
      orderDate: '2026-11-10',
      receiptDate: '2026-11-20',
    };
    const reminder =
      "Ce contrat ayant été conclu au moyen de votre interface en ligne, je vous rappelle que l'article L221-21 du Code de la consommation vous impose de mettre à ma disposition, sans frais, une fonctionnalité me permettant d'exercer en ligne mon droit de rétractation ; la présente lettre, déclaration dénuée d'ambiguïté au sens de ce même article, suffit néanmoins à l'exercer.";

    it('printed for a contract concluded online, not otherwise', () => {
      const online = render(slug, { ...values, saleChannel: 'interface-en-ligne' }).text;
      expect(online).to.include(`${reminder} Je vous remercie de m'en accuser réception.\n\nMa rétractation intervient`);
      const other = render(slug, { ...values, saleChannel: 'autre' }).text;
      expect(other).not.to.include('fonctionnalité');
      expect(other).to.include(
        'commande n° CMD-1 du 10 novembre 2026 ; date de réception du bien ou de conclusion du contrat : 20 novembre 2026).\n\nMa rétractation intervient',
      );
      expect(letter(slug).summary).to.include(
        'Depuis le 19 juin 2026, un contrat conclu sur un site ou une application doit aussi pouvoir être rétracté en ligne',
      );
    });

    it('an earlier request without saleChannel gets the earlier letter, with a warning', () => {
      const { fields, warnings } = upgradeLetterFields(slug, values, 'fields.');
      expect(fields).to.deep.equal({ ...values, saleChannel: 'autre' });
      expect(warnings.map((w) => [w.code, w.field])).to.deep.equal([['field_defaulted', 'fields.saleChannel']]);
      const text = render(slug, fields).text;
      expect(text).not.to.include('fonctionnalité');
      expect(render(slug, fields).missingFields).to.deep.equal([]);
      expect(render(slug, { ...fields, saleChannel: 'interface-en-ligne' }).text).to.include(reminder);
    });
  });

  describe('sources: a check date only for a complete, current text read on Légifrance', () => {
    const data = loadCatalogueData();
    const bySlug = (slug: string) => data.letters.find((l) => l.slug === slug)!;

    it('L224-33 read on Légifrance: its article address and the day; the letter leaves the waiting list, the train letter joins it', () => {
      const l224 = bySlug('resiliation-telecom-modification-contrat').sources.find((s) => s.article === 'L224-33')!;
      expect(l224).to.include({ url: 'https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000043545713', checkedOn: '2026-11-29' });
      expect(l224.note).to.include('LEGISCTA000032221543');
      const waiting = lawDrivenLettersWithoutVerifiedSource(data);
      expect(waiting).not.to.include('resiliation-telecom-modification-contrat');
      expect(waiting).to.include('indemnisation-retard-train');
    });

    it('partial, old or non-Légifrance reads stay unverified and say what is missing', () => {
      const pending: [string, string, string][] = [
        ['demande-justificatifs-charges', '23', 'six mois'],
        ['mise-en-demeure-paiement', '1344', "La version en vigueur n'a pas été lue"],
        ['garantie-legale-conformite', 'L217-9', 'circulaires.gouv.fr'],
        ['demande-remise-gracieuse-impots', 'L247', 'version historique'],
      ];
      for (const [slug, article, missing] of pending) {
        const s = bySlug(slug).sources.find((x) => x.article === article)!;
        expect(s, slug).to.include({ status: 'unverified' }).and.not.to.have.property('checkedOn');
        expect(s.note, slug).to.include(missing);
      }
    });

    it('every source issue 51 added to the six letters is unverified, with a note of where it was read', () => {
      for (const slug of CORRECTED) {
        for (const s of bySlug(slug).sources.filter((x) => x.note?.includes('2026-11-29'))) {
          expect(s, `${slug}: ${s.text}, ${s.article}`).to.include({ status: 'unverified' });
          expect(s.note, slug).to.match(/copie|non sur|non lu|pas été lu|seulement|début/);
        }
        expect(
          bySlug(slug).sources.some((s) => s.checkedOn === '2026-11-29'),
          slug,
        ).to.equal(false);
      }
      expect(bySlug('demande-travaux-bailleur').sources.map((s) => s.url)).to.include.members([
        'https://www.legifrance.gouv.fr/jorf/article_jo/JORFARTI000043957100',
        'https://www.service-public.fr/particuliers/vosdroits/F2042',
      ]);
      expect(bySlug('conge-locataire-preavis').sources.map((s) => s.article)).to.include.members(['15 (I, 3° bis et dernier alinéa)', '11']);
      expect(bySlug('retractation-achat-distance').sources.map((s) => s.url)).to.include.members([
        'https://www.legifrance.gouv.fr/eli/ordonnance/2026/1/5/2026-2/jo/texte',
        'https://eur-lex.europa.eu/eli/dir/2023/2673/oj',
      ]);
    });
  });
});
