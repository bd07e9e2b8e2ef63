import { admin } from '../support/admin.js';
import { expect } from 'chai';
import { balanceOf, call, createAccount, createKey, exhaustFreeQuota, type TestAccount } from '../support/api.js';

const request = (n: number) => ({ kind: 'letter', title: `Lettre demandée n° ${n}`, description: "Résiliation d'un contrat de maintenance de chaudière." });

describe('service requests', function () {
  this.timeout(60_000);
  let account: TestAccount;
  beforeEach(async () => {
    account = await createAccount({ balanceCents: 500 });
  });

  it('creates a request (201, status received) without billing, even on a live key past the free quota', async () => {
    await exhaustFreeQuota(account.id);
    const res = await call('POST', '/v1/requests', {
      key: account.liveKey,
      body: {
        kind: 'calculator',
        title: ' Indemnité de rupture conventionnelle ',
        description: "Calculer le minimum légal selon l'ancienneté.",
        example: '5 ans, 2 500 €',
        useCase: 'Un outil RH',
        contactEmail: 'rh@example.fr',
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({
      kind: 'calculator',
      title: 'Indemnité de rupture conventionnelle',
      status: 'received',
      statusNote: null,
      contactEmail: 'rh@example.fr',
      useCase: 'Un outil RH',
    });
    expect(res.body.id).to.match(/^[0-9a-f-]{36}$/);
    expect(res.body.createdAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await balanceOf(account.id)).to.equal(500);
  });

  it('refuses invalid input with the fields in error', async () => {
    for (const body of [
      {},
      { ...request(1), kind: 'quote' },
      { ...request(1), title: 'ab' },
      { ...request(1), description: 'x'.repeat(5001) },
      { ...request(1), contactEmail: 'nope' },
      { ...request(1), extra: 1 },
    ]) {
      const res = await call('POST', '/v1/requests', { key: account.testKey, body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
  });

  it('replays an idempotent creation and refuses the key for another request', async () => {
    const headers = { 'Idempotency-Key': `req-${account.id}` };
    const first = await call('POST', '/v1/requests', { key: account.testKey, body: request(1), headers });
    const again = await call('POST', '/v1/requests', { key: account.testKey, body: request(1), headers });
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.id).to.equal(first.body.id);
    const other = await call('POST', '/v1/requests', { key: account.testKey, body: request(2), headers });
    expect(other.status).to.equal(422);
    expect(other.body.error.code).to.equal('idempotency_key_reused');
    const list = await call('GET', '/v1/requests', { key: account.testKey });
    expect(list.body.data).to.have.length(1);
  });

  it("lists the account's requests most recent first, with a stable cursor", async () => {
    for (let n = 1; n <= 5; n++) await call('POST', '/v1/requests', { key: account.testKey, body: request(n) });
    const other = await createAccount();
    await call('POST', '/v1/requests', { key: other.testKey, body: request(99) });
    const first = await call('GET', '/v1/requests?limit=2', { key: account.liveKey });
    expect(first.status).to.equal(200);
    expect(first.body.data.map((r: { title: string }) => r.title)).to.deep.equal(['Lettre demandée n° 5', 'Lettre demandée n° 4']);
    expect(first.body.hasMore).to.equal(true);
    // A request added during the walk appears on no later page: neither duplicate nor gap.
    await call('POST', '/v1/requests', { key: account.testKey, body: request(6) });
    const second = await call('GET', `/v1/requests?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: account.testKey });
    expect(second.body.data.map((r: { title: string }) => r.title)).to.deep.equal(['Lettre demandée n° 3', 'Lettre demandée n° 2']);
    const third = await call('GET', `/v1/requests?limit=2&cursor=${encodeURIComponent(second.body.nextCursor)}`, { key: account.testKey });
    expect(third.body).to.deep.include({ hasMore: false, nextCursor: null });
    expect(third.body.data.map((r: { title: string }) => r.title)).to.deep.equal(['Lettre demandée n° 1']);
  });

  it('400 invalid_cursor for an unreadable cursor or one from another list; 400 for a bad limit', async () => {
    for (let n = 1; n <= 2; n++) await call('POST', '/v1/requests', { key: account.testKey, body: request(n) });
    const page = await call('GET', '/v1/requests?limit=1', { key: account.testKey });
    const other = await createAccount();
    for (const cursor of ['garbage', page.body.nextCursor.slice(0, -2) + 'AA']) {
      const res = await call('GET', `/v1/requests?cursor=${encodeURIComponent(cursor)}`, { key: account.testKey });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_cursor');
    }
    const foreign = await call('GET', `/v1/requests?cursor=${encodeURIComponent(page.body.nextCursor)}`, { key: other.testKey });
    expect(foreign.body.error.code).to.equal('invalid_cursor');
    expect((await call('GET', `/v1/requests?cursor=${'a'.repeat(201)}`, { key: account.testKey })).status).to.equal(400);
    expect((await call('GET', '/v1/requests?limit=101', { key: account.testKey })).status).to.equal(400);
  });

  it('needs requests:write to create and requests:read to list', async () => {
    const readOnly = await createKey(account.id, 'test', ['requests:read']);
    const writeOnly = await createKey(account.id, 'test', ['requests:write']);
    expect((await call('POST', '/v1/requests', { key: readOnly, body: request(1) })).body.error.code).to.equal('insufficient_scope');
    expect((await call('GET', '/v1/requests', { key: writeOnly })).body.error.code).to.equal('insufficient_scope');
    expect((await call('POST', '/v1/requests', { key: writeOnly, body: request(1) })).status).to.equal(201);
    expect((await call('GET', '/v1/requests', { key: readOnly })).status).to.equal(200);
  });

  it('moves through its review with the admin CLI; the user sees the status and note', async () => {
    const created = await call('POST', '/v1/requests', { key: account.testKey, body: request(1) });
    const listed = await admin(['request', 'list', '--status', 'received', '--account', account.id]);
    expect(listed.code).to.equal(0);
    expect(listed.json.data.map((r: { id: string }) => r.id)).to.deep.equal([created.body.id]);
    const planned = await admin(['request', 'set-status', '--id', created.body.id, '--status', 'planned', '--note', 'Prévu pour janvier.']);
    expect(planned.code).to.equal(0);
    expect(planned.json).to.include({ id: created.body.id, status: 'planned', statusNote: 'Prévu pour janvier.', accountId: account.id });
    const seen = await call('GET', '/v1/requests', { key: account.testKey });
    expect(seen.body.data[0]).to.include({ status: 'planned', statusNote: 'Prévu pour janvier.' });
    expect(Date.parse(seen.body.data[0].updatedAt)).to.be.greaterThan(Date.parse(seen.body.data[0].createdAt));
    const refused = await admin(['request', 'set-status', '--id', created.body.id, '--status', 'done']);
    expect(refused.code).to.equal(1);
    expect(refused.json.error.code).to.equal('invalid_arguments');
    const unknown = await admin(['request', 'set-status', '--id', '00000000-0000-4000-8000-000000000000', '--status', 'declined']);
    expect(unknown.code).to.equal(2);
    expect(unknown.json.error.code).to.equal('not_found');
  });
});
