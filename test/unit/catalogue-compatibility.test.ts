import { expect } from 'chai';
import { loadCatalogueData } from '../../domain/catalogue/catalogue.js';
import { calculatorDefaults, compatibilityProblems, explainMissing, upgradeLetterFields } from '../../domain/catalogue/compatibility.js';

describe('catalogue/compatibility.json: what requests of an earlier catalogue mean', () => {
  const data = loadCatalogueData();

  it('matches the catalogue of today', () => {
    expect(compatibilityProblems(data)).to.deep.equal([]);
  });

  it('notices an entry the catalogue has moved past: a renamed field back, a default that is no option, a withdrawn provider listed again', () => {
    const changed = structuredClone(data);
    const optOut = changed.letters.find((l) => l.slug === 'opposition-prospection-commerciale')!;
    optOut.fields.push({ name: 'bloctelStatus', label: 'x', type: 'text', required: false });
    const train = changed.letters.find((l) => l.slug === 'indemnisation-retard-train')!;
    train.fields.find((f) => f.name === 'claimBasis')!.options = [{ value: 'g30', label: 'G30' }];
    const box = changed.letters.find((l) => l.slug === 'resiliation-box-internet')!;
    box.providers.push({ ...box.providers[0]!, slug: 'free' });
    expect(compatibilityProblems(changed)).to.deep.equal([
      'compatibility: opposition-prospection-commerciale.bloctelStatus is still a field',
      'compatibility: indemnisation-retard-train.claimBasis has no option minimum-ue',
      'compatibility: resiliation-box-internet still has provider free',
    ]);
  });

  it('notices a retired value offered again or translated to no option, and a calculator default that is no input or no option', () => {
    const changed = structuredClone(data);
    const flight = changed.letters.find((l) => l.slug === 'indemnisation-retard-annulation-vol')!;
    const amount = flight.fields.find((f) => f.name === 'compensationAmount')!;
    amount.options = [...amount.options!.filter((o) => o.value !== '600'), { value: '300', label: '300 euros' }];
    const calculator = changed.calculators.find((c) => c.slug === 'indemnite-retard-avion')!;
    calculator.inputs.find((i) => i.name === 'incident')!.options = [{ value: 'annulation', label: 'Vol annulé' }];
    expect(compatibilityProblems(changed)).to.deep.equal([
      'compatibility: indemnisation-retard-annulation-vol.compensationAmount still has option 300',
      'compatibility: indemnisation-retard-annulation-vol.compensationAmount has no option 600',
      'compatibility: indemnite-retard-avion.incident has no option retard',
    ]);
    calculator.inputs = calculator.inputs.filter((i) => i.name !== 'incident');
    flight.fields = flight.fields.filter((f) => f.name !== 'compensationAmount');
    expect(compatibilityProblems(changed)).to.deep.equal([
      'compatibility: indemnisation-retard-annulation-vol.compensationAmount is not a field',
      'compatibility: indemnite-retard-avion.incident is not an input',
    ]);
  });

  it('reads a retired value as the one that replaces it, with a warning, and leaves other values alone', () => {
    const slug = 'indemnisation-retard-annulation-vol';
    const upgraded = upgradeLetterFields(slug, { compensationAmount: '300', flightNumber: 'AF1' }, 'fields.');
    expect(upgraded.fields).to.deep.equal({ compensationAmount: '600', flightNumber: 'AF1' });
    expect(upgraded.warnings.map((w) => [w.code, w.field])).to.deep.equal([['value_retired', 'fields.compensationAmount']]);
    expect(upgradeLetterFields(slug, { compensationAmount: 200 }).fields).to.deep.equal({ compensationAmount: '400' });
    expect(upgradeLetterFields(slug, { compensationAmount: '250' })).to.deep.equal({ fields: { compensationAmount: '250' }, warnings: [] });
    expect(upgradeLetterFields(slug, {})).to.deep.equal({ fields: {}, warnings: [] });
    expect(upgradeLetterFields(slug, { compensationAmount: 'constructor' })).to.deep.equal({ fields: { compensationAmount: 'constructor' }, warnings: [] });
  });

  it("gives a calculator's input added since its earlier value only when absent", () => {
    expect(calculatorDefaults('indemnite-retard-avion', { distanceKm: 1000 }).map((d) => [d.field, d.value])).to.deep.equal([['incident', 'retard']]);
    expect(calculatorDefaults('indemnite-retard-avion', { incident: 'annulation' })).to.deep.equal([]);
    expect(calculatorDefaults('indemnite-licenciement', {})).to.deep.equal([]);
  });

  it('notices a merged entry the catalogue has moved past: the merged field back, a value that is no option, the field merged into gone', () => {
    const changed = structuredClone(data);
    const birth = changed.letters.find((l) => l.slug === 'information-conge-supplementaire-naissance')!;
    birth.fields.push({ name: 'succession', label: 'x', type: 'text', required: false });
    const previousLeave = birth.fields.find((f) => f.name === 'previousLeave')!;
    previousLeave.options = previousLeave.options!.filter((o) => o.value !== 'adoption-immediat');
    expect(compatibilityProblems(changed)).to.deep.equal([
      'compatibility: information-conge-supplementaire-naissance.succession is still a field',
      'compatibility: information-conge-supplementaire-naissance.previousLeave has no option adoption-immediat',
    ]);
    birth.fields = birth.fields.filter((f) => f.name !== 'previousLeave' && f.name !== 'succession');
    expect(compatibilityProblems(changed)).to.deep.equal(['compatibility: information-conge-supplementaire-naissance.previousLeave is not a field']);
  });

  it('reads a field merged into another: a pair the table lists is translated, any other pair keeps the field merged into', () => {
    const slug = 'information-conge-supplementaire-naissance';
    const merged = upgradeLetterFields(slug, { previousLeave: 'adoption', succession: 'immediate', leaveDuration: '1-mois' }, 'letter.fields.');
    expect(merged.fields).to.deep.equal({ previousLeave: 'adoption-immediat', leaveDuration: '1-mois' });
    expect(merged.warnings.map((w) => [w.code, w.field])).to.deep.equal([['field_renamed', 'letter.fields.succession']]);
    expect(upgradeLetterFields(slug, { previousLeave: 'maternite', succession: 'immediate' }).fields).to.deep.equal({ previousLeave: 'maternite' });
    expect(upgradeLetterFields(slug, { previousLeave: 'adoption', succession: 'differee' }).fields).to.deep.equal({ previousLeave: 'adoption' });
  });

  it('reads a renamed field under its new name, translated, and lets the new name win when both are given', () => {
    const slug = 'opposition-prospection-commerciale';
    expect(upgradeLetterFields(slug, { bloctelStatus: 'inscrit', phoneNumber: '0612345678' }).fields).to.deep.equal({
      phoneConsent: 'retrait-consentement',
      phoneNumber: '0612345678',
    });
    const both = upgradeLetterFields(slug, { bloctelStatus: 'inscrit', phoneConsent: 'jamais-consenti' });
    expect(both.fields).to.deep.equal({ phoneConsent: 'jamais-consenti' });
    expect(both.warnings.map((w) => w.code)).to.deep.equal(['field_renamed']);
    // A value the table does not know is kept, so that the 422 names the new field's options.
    expect(upgradeLetterFields(slug, { bloctelStatus: 'peut-etre' }).fields).to.deep.equal({ phoneConsent: 'peut-etre' });
  });

  it('defaults only an absent field, and explains a field that became required', () => {
    expect(upgradeLetterFields('indemnisation-retard-train', { claimBasis: 'g30' })).to.deep.equal({ fields: { claimBasis: 'g30' }, warnings: [] });
    expect(upgradeLetterFields('indemnisation-retard-train', {}).fields).to.deep.equal({ claimBasis: 'minimum-ue' });
    expect(upgradeLetterFields('lettre-demission', { a: 1 })).to.deep.equal({ fields: { a: 1 }, warnings: [] });
    expect(explainMissing('letters', 'restitution-depot-garantie', ['amountCents', 'leaseDate'])).to.match(
      /^amountCents, leaseDate \(required since 2026-11-23: /,
    );
  });
});
