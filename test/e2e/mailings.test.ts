import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import { balanceOf, call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { boxLetterValues, freeLetter, recipient, sender } from '../support/fixtures.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { priceOf } from '../../domain/billing/prices.js';

function verify(received: { headers: Record<string, string>; raw: string }, secret: string): boolean {
  const [t, v1] = received.headers['service-signature']!.split(',').map((p) => p.split('=')[1]!);
  const expected = createHmac('sha256', secret).update(`${t}.${received.raw}`).digest('hex');
  return expected === v1 && Math.abs(Date.now() / 1000 - Number(t)) < 300;
}

describe('mailings', function () {
  this.timeout(60_000);
  let account: TestAccount;
  let receiver: WebhookReceiver;
  let secret: string;

  before(async () => {
    account = await createAccount({ balanceCents: 5000 });
    receiver = await new WebhookReceiver().start();
    secret = (await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env: 'test', events: [] })).secret;
  });
  after(async () => {
    await receiver.stop();
  });

  const post = (key: string, body: unknown, headers: Record<string, string> = {}) => call('POST', '/v1/mailings', { key, body, headers });

  it('creates a test mailing: 201 Shipment, not billed, mailing.created signed and delivered', async () => {
    const res = await post(account.testKey, { mode: 'ar', letter: freeLetter, sender, recipient, reference: 'REF-1' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const s = res.body;
    expect(s).to.include({
      mode: 'ar',
      modeLabel: 'Lettre recommandée avec accusé de réception',
      status: 'paid',
      step: 0,
      lastStep: 5,
      amountCents: 0,
      reference: 'REF-1',
      test: true,
      orderId: null,
    });
    expect(s.id).to.match(/^[0-9a-f-]{36}$/);
    expect(s.createdAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(s.events).to.deep.equal([{ step: 0, status: 'paid', label: s.statusLabel, at: s.createdAt }]);
    // As the national address base writes it, in the postal norm's form (test/e2e/address-check.test.ts).
    expect(s.recipient).to.deep.equal(['Mairie de Lyon', '1 Place de la Comédie', '69001 LYON']);
    expect(s.proofs).to.deep.equal([]);
    expect(s.document.text).to.include('Je souhaite un rendez-vous.');
    expect(await balanceOf(account.id)).to.equal(5000);
    const [created] = await receiver.until((r) => r.some((w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === s.id));
    const hook = receiver.received.find((w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === s.id)!;
    void created;
    expect(verify(hook, secret)).to.equal(true);
    expect(hook.headers['service-event']).to.equal('mailing.created');
    expect(hook.headers['service-delivery']).to.match(/^[0-9a-f-]{36}$/);
    expect(hook.headers['user-agent']).to.match(/^Service-Webhooks\/1\.2\.0/);
    expect(hook.body).to.include({ type: 'mailing.created', livemode: false });
    expect(hook.body.data.mailing).not.to.have.property('document');
    expect(hook.body.data.mailing.status).to.equal('paid');
  });

  it('advances a test mailing step by step, to a given step, with the events and proofs of production', async () => {
    const { body: s } = await post(account.testKey, { mode: 'registered', letter: freeLetter, sender, recipient });
    const next = await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: {} });
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
    expect(next.body).to.include({ status: 'printed', step: 1 });
    const jump = await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: { step: 4 } });
    expect(jump.body).to.include({ status: 'delivered', step: 4 });
    expect(jump.body.events.map((e: { status: string }) => e.status)).to.deep.equal(['paid', 'printed', 'posted', 'in_transit', 'delivered']);
    expect(jump.body.proofs.map((p: { kind: string }) => p.kind)).to.deep.equal(['filing', 'delivery']);
    // The list shows it as its own GET does (events and proofs read in the list's one statement).
    const one = await call('GET', `/v1/mailings/${s.id}`, { key: account.testKey });
    const listed = await call('GET', '/v1/mailings?status=delivered&limit=100', { key: account.testKey });
    expect(listed.body.data.find((m: { id: string }) => m.id === s.id)).to.deep.equal(one.body);
    await receiver.until((r) => r.filter((w) => w.body.data?.mailing?.id === s.id).length >= 7);
    const types = receiver.received.filter((w) => w.body.data?.mailing?.id === s.id).map((w) => w.body.type);
    expect(types).to.include.members([
      'mailing.created',
      'mailing.printed',
      'mailing.posted',
      'mailing.in_transit',
      'mailing.delivered',
      'mailing.proof_available',
    ]);
    const proofs = receiver.received
      .filter((w) => w.body.data?.mailing?.id === s.id && w.body.type === 'mailing.proof_available')
      .map((w) => w.body.data.proof.kind);
    expect(proofs.sort()).to.deep.equal(['delivery', 'filing']);
    const final = await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: {} });
    expect(final.status).to.equal(409);
  });

  it('ends off the main path: returned (with a return proof) or error, at lastStep', async () => {
    const { body: a } = await post(account.testKey, { mode: 'ar', letter: freeLetter, sender, recipient });
    await call('POST', `/v1/test/mailings/${a.id}/advance`, { key: account.testKey, body: { step: 2 } });
    const returned = await call('POST', `/v1/test/mailings/${a.id}/advance`, { key: account.testKey, body: { status: 'returned' } });
    expect(returned.status, JSON.stringify(returned.body)).to.equal(200);
    expect(returned.body).to.include({ status: 'returned', step: 5 });
    expect(returned.body.proofs.map((p: { kind: string }) => p.kind)).to.deep.equal(['filing', 'return']);
    const { body: b } = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    const error = await call('POST', `/v1/test/mailings/${b.id}/advance`, { key: account.testKey, body: { status: 'error' } });
    expect(error.body).to.include({ status: 'error', step: 2 });
    expect((await call('POST', `/v1/test/mailings/${b.id}/advance`, { key: account.testKey, body: {} })).status).to.equal(409);
  });

  it('refuses to advance by hand with a live key (403 test_only), beyond lastStep (422) or backwards (409)', async () => {
    const { body: s } = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    const live = await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.liveKey, body: {} });
    expect(live.status).to.equal(403);
    expect(live.body.error.code).to.equal('test_only');
    expect((await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: { step: 3 } })).status).to.equal(422);
    await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: {} });
    expect((await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: { step: 1 } })).status).to.equal(409);
    expect((await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: { step: 1, status: 'error' } })).status).to.equal(400);
    expect((await call('POST', `/v1/test/mailings/${randomUUID()}/advance`, { key: account.testKey, body: {} })).status).to.equal(404);
  });

  it('serves proofs through a signed link valid 5 minutes; 404 before they exist', async () => {
    const { body: s } = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    expect((await call('GET', `/v1/mailings/${s.id}/proofs/filing`, { key: account.testKey })).status).to.equal(404);
    await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: { step: 2 } });
    const link = await call('GET', `/v1/mailings/${s.id}/proofs/filing`, { key: account.testKey });
    expect(link.status).to.equal(200);
    expect(link.body.kind).to.equal('filing');
    expect(Date.parse(link.body.expiresAt) - Date.now()).to.be.within(290_000, 300_000);
    const pdf = await fetch(link.body.url);
    expect(pdf.status).to.equal(200);
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    const forged = await fetch(link.body.url.slice(0, -4) + 'AAAA');
    expect(forged.status).to.equal(404);
  });

  it('cancels a paid test mailing, then refuses to cancel again (409)', async () => {
    const { body: s } = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    const res = await call('POST', `/v1/mailings/${s.id}/cancel`, { key: account.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'canceled', step: 2 });
    expect((await call('POST', `/v1/mailings/${s.id}/cancel`, { key: account.testKey })).status).to.equal(409);
    await receiver.until((r) => r.some((w) => w.body.type === 'mailing.canceled' && w.body.data.mailing.id === s.id));
  });

  it('live mailings are debited in the same transaction, filed once and moved by the operator', async () => {
    const before = await balanceOf(account.id);
    const idempotencyKey = randomUUID();
    const res = await post(account.liveKey, { mode: 'simple', letter: freeLetter, sender, recipient }, { 'idempotency-key': idempotencyKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // The stored answer committed with the mailing: a retry replays it, no second mailing or debit.
    const replay = await post(account.liveKey, { mode: 'simple', letter: freeLetter, sender, recipient }, { 'idempotency-key': idempotencyKey });
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.text).to.equal(res.text);
    expect(res.body.amountCents).to.equal(189);
    expect(await balanceOf(account.id)).to.equal(before - 189);
    expect(res.headers.get('x-service-balance')).to.equal(String(before - 189));
    const advance = await call('POST', `/v1/test/mailings/${res.body.id}/advance`, { key: account.testKey, body: {} });
    expect(advance.status).to.equal(404); // not visible to test keys
  });

  it('refuses invalid addresses (422 address_invalid) and a missing recipientEmail (422 recipient_email_required)', async () => {
    const wrongCity = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient: { ...recipient, postcode: '13001' } });
    expect(wrongCity.status).to.equal(422);
    expect(wrongCity.body.error.code).to.equal('address_invalid');
    const longLine = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender: { ...sender, lines: ['x'.repeat(39)] }, recipient });
    expect(longLine.body.error.code).to.equal('address_invalid');
    const noEmail = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient, options: { emailCopy: true } });
    expect(noEmail.status).to.equal(422);
    expect(noEmail.body.error.code).to.equal('recipient_email_required');
  });

  it('prints exactly the validated addresses: letter.fields may differ (replaced, with a warning), lines carry no control characters', async () => {
    const letter = { slug: 'resiliation-box-internet', fields: boxLetterValues };
    const printed = (block: { text?: string; value?: string | null }[]) => block.map((s) => s.text ?? s.value ?? '').join('');
    const layoutOf = async (id: string) => (await stack().db('shipments').where({ id }).first('layout')).layout;
    // Repeating the printed values is fine (an AI fill returns them too): nothing to say.
    const same = await post(account.testKey, { mode: 'simple', letter, sender, recipient });
    expect(same.status, JSON.stringify(same.body)).to.equal(201);
    expect(same.body.warnings).to.deep.equal([]);
    const expected = {
      recipient: `${recipient.name}\n1 Place de la Comédie\n69001 LYON`,
      sender: `${sender.name}\n${sender.lines[0]}\n${sender.postcode} ${sender.city}`,
    };
    expect(printed((await layoutOf(same.body.id)).recipient)).to.equal(expected.recipient);
    expect(printed((await layoutOf(same.body.id)).sender)).to.equal(expected.sender);
    // A client filling every field the catalogue lists, with other values (as accepted before 1.2):
    // 201, the validated addresses printed, and a warning per replaced value, kept with the mailing.
    const other = {
      recipientAddress: '3 rue Ailleurs\n75001 Paris',
      recipientName: 'Quelqu’un d’autre',
      senderAddress: '1 place Bellecour\n69002 Lyon',
      senderName: 'Autre Nom',
    };
    const res = await post(account.testKey, { mode: 'simple', letter: { ...letter, fields: { ...boxLetterValues, ...other } }, sender, recipient });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings.map((w: { code: string; field: string }) => [w.code, w.field])).to.have.deep.members(
      Object.keys(other).map((name) => ['field_replaced', `letter.fields.${name}`]),
    );
    expect(res.body.warnings[0].message).to.match(/replaced by (sender|recipient)/);
    const layout = await layoutOf(res.body.id);
    expect(printed(layout.recipient)).to.equal(expected.recipient);
    expect(printed(layout.sender)).to.equal(expected.sender);
    expect(res.body.document.text).to.not.contain('Ailleurs').and.not.contain('Bellecour');
    const read = await call('GET', `/v1/mailings/${res.body.id}`, { key: account.testKey });
    expect(read.body.warnings).to.deep.equal(res.body.warnings);
    const [hook] = await receiver.until((r) => r.some((w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === res.body.id));
    void hook;
    const created = receiver.received.find((w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === res.body.id)!;
    expect(created.body.data.mailing.warnings).to.deep.equal(res.body.warnings);
    for (const bad of [
      { ...recipient, lines: ['1 place de la Comédie\nBâtiment B'] },
      { ...recipient, name: 'Mairie\tde Lyon' },
      { ...recipient, city: 'Lyon\r' },
    ]) {
      const res = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient: bad });
      expect(res.status, JSON.stringify(bad)).to.equal(422);
      expect(res.body.error.code).to.equal('address_invalid');
      expect(JSON.stringify(res.body.error.details)).to.contain('control character');
    }
  });

  it('GET serves a mailing from the process cache until it changes anywhere (a worker, another process)', async () => {
    const created = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    const get = () => call('GET', `/v1/mailings/${created.body.id}`, { key: account.testKey });
    expect((await get()).body.status).to.equal('paid');
    // What a worker's projection write does: committed elsewhere, announced on shipment_changed.
    await stack().db('shipments').where({ id: created.body.id }).update({ reference: 'changed-elsewhere' });
    const seen = await eventually(get, (r) => r.body.reference === 'changed-elsewhere', 2_000, 10);
    expect(seen.body.reference).to.equal('changed-elsewhere');
    // Another account never reads it, cached or not.
    const other = await createAccount();
    expect((await call('GET', `/v1/mailings/${created.body.id}`, { key: other.testKey })).status).to.equal(404);
  });

  it('GET of many different mailings at once: each caller gets its own (uncached reads go to Postgres together), an unknown id is 404', async () => {
    const ids = await Promise.all(
      Array.from(
        { length: 12 },
        async (_, i) => (await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient, reference: `MANY-${i}` })).body.id as string,
      ),
    );
    // Out of the cache: the next reads are uncached, asked in the same instant.
    await stack().db('shipments').whereIn('id', ids).update({ title: 'Relue' });
    const unknown = randomUUID();
    const answers = await Promise.all([...ids, unknown].map((id) => call('GET', `/v1/mailings/${id}`, { key: account.testKey })));
    for (const [i, id] of ids.entries()) {
      expect(answers[i]!.status).to.equal(200);
      expect(answers[i]!.body).to.include({ id, reference: `MANY-${i}` });
    }
    expect(answers.at(-1)!.status).to.equal(404);
  });

  it('402 without money: nothing is created', async () => {
    const poor = await createAccount({ balanceCents: 100 });
    const res = await post(poor.liveKey, { mode: 'ar', letter: freeLetter, sender, recipient });
    expect(res.status).to.equal(402);
    expect(await stack().db('shipments').where({ account_id: poor.id }).count('* as n').first()).to.deep.equal({ n: '0' });
    // Refused before anything started: no workflow for this account.
    const started = await stack().temporal.client.workflow.count(`AccountId = '${poor.id}'`);
    expect(started.count).to.equal(0);
  });

  it('parallel live mailings with money for two: two are recorded and paid, the others 402 with nothing recorded', async () => {
    const price = priceOf('mailing.ar');
    const pair = await createAccount({ balanceCents: 2 * price + 10 });
    // Every request sees enough money in the known balance; the debits decide.
    const results = await Promise.all(Array.from({ length: 5 }, () => post(pair.liveKey, { mode: 'ar', letter: freeLetter, sender, recipient })));
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 201, 402, 402, 402]);
    expect(results.filter((r) => r.status === 402).map((r) => r.body.error.code)).to.deep.equal([
      'insufficient_balance',
      'insufficient_balance',
      'insufficient_balance',
    ]);
    const mailings = await stack().db('shipments').where({ account_id: pair.id }).pluck('id');
    expect(mailings.sort()).to.deep.equal(
      results
        .filter((r) => r.status === 201)
        .map((r) => r.body.id)
        .sort(),
    );
    expect(await balanceOf(pair.id)).to.equal(10);
    const debits = await stack().db('ledger_entries').where({ account_id: pair.id, kind: 'debit' }).pluck('reference');
    expect(debits.sort()).to.deep.equal([...mailings].sort());
    // The two recorded run; a refused one never started (recorded first) or was ended at once
    // (started first, when Temporal's connection was not up yet).
    const { client } = stack().temporal;
    const running = await eventually(
      () => client.workflow.count(`AccountId = '${pair.id}' AND ExecutionStatus = 'Running'`),
      (c) => c.count === 2,
      5000,
    );
    expect(running.count).to.equal(2);
    expect((await client.workflow.count(`AccountId = '${pair.id}' AND ExecutionStatus != 'Terminated'`)).count).to.equal(2);
  });

  it('lists mailings most recent first with an opaque, stable cursor', async () => {
    const lister = await createAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await post(lister.testKey, { mode: 'simple', letter: freeLetter, sender, recipient, reference: `R${i % 2}` })).body.id);
    const first = await call('GET', '/v1/mailings?limit=2', { key: lister.testKey });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.data.map((s: { id: string }) => s.id)).to.deep.equal([ids[4], ids[3]]);
    expect(first.body.hasMore).to.equal(true);
    // A mailing added mid-walk appears neither twice nor in place of another.
    await post(lister.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
    const second = await call('GET', `/v1/mailings?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: lister.testKey });
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    expect(second.body.data.map((s: { id: string }) => s.id)).to.deep.equal([ids[2], ids[1]]);
    const third = await call('GET', `/v1/mailings?limit=2&cursor=${encodeURIComponent(second.body.nextCursor)}`, { key: lister.testKey });
    expect(third.body).to.deep.include({ hasMore: false, nextCursor: null });
    expect(third.body.data.map((s: { id: string }) => s.id)).to.deep.equal([ids[0]]);
    const filtered = await call('GET', '/v1/mailings?reference=R1', { key: lister.testKey });
    expect(filtered.body.data.map((s: { id: string }) => s.id)).to.deep.equal([ids[3], ids[1]]);
    const bad = await call('GET', '/v1/mailings?cursor=not-a-cursor', { key: lister.testKey });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('invalid_cursor');
  });
});
