import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { balanceOf, call, createAccount, exhaustFreeQuota, expenseGroup } from '../support/api.js';
import { stack } from '../support/stack.js';
import { catalogueDir } from '../../lib/paths.js';

const settle = (key: string) => call('POST', '/v1/expenses/settle', { key, body: expenseGroup() });
const prices = JSON.parse(readFileSync(join(catalogueDir, 'prices.json'), 'utf8'));
const calculationPrice: number = prices.units.find((u: { unit: string }) => u.unit === 'calculation').amountCents;

async function ledger(accountId: string) {
  return stack().db('ledger_entries').where({ account_id: accountId }).orderBy('id');
}

describe('prepaid billing', () => {
  it('402 insufficient_balance executes nothing and debits nothing', async () => {
    const account = await createAccount({ balanceCents: 0 });
    await exhaustFreeQuota(account.id);
    const res = await settle(account.liveKey);
    expect(res.status).to.equal(402);
    expect(res.body.error.code).to.equal('insufficient_balance');
    expect(res.body.error.details).to.deep.equal({ requiredCents: calculationPrice, balanceCents: 0 });
    expect(res.headers.get('x-service-balance')).to.equal('0');
    expect(await ledger(account.id)).to.have.length(0);
    expect(await balanceOf(account.id)).to.equal(0);
  });

  it('debits the catalogue price before execution and reports the new balance', async () => {
    const account = await createAccount({ balanceCents: 50 });
    await exhaustFreeQuota(account.id);
    const res = await settle(account.liveKey);
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-service-balance')).to.equal(String(50 - calculationPrice));
    const rows = await ledger(account.id);
    expect(rows.map((r) => [r.kind, Number(r.amount_cents), Number(r.balance_after_cents), r.unit])).to.deep.equal([
      ['topup', 50, 50, null],
      ['debit', -calculationPrice, 50 - calculationPrice, 'calculation'],
    ]);
  });

  it('gives 500 free data and calculation calls per month, then bills', async () => {
    const account = await createAccount({ balanceCents: 10 });
    await stack().db.raw(`INSERT INTO usage_counters (account_id, period, count) VALUES (?, to_char(now() AT TIME ZONE 'Europe/Paris', 'YYYY-MM'), 498)`, [
      account.id,
    ]);
    expect((await settle(account.liveKey)).headers.get('x-service-balance')).to.equal('10'); // 499th
    expect((await settle(account.liveKey)).headers.get('x-service-balance')).to.equal('10'); // 500th
    expect((await settle(account.liveKey)).headers.get('x-service-balance')).to.equal(String(10 - calculationPrice)); // 501st
  });

  it('never bills test keys', async () => {
    const account = await createAccount({ balanceCents: 0 });
    await exhaustFreeQuota(account.id);
    for (let i = 0; i < 3; i++) expect((await settle(account.testKey)).status).to.equal(200);
    expect(await balanceOf(account.id)).to.equal(0);
    expect(await ledger(account.id)).to.have.length(0);
  });

  it('balance race: with money for K of N parallel calls, exactly K succeed and the balance never goes negative', async () => {
    const K = 7;
    const N = 30;
    const account = await createAccount({ balanceCents: K * calculationPrice });
    await exhaustFreeQuota(account.id);
    const results = await Promise.all(Array.from({ length: N }, () => settle(account.liveKey)));
    expect(results.filter((r) => r.status === 200)).to.have.length(K);
    expect(results.filter((r) => r.status === 402)).to.have.length(N - K);
    expect(await balanceOf(account.id)).to.equal(0);
    const rows = await ledger(account.id);
    expect(rows.reduce((sum, r) => sum + Number(r.amount_cents), 0)).to.equal(0);
    expect(rows.every((r) => Number(r.balance_after_cents) >= 0)).to.equal(true);
  });

  it('keeps the ledger append-only', async () => {
    const account = await createAccount({ balanceCents: 10 });
    const [row] = await ledger(account.id);
    let error: unknown;
    try {
      await stack().db('ledger_entries').where({ id: row.id }).update({ amount_cents: 1_000_000 });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.include('append-only');
  });
});
