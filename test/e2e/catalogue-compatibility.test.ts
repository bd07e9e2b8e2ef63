import { expect } from 'chai';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { recipient, sender } from '../support/fixtures.js';

type FieldDetail = { name: string; type: string; required: boolean; example?: string | number; options?: { value: string }[]; filledFrom?: string };

/**
 * Requests written for the catalogue as it was before 2026-11-23 (issue 16 renamed, added and
 * withdrew things): each keeps working where the law allows, with a warning, or gets a 422 that
 * names the new field and why (catalogue/compatibility.json, docs/catalogue-changes.md).
 */
describe('requests written for an earlier catalogue (no breaking change within /v1)', function () {
  this.timeout(60_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 5000 });
  });

  /** Values for every required field of a letter today (examples, first options), minus `omit`. */
  async function currentValues(slug: string, omit: string[] = []): Promise<Record<string, string | number>> {
    const detail = await call('GET', `/v1/letters/${slug}`, { key: account.testKey });
    expect(detail.status, slug).to.equal(200);
    const values: Record<string, string | number> = {};
    for (const field of detail.body.fields as FieldDetail[]) {
      if (!field.required || field.filledFrom || omit.includes(field.name)) continue;
      values[field.name] = field.options ? field.options[0]!.value : (field.example ?? 'x');
    }
    return values;
  }
  const mail = (letter: unknown) => call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'simple', letter, sender, recipient } });
  const render = (slug: string, body: unknown) => call('POST', `/v1/letters/${slug}/render`, { key: account.testKey, body });

  it('the catalogue marks the fields a mailing fills from sender and recipient', async () => {
    const detail = await call('GET', '/v1/letters/lettre-demission', { key: account.testKey });
    const filled = (detail.body.fields as FieldDetail[]).filter((f) => f.filledFrom).map((f) => [f.name, f.filledFrom]);
    expect(filled).to.deep.equal([
      ['senderName', 'sender'],
      ['senderAddress', 'sender'],
      ['recipientName', 'recipient'],
      ['recipientAddress', 'recipient'],
    ]);
    // A new client sends none of them: the mailing is complete.
    const res = await mail({ slug: 'lettre-demission', fields: await currentValues('lettre-demission') });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings).to.deep.equal([]);
  });

  it('bloctelStatus (renamed phoneConsent when Bloctel ended) is read as the withdrawal of any consent, with a warning', async () => {
    const slug = 'opposition-prospection-commerciale';
    const old = { ...(await currentValues(slug, ['phoneConsent'])), bloctelStatus: 'inscrit' };
    const res = await mail({ slug, fields: old });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings).to.have.length(1);
    expect(res.body.warnings[0]).to.include({ code: 'field_renamed', field: 'letter.fields.bloctelStatus' });
    expect(res.body.warnings[0].message).to.contain('phoneConsent').and.contain('retrait-consentement');
    expect(res.body.document.text).to.contain('je retire, avec effet immédiat, tout consentement');
    expect(res.body.document.text).to.not.contain('Bloctel');

    const rendered = await render(slug, { fields: { ...old, bloctelStatus: 'non-inscrit' } });
    expect(rendered.status).to.equal(200);
    expect(rendered.body.warnings.map((w: { field: string }) => w.field)).to.deep.equal(['fields.bloctelStatus']);
    expect(rendered.body.text).to.contain('je retire, avec effet immédiat');
    // Given both, the new name wins and the old one is said to be ignored.
    const both = await render(slug, { fields: { ...old, phoneConsent: 'jamais-consenti' } });
    expect(both.body.text).to.contain("je n'ai jamais consenti");
    expect(both.body.warnings[0].message).to.contain('was ignored');
  });

  it('a field added since, absent, takes the value that writes the earlier letter (claimBasis, debtContext)', async () => {
    const train = await mail({ slug: 'indemnisation-retard-train', fields: await currentValues('indemnisation-retard-train', ['claimBasis']) });
    expect(train.status, JSON.stringify(train.body)).to.equal(201);
    expect(train.body.warnings.map((w: { code: string; field: string }) => [w.code, w.field])).to.deep.equal([['field_defaulted', 'letter.fields.claimBasis']]);
    expect(train.body.document.text).to.contain('article 19 du règlement (UE) 2021/782');

    const debt = await mail({ slug: 'mise-en-demeure-paiement', fields: await currentValues('mise-en-demeure-paiement', ['debtContext']) });
    expect(debt.status, JSON.stringify(debt.body)).to.equal(201);
    expect(debt.body.warnings[0]).to.include({ code: 'field_defaulted', field: 'letter.fields.debtContext' });
    expect(debt.body.document.text).to.contain("cette somme produit intérêts au taux légal, conformément à l'article 1231-6 du Code civil");
  });

  it('an option withdrawn since is read as the one that replaces it, with a warning (compensationAmount 300 → 600, 200 → 400; issue 51)', async () => {
    const slug = 'indemnisation-retard-annulation-vol';
    const old = { ...(await currentValues(slug)), incidentType: 'retard', compensationAmount: '300' };
    const res = await mail({ slug, fields: old });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings.map((w: { code: string; field: string }) => [w.code, w.field])).to.deep.equal([
      ['value_retired', 'letter.fields.compensationAmount'],
    ]);
    expect(res.body.warnings[0].message).to.contain('"300" is no longer offered (since 2026-11-29)').and.contain('send "600" instead');
    expect(res.body.document.text).to.contain("l'indemnité forfaitaire de 600 euros").and.contain('Ce montant est dû en totalité.');

    const rendered = await render(slug, { fields: { ...old, compensationAmount: '200' } });
    expect(rendered.status).to.equal(200);
    expect(rendered.body.warnings.map((w: { code: string; field: string }) => [w.code, w.field])).to.deep.equal([
      ['value_retired', 'fields.compensationAmount'],
    ]);
    expect(rendered.body.text).to.contain("l'indemnité forfaitaire de 400 euros");
  });

  it('a calculator input added since, absent, takes the value that gives the earlier result, said in defaultsApplied (incident; issue 51)', async () => {
    const res = await call('POST', '/v1/calculators/indemnite-retard-avion/compute', {
      key: account.testKey,
      body: { inputs: { distanceKm: 6000, intraEu: 'non', arrivalDelayMinutes: 210 } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.defaultsApplied.map((d: { field: string; value: string }) => [d.field, d.value])).to.deep.equal([['incident', 'retard']]);
    expect(res.body.defaultsApplied[0].reason).to.contain('since 2026-11-29');
    // What the passenger may claim is the full 600 €; the 300 € is the carrier's option, given apart.
    expect(res.body.result).to.include({ compensationCents: 60000, reduced: false, reductionPossible: true, reducedCompensationCents: 30000 });
  });

  it('a field the law now needs and nothing can guess: 422 naming it, since when and why; nothing charged', async () => {
    const slug = 'restitution-depot-garantie';
    const res = await mail({ slug, fields: await currentValues(slug, ['leaseDate', 'sharedBuilding']) });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('unprocessable');
    expect(res.body.error.message).to.contain('leaseDate (required since 2026-11-23: the 10 % monthly increase');
    expect(res.body.error.message).to.contain('sharedBuilding (required since 2026-11-23');
    expect(res.body.error.details.missingFields).to.have.members(['leaseDate', 'sharedBuilding']);
    expect(res.body.error.details.newlyRequired.map((r: { field: string }) => r.field)).to.have.members(['leaseDate', 'sharedBuilding']);

    const pdf = await call('POST', `/v1/letters/${slug}/pdf`, {
      key: account.testKey,
      body: { fields: { ...(await currentValues(slug, ['leaseDate'])), ...base } },
    });
    expect(pdf.status).to.equal(422);
    expect(pdf.body.error.message).to.contain('leaseDate (required since 2026-11-23');
  });

  it('a provider withdrawn from the catalogue: 422 saying why and what to send instead (not 404)', async () => {
    const slug = 'resiliation-box-internet';
    const res = await call('POST', '/v1/mailings', {
      key: account.testKey,
      body: { mode: 'simple', letter: { slug, provider: 'free', fields: await currentValues(slug) }, sender },
    });
    expect(res.status).to.equal(422);
    expect(res.body.error.message).to.contain('withdrawn').and.contain('recipient');
    expect(res.body.error.details).to.include({ field: 'provider', withdrawnOn: '2026-11-23' });
    const rendered = await render('resiliation-forfait-mobile', { provider: 'free-mobile', fields: {} });
    expect(rendered.status).to.equal(422);
    // GET /v1/letters/{slug} lists no 422 (SPEC.md): there it is a 404 that says why.
    const detail = await call('GET', `/v1/letters/${slug}?provider=free`, { key: account.testKey });
    expect(detail.status).to.equal(404);
    expect(detail.body.error.message).to.contain('withdrawn');
    // An unknown provider is still a 404.
    expect((await render(slug, { provider: 'nobody', fields: {} })).status).to.equal(404);
  });

  it('a calculator input required since: 422 naming it and why', async () => {
    const res = await call('POST', '/v1/calculators/indemnite-licenciement/compute', {
      key: account.testKey,
      body: { inputs: { hireDate: '2014-01-01', noticeEndDate: '2026-01-01', averageSalary12MonthsCents: 200000 } },
    });
    expect(res.status).to.equal(422);
    expect(res.body.error.message).to.contain('notificationDate (required since 2026-11-23: the right to severance pay');
  });
});

const base = {
  senderName: 'Marie Dupont',
  senderAddress: '12 rue des Lilas\n69003 Lyon',
  recipientName: 'M. Martin',
  recipientAddress: '5 rue Victor Hugo\n69002 Lyon',
  place: 'Lyon',
};
