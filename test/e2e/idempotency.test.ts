import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { balanceOf, call, createAccount, exhaustFreeQuota, expenseGroup, IsolatedServices, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';

const settle = (key: string, idempotencyKey: string, amountCents = 3000) =>
  call('POST', '/v1/expenses/settle', { key, body: expenseGroup(amountCents), headers: { 'idempotency-key': idempotencyKey } });

async function debits(accountId: string): Promise<number> {
  const [{ count }] = await stack().db('ledger_entries').where({ account_id: accountId, kind: 'debit' }).count('* as count');
  return Number(count);
}

describe('idempotency', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await createAccount({ balanceCents: 100 });
    await exhaustFreeQuota(account.id);
  });

  it('validates the Idempotency-Key header (1-255 printable ASCII)', async () => {
    for (const bad of ['x'.repeat(256), 'clé-accentuée', 'tab\there']) {
      const res = await settle(account.liveKey, bad);
      expect(res.status, bad).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
    expect((await settle(account.liveKey, 'x'.repeat(255))).status).to.equal(200);
  });

  it('replays the first response with Idempotent-Replayed: true and debits once', async () => {
    const key = randomUUID();
    const first = await settle(account.liveKey, key);
    expect(first.status).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const again = await settle(account.liveKey, key);
    expect(again.status).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.text).to.equal(first.text);
    expect(await debits(account.id)).to.equal(1);
    expect(await balanceOf(account.id)).to.equal(99);
    expect(again.headers.get('x-service-balance')).to.equal('99');
  });

  it('treats the same JSON with other key order and spacing as the same request', async () => {
    const key = randomUUID();
    const body = expenseGroup() as Record<string, unknown>;
    const reordered = JSON.stringify({ expenses: body.expenses, members: body.members }, null, 2);
    await settle(account.liveKey, key);
    const res = await call('POST', '/v1/expenses/settle', {
      key: account.liveKey,
      rawBody: reordered,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(res.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('422 idempotency_key_reused for a different request under the same key', async () => {
    const key = randomUUID();
    await settle(account.liveKey, key, 3000);
    const res = await settle(account.liveKey, key, 4000);
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('idempotency_key_reused');
    expect(await debits(account.id)).to.equal(1);
  });

  it('409 idempotency_in_progress while the first request is still running', async () => {
    const key = randomUUID();
    const { db } = stack();
    // Hold the account row: the first request takes its idempotency claim, then waits on its debit.
    // (NO KEY UPDATE leaves foreign-key checks free, so only the balance update waits.)
    const trx = await db.transaction();
    await trx('accounts').where({ id: account.id }).forNoKeyUpdate().first();
    const first = settle(account.liveKey, key);
    let claimed = false;
    for (let i = 0; i < 100 && !claimed; i++) {
      claimed = Boolean(await db('idempotency_keys').where({ account_id: account.id, key, state: 'running' }).first());
      if (!claimed) await new Promise((r) => setTimeout(r, 20));
    }
    expect(claimed).to.equal(true);
    const second = await settle(account.liveKey, key);
    expect(second.status).to.equal(409);
    expect(second.body.error.code).to.equal('idempotency_in_progress');
    await trx.commit();
    expect((await first).status).to.equal(200);
    expect((await settle(account.liveKey, key)).headers.get('idempotent-replayed')).to.equal('true');
    expect(await debits(account.id)).to.equal(1);
  });

  it('never executes concurrent identical requests twice', async () => {
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => settle(account.liveKey, key)));
    const executed = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    expect(executed).to.have.length(1);
    for (const r of results) {
      expect(r.status === 409 || r.headers.get('idempotent-replayed') === 'true' || r === executed[0]).to.equal(true);
    }
    expect(await debits(account.id)).to.equal(1);
    expect(await balanceOf(account.id)).to.equal(99);
  });

  it('scopes keys to the account', async () => {
    const other = await createAccount({ balanceCents: 100 });
    await exhaustFreeQuota(other.id);
    const key = randomUUID();
    expect((await settle(account.liveKey, key, 3000)).status).to.equal(200);
    const res = await settle(other.liveKey, key, 5000);
    expect(res.status).to.equal(200);
    expect(res.headers.get('idempotent-replayed')).to.equal(null);
    expect(res.body.totalCents).to.equal(5000);
  });

  it('scopes keys to the mode: a test call and a live call never share a key, in either order', async () => {
    const rich = await createAccount({ balanceCents: 10_000 });
    const body = { mode: 'simple', letter: freeLetter, sender, recipient };
    const mail = (apiKey: string, idempotencyKey: string) =>
      call('POST', '/v1/mailings', { key: apiKey, body, headers: { 'idempotency-key': idempotencyKey } });
    for (const [first, second] of [
      [rich.testKey, rich.liveKey],
      [rich.liveKey, rich.testKey],
    ] as const) {
      const key = randomUUID();
      const a = await mail(first, key);
      const b = await mail(second, key);
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(b.headers.get('idempotent-replayed')).to.equal(null);
      expect(b.body.id).to.not.equal(a.body.id);
      expect(b.body.test).to.equal(second === rich.testKey);
      expect(b.body.amountCents > 0).to.equal(second === rich.liveKey);
      // Each mode still replays its own.
      const again = await mail(second, key);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.id).to.equal(b.body.id);
    }
  });

  it('keeps a key 24 hours, then lets it be used again', async () => {
    const key = randomUUID();
    await settle(account.liveKey, key, 3000);
    await stack()
      .db('idempotency_keys')
      .where({ account_id: account.id, key })
      .update({ created_at: stack().db.raw("now() - interval '23 hours 59 minutes'") });
    expect((await settle(account.liveKey, key, 4000)).status).to.equal(422);
    await stack()
      .db('idempotency_keys')
      .where({ account_id: account.id, key })
      .update({ created_at: stack().db.raw("now() - interval '24 hours 1 minute'") });
    const fresh = await settle(account.liveKey, key, 4000);
    expect(fresh.status).to.equal(200);
    expect(fresh.body.totalCents).to.equal(4000);
  });

  it('does not keep failed requests: a retry after a 402 runs', async () => {
    const poor = await createAccount({ balanceCents: 0 });
    await exhaustFreeQuota(poor.id);
    const key = randomUUID();
    expect((await settle(poor.liveKey, key)).status).to.equal(402);
    const { topUp } = await import('../../domain/billing/ledger.js');
    await topUp(stack().db, poor.id, 10);
    const retry = await settle(poor.liveKey, key);
    expect(retry.status).to.equal(200);
    expect(retry.headers.get('idempotent-replayed')).to.equal(null);
  });
});

describe('idempotency of paid work done outside the database', function () {
  this.timeout(30_000);
  const failingKey = `fail-save-${randomUUID()}`;
  before(async () => {
    // The store refuses to keep this key's answer, as a database failure at that moment would.
    await stack().db.raw(`
      CREATE OR REPLACE FUNCTION test_refuse_answer() RETURNS trigger AS $$
      BEGIN
        IF NEW.state = 'done' AND NEW.key LIKE 'fail-save-%' THEN RAISE EXCEPTION 'test: answer not stored'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await stack().db.raw(`CREATE TRIGGER test_refuse_answer BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION test_refuse_answer()`);
  });
  after(async () => {
    await stack().db.raw(`DROP TRIGGER IF EXISTS test_refuse_answer ON idempotency_keys`);
    await stack().db.raw(`DROP FUNCTION IF EXISTS test_refuse_answer()`);
  });

  it('credits the charge back when the answer cannot be stored, so a retry never pays twice', async () => {
    const account = await createAccount({ balanceCents: 1000 });
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    const res = await call('POST', '/v1/calculators/date-fin-preavis/compute', {
      key: account.liveKey,
      body: { inputs: { noticeType: 'bail-vide-3-mois', receiptDate: '2025-02-10' } },
      headers: { 'idempotency-key': failingKey },
    });
    expect(res.status).to.be.at.least(500);
    expect(await balanceOf(account.id)).to.equal(before);
    const kinds = (await stack().db('ledger_entries').where({ account_id: account.id }).orderBy('id').select('kind')).map((e) => e.kind);
    expect(kinds).to.deep.equal(['topup', 'debit', 'refund']);
  });
});

describe('a paid request whose process died between the debit and its stored answer', function () {
  this.timeout(30_000);

  it('is refunded by the retry that takes its claim over, which then pays once', async () => {
    const account = await createAccount({ balanceCents: 1000 });
    await exhaustFreeQuota(account.id);
    const key = randomUUID();
    const body = { inputs: { noticeType: 'bail-vide-3-mois', receiptDate: '2025-02-10' } };
    const compute = () => call('POST', '/v1/calculators/date-fin-preavis/compute', { key: account.liveKey, body, headers: { 'idempotency-key': key } });
    // What the dead process left: a running claim past its lease, and the debit it recorded.
    const first = await compute();
    expect(first.status).to.equal(200);
    const price = 1000 - (await balanceOf(account.id));
    expect(price).to.be.above(0);
    const [entry] = await stack().db('ledger_entries').where({ account_id: account.id, kind: 'debit' }).select('id');
    await stack()
      .db('idempotency_keys')
      .where({ account_id: account.id, key })
      .update({
        state: 'running',
        locked_until: stack().db.raw(`now() - interval '1 second'`),
        response_status: null,
        response_body: null,
        charge: JSON.stringify({ amountCents: price, balanceCents: 1000 - price, ledgerEntryId: Number(entry.id), unit: 'calculation', reference: null }),
      });
    const retry = await compute();
    expect(retry.status).to.equal(200);
    expect(retry.headers.get('idempotent-replayed')).to.equal(null);
    // Paid once in all: the orphaned debit was given back before the retry paid.
    expect(await balanceOf(account.id)).to.equal(1000 - price);
    const kinds = (await stack().db('ledger_entries').where({ account_id: account.id }).orderBy('id').select('kind')).map((e) => e.kind);
    expect(kinds).to.deep.equal(['topup', 'debit', 'refund', 'debit']);
    // And the claim keeps no charge once its answer is stored.
    expect((await stack().db('idempotency_keys').where({ account_id: account.id, key }).first('charge')).charge).to.equal(null);
  });
});

describe('a request that outlasts IDEMPOTENCY_LEASE (here 1 s)', function () {
  this.timeout(60_000);
  const services = new IsolatedServices({ IDEMPOTENCY_LEASE: '1s', LOG_LEVEL: 'warn' });
  before(() => services.start());
  after(() => services.stop());

  const settleThere = (key: string, idempotencyKey: string) =>
    call('POST', '/v1/expenses/settle', { key, body: expenseGroup(3000), headers: { 'idempotency-key': idempotencyKey }, baseUrl: services.api.url });

  /** Holds the account row: a request that takes its claim then waits on its debit. */
  async function heldAccount(accountId: string) {
    const trx = await stack().db.transaction();
    await trx('accounts').where({ id: accountId }).forNoKeyUpdate().first();
    return trx;
  }

  async function claimRow(accountId: string, key: string) {
    for (let i = 0; i < 200; i++) {
      const row = await stack().db('idempotency_keys').where({ account_id: accountId, key, state: 'running' }).first('claim_token', 'locked_until');
      if (row) return row as { claim_token: string; locked_until: Date };
      await sleep(20);
    }
    throw new Error('the first request never took its claim');
  }

  it('keeps its key while it runs (its claim renewed): retries get 409 long past the lease, and it runs once', async () => {
    const account = await createAccount({ balanceCents: 100 });
    await exhaustFreeQuota(account.id);
    const key = randomUUID();
    const trx = await heldAccount(account.id);
    const first = settleThere(account.liveKey, key);
    const claimed = await claimRow(account.id, key);
    // Three leases later, the claim is still the first request's, and still ahead of now.
    await sleep(3000);
    const retry = await settleThere(account.liveKey, key);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(409);
    expect(retry.body.error.code).to.equal('idempotency_in_progress');
    const now = await claimRow(account.id, key);
    expect(now.claim_token).to.equal(claimed.claim_token);
    expect(now.locked_until.getTime()).to.be.above(claimed.locked_until.getTime());
    await trx.commit();
    expect((await first).status).to.equal(200);
    expect((await settleThere(account.liveKey, key)).headers.get('idempotent-replayed')).to.equal('true');
    expect(await debits(account.id)).to.equal(1);
  });

  it('stores nothing once its claim was taken over: its debit is rolled back, and the key stays the taker’s', async () => {
    const account = await createAccount({ balanceCents: 100 });
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    const key = randomUUID();
    const trx = await heldAccount(account.id);
    const first = settleThere(account.liveKey, key);
    await claimRow(account.id, key);
    // What a retry writes when it takes a claim over (a process stalled past its whole lease): its own token.
    const taker = randomUUID();
    await stack().db('idempotency_keys').where({ account_id: account.id, key }).update({ claim_token: taker });
    await trx.commit();
    const answer = await first;
    expect(answer.status, JSON.stringify(answer.body)).to.be.at.least(500);
    expect(await balanceOf(account.id)).to.equal(before);
    expect(await debits(account.id)).to.equal(0);
    // The first request released nothing of the taker's: the key is still running under its token.
    expect(await stack().db('idempotency_keys').where({ account_id: account.id, key }).first('state', 'claim_token')).to.deep.equal({
      state: 'running',
      claim_token: taker,
    });
  });
});
