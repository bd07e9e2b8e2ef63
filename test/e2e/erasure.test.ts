import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { balanceOf, call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { boxLetterValues, freeLetter, recipient, sender } from '../support/fixtures.js';
import { base64, textPdf } from '../support/own-pdfs.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { eraseAccountMailings, eraseMailingPersonalData } from '../../domain/privacy/erasure.js';
import { Conflict, NotFound } from '../../domain/errors.js';
import { findOwnPdf } from '../../domain/mailings/own-pdf-store.js';

const sha256 = (bytes: Buffer | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The ledger invariant of test/e2e/billing.test.ts: the entries sum to the balance. */
async function ledgerSum(accountId: string): Promise<number> {
  const rows = await stack().db('ledger_entries').where({ account_id: accountId });
  return rows.reduce((sum, r) => sum + Number(r.amount_cents), 0);
}

/**
 * domain/privacy/erasure.ts against the stack: what goes, what stays (amounts, history, hashes),
 * a PDF shared by mailings, webhook payloads, concurrent erasures.
 */
describe('erasure of a mailing’s personal data (domain/privacy/erasure.ts)', function () {
  this.timeout(120_000);
  let account: TestAccount;
  let receiver: WebhookReceiver;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
    receiver = await new WebhookReceiver().start();
    await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env: 'test', events: [] });
  });
  after(async () => {
    await receiver.stop();
  });

  const post = (key: string, body: unknown) => call('POST', '/v1/mailings', { key, body });
  const advance = (id: string, body: unknown = {}) => call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body });
  const get = (id: string, key = account.testKey) => call('GET', `/v1/mailings/${id}`, { key });

  it('erases a final mailing’s recipient, letter, proofs’ PDFs and webhook payloads; keeps its amount, history and hashes', async () => {
    const { body: created } = await post(account.testKey, {
      mode: 'registered',
      letter: freeLetter,
      sender,
      recipient,
      recipientEmail: 'marie@example.org',
      reference: 'ERASE-1',
    });
    expect((await advance(created.id, { step: 4 })).body.status).to.equal('delivered');
    await receiver.until((r) => r.filter((w) => w.body.data?.mailing?.id === created.id).length >= 6);
    const { db } = stack();
    const proofsBefore = await db('shipment_proofs').where({ shipment_id: created.id }).orderBy('kind');
    expect(proofsBefore.map((p) => p.kind)).to.deep.equal(['delivery', 'filing']);
    for (const p of proofsBefore) expect(p.sha256, 'the hash is stored with the proof').to.equal(sha256(p.pdf));
    const before = (await get(created.id)).body;

    const erased = await eraseMailingPersonalData(db, created.id, { via: 'admin' });
    expect(erased).to.include({ mailingId: created.id, accountId: account.id, alreadyErased: false, proofPdfs: 2 });
    expect(erased.webhookEvents).to.be.at.least(6);

    const after = await eventually(
      async () => (await get(created.id)).body,
      (m) => m.erasedAt !== null,
    );
    expect(after.erasedAt).to.equal(erased.erasedAt);
    expect(after.recipient).to.deep.equal(['(effacé)']);
    expect(after.title).to.equal('(effacé)');
    expect(after.document).to.deep.equal({ kind: 'free', title: '(effacé)', text: '' });
    // What accounts for it and proves it stays.
    for (const field of [
      'id',
      'mode',
      'status',
      'step',
      'lastStep',
      'trackingNumber',
      'createdAt',
      'events',
      'amountCents',
      'reference',
      'test',
      'proofs',
      'sendAt',
      'batch',
    ])
      expect(after[field], field).to.deep.equal(before[field]);
    const row = await db('shipments').where({ id: created.id }).first();
    expect(row.recipient_email).to.equal(null);
    expect(row.layout).to.equal(null);
    expect(JSON.stringify(row)).not.to.include('Mairie de Lyon');
    expect(JSON.stringify(row)).not.to.include('rendez-vous.');
    expect(row.sender.name, 'the sender is the customer’s own address').to.equal(sender.name);
    const proofsAfter = await db('shipment_proofs').where({ shipment_id: created.id }).orderBy('kind');
    expect(proofsAfter.map((p) => p.pdf)).to.deep.equal([null, null]);
    expect(
      proofsAfter.map((p) => p.sha256),
      'each proof’s SHA-256 stays',
    ).to.deep.equal(proofsBefore.map((p) => sha256(p.pdf)));
    const events = await db('webhook_events').where({ shipment_id: created.id });
    expect(events.length).to.be.at.least(6);
    for (const e of events) {
      expect(e.payload.data.mailing.recipient).to.deep.equal(['(effacé)']);
      expect(JSON.stringify(e.payload)).not.to.include('Mairie de Lyon');
    }
    const audit = await db('audit_log').where({ account_id: account.id, action: 'mailing.erased', target_id: created.id });
    expect(audit).to.have.length(1);

    const again = await eraseMailingPersonalData(db, created.id);
    expect(again).to.include({ alreadyErased: true, erasedAt: erased.erasedAt, proofPdfs: 0 });
  });

  it('refuses a mailing that is not final (Conflict mailing_not_final), another account’s or environment’s (NotFound)', async () => {
    const { body: created } = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    const refusal = await eraseMailingPersonalData(stack().db, created.id).catch((e: unknown) => e);
    expect(refusal).to.be.instanceOf(Conflict);
    expect((refusal as Conflict).code).to.equal('mailing_not_final');
    expect((await get(created.id)).body.recipient).to.deep.equal(['Mairie de Lyon', '1 Place de la Comédie', '69001 LYON']);
    const other = await createAccount();
    expect(await eraseMailingPersonalData(stack().db, created.id, { accountId: other.id }).catch((e: unknown) => e)).to.be.instanceOf(NotFound);
    expect(await eraseMailingPersonalData(stack().db, created.id, { accountId: account.id, test: false }).catch((e: unknown) => e)).to.be.instanceOf(NotFound);
    expect(await eraseMailingPersonalData(stack().db, '00000000-0000-4000-8000-000000000000').catch((e: unknown) => e)).to.be.instanceOf(NotFound);
  });

  it('keeps a PDF’s bytes while a mailing that is not erased prints them, and stores them again for a new mailing', async () => {
    const pdf = await textPdf();
    const digest = sha256(pdf);
    const body = { mode: 'simple', letter: { pdf: base64(pdf), title: 'Mon courrier' }, sender, recipient };
    const { body: a } = await post(account.testKey, body);
    const { body: b } = await post(account.testKey, body);
    for (const m of [a, b]) await advance(m.id, { step: 2 });
    const { db } = stack();
    const bytes = () => db('pdf_documents').where({ sha256: digest }).first('pdf');

    expect((await eraseMailingPersonalData(db, a.id)).ownPdfBytes, 'b still prints it').to.equal(false);
    expect(sha256((await bytes()).pdf)).to.equal(digest);
    expect(await eraseMailingPersonalData(db, b.id)).to.include({ ownPdfBytes: true });
    expect((await bytes()).pdf, 'no mailing needs them any more').to.equal(null);
    // The API's cache of polled mailings drops it when the erasure's notification arrives.
    const erased = await eventually(
      async () => (await get(b.id)).body,
      (m) => m.erasedAt !== null,
    );
    expect(erased.document).to.include({ kind: 'pdf', title: '(effacé)', text: '', sha256: digest });
    expect(await db('shipment_pdfs').where({ shipment_id: b.id }).first('sha256')).to.deep.equal({ sha256: digest });

    const { body: c } = await post(account.testKey, body);
    expect(sha256((await bytes()).pdf), 'a new mailing of the same PDF stores its bytes again').to.equal(digest);
    const stored = await findOwnPdf(db, c.id);
    expect(stored && sha256(stored.pdf), 'what filing reads').to.equal(digest);
    expect(await findOwnPdf(db, b.id), 'an erased mailing has no PDF to read').to.equal(undefined);
  });

  it('a catalogue letter keeps the catalogue’s title and slug, not its fields’ values', async () => {
    const letter = { slug: 'resiliation-box-internet', provider: 'bouygues-telecom', fields: boxLetterValues };
    const res = await post(account.testKey, { mode: 'simple', letter, sender, recipient });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    await advance(res.body.id, { step: 2 });
    const before = (await get(res.body.id)).body;
    expect(before.document.text).to.include(boxLetterValues.subscriberId);
    await eraseMailingPersonalData(stack().db, res.body.id);
    const after = await eventually(
      async () => (await get(res.body.id)).body,
      (m) => m.erasedAt !== null,
    );
    expect(after.title).to.equal(before.title);
    expect(after.document).to.deep.equal({ kind: 'catalogue', title: before.document.title, text: '', letter: before.document.letter });
    const row = await stack().db('shipments').where({ id: res.body.id }).first('layout', 'document');
    expect(row.layout).to.equal(null);
    expect(JSON.stringify(row)).not.to.include(boxLetterValues.subscriberId);
  });

  it('two erasures of one mailing at once give one result, recorded once', async () => {
    const { body: created } = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    await advance(created.id, { status: 'error' });
    const { db } = stack();
    const results = await Promise.all([
      eraseMailingPersonalData(db, created.id),
      eraseMailingPersonalData(db, created.id),
      eraseMailingPersonalData(db, created.id),
    ]);
    expect(results.filter((r) => !r.alreadyErased)).to.have.length(1);
    expect(new Set(results.map((r) => r.erasedAt)).size).to.equal(1);
    expect(await db('audit_log').where({ action: 'mailing.erased', target_id: created.id })).to.have.length(1);
  });

  it('an account’s mailings: the final ones erased, the others named; the ledger still sums to the balance', async () => {
    const live = await createAccount({ balanceCents: 5000 });
    const tomorrow = new Date(Date.now() + 36 * 3600_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Paris' });
    const canceled = (await post(live.liveKey, { mode: 'simple', letter: freeLetter, sender, recipient, sendAt: tomorrow })).body;
    expect((await call('POST', `/v1/mailings/${canceled.id}/cancel`, { key: live.liveKey })).body.status).to.equal('canceled');
    const waiting = (await post(live.liveKey, { mode: 'registered', letter: freeLetter, sender, recipient, sendAt: tomorrow })).body;
    const balance = await balanceOf(live.id);
    expect(balance).to.equal(5000 - waiting.amountCents);

    let pages = 0;
    const result = await eraseAccountMailings(stack().db, live.id, { onPage: () => void pages++ });
    expect(result).to.deep.equal({ erased: 1, notFinal: [waiting.id] });
    expect(pages, 'the progress of each page (the closing heartbeats on it)').to.equal(1);
    const erasedCanceled = await eventually(
      async () => (await get(canceled.id, live.liveKey)).body,
      (m) => m.erasedAt !== null,
    );
    expect(erasedCanceled).to.include({ amountCents: canceled.amountCents, status: 'canceled' });
    expect(erasedCanceled.erasedAt).to.be.a('string');
    expect((await get(waiting.id, live.liveKey)).body.erasedAt).to.equal(null);
    expect(await balanceOf(live.id)).to.equal(balance);
    expect(await ledgerSum(live.id)).to.equal(balance);
    await call('POST', `/v1/mailings/${waiting.id}/cancel`, { key: live.liveKey });
  });
});
