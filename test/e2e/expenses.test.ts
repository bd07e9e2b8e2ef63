import { expect } from 'chai';
import { settle, splitCents, computeBalances } from '../../domain/calculations/expenses.js';
import type { ExpenseGroup } from '../../api/schemas/expenses.js';
import { call, createAccount } from '../support/api.js';

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Minimum transfers by brute force: try every partition into zero-sum groups. */
function bruteForceMinimum(balances: number[]): number {
  const values = balances.filter((b) => b !== 0);
  let best = 0;
  function search(rest: number[], groups: number): void {
    if (rest.length === 0) {
      best = Math.max(best, groups);
      return;
    }
    const [first, ...others] = rest;
    // choose the group containing `first`: every subset of the others
    const count = 1 << others.length;
    for (let mask = 0; mask < count; mask++) {
      let sum = first!;
      const remaining: number[] = [];
      others.forEach((v, i) => (mask & (1 << i) ? (sum += v) : remaining.push(v)));
      if (sum === 0) search(remaining, groups + 1);
    }
  }
  search(values, 0);
  return values.length - best;
}

function randomGroup(next: () => number, members: number, expenses: number): ExpenseGroup {
  const ids = Array.from({ length: members }, (_, i) => `m${i}`);
  return {
    members: ids.map((id) => ({ id })),
    expenses: Array.from({ length: expenses }, () => {
      const amountCents = 1 + Math.floor(next() * 10_000);
      const shared = ids.filter(() => next() < 0.6);
      return { amountCents, paidBy: ids[Math.floor(next() * members)]!, split: { mode: 'equal' as const, members: shared.length ? shared : ids } };
    }),
  };
}

function applyTransfers(result: ReturnType<typeof settle>): Map<string, number> {
  const balance = new Map(result.balances.map((b) => [b.member, b.balanceCents]));
  for (const t of result.transfers) {
    balance.set(t.from, balance.get(t.from)! + t.amountCents);
    balance.set(t.to, balance.get(t.to)! - t.amountCents);
  }
  return balance;
}

describe('expense settlement', () => {
  it('splits cents by largest remainder without losing or inventing any', () => {
    expect(splitCents(100, [1, 1, 1])).to.deep.equal([34, 33, 33]);
    expect(splitCents(1000, [1, 2])).to.deep.equal([333, 667]);
    const next = random(7);
    for (let i = 0; i < 500; i++) {
      const weights = Array.from({ length: 1 + Math.floor(next() * 9) }, () => Math.floor(next() * 5) + (i % 3 === 0 ? 0.5 : 0));
      if (!weights.some((w) => w > 0)) continue;
      const total = Math.floor(next() * 1_000_000);
      expect(splitCents(total, weights).reduce((a, b) => a + b, 0)).to.equal(total);
    }
  });

  it('property: balances sum to zero, transfers settle everything, and the count is the brute-force minimum', () => {
    const next = random(42);
    for (let round = 0; round < 150; round++) {
      const group = randomGroup(next, 2 + Math.floor(next() * 7), 1 + Math.floor(next() * 8));
      const result = settle(group);
      expect(result.balances.reduce((a, b) => a + b.balanceCents, 0)).to.equal(0);
      for (const [, left] of applyTransfers(result)) expect(left).to.equal(0);
      expect(result.transfers.every((t) => t.amountCents > 0 && t.from !== t.to)).to.equal(true);
      expect(result.transferCount).to.equal(bruteForceMinimum(result.balances.map((b) => b.balanceCents)));
    }
  });

  it('finds zero-sum sub-groups that the greedy heuristic misses', () => {
    // +5 −5 and +7 −7 settle in 2 transfers; largest-first greedy pairs 7 with −5 and needs 3.
    const group: ExpenseGroup = {
      members: ['a', 'b', 'c', 'd'].map((id) => ({ id })),
      expenses: [
        { amountCents: 500, paidBy: 'a', split: { mode: 'amounts', amounts: { b: 500 } } },
        { amountCents: 700, paidBy: 'c', split: { mode: 'amounts', amounts: { d: 700 } } },
        { amountCents: 600, paidBy: 'b', split: { mode: 'amounts', amounts: { a: 100, d: 500 } } },
      ],
    };
    const result = settle(group);
    expect(result.transferCount).to.equal(bruteForceMinimum(result.balances.map((b) => b.balanceCents)));
    expect(result.method).to.equal('exact');
  });

  it('settles 20 non-zero balances exactly', () => {
    const balances = [1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8, -8, 9, -9, 10, -10].map((b) => b * 100 + 7 * Math.sign(b));
    const members = balances.map((_, i) => ({ id: `p${i}` }));
    const expenses = balances.flatMap((b, i) =>
      b > 0 ? [{ amountCents: b, paidBy: `p${i}`, split: { mode: 'amounts' as const, amounts: { [`p${i + 1}`]: b } } }] : [],
    );
    const result = settle({ members, expenses });
    expect(result.method).to.equal('exact');
    expect(result.transferCount).to.equal(10);
  });

  it('422 for a member that does not exist or amounts that do not add up', () => {
    const members = [{ id: 'a' }, { id: 'b' }];
    expect(() => computeBalances({ members, expenses: [{ amountCents: 10, paidBy: 'z', split: { mode: 'equal' } }] })).to.throw('Unknown member "z"');
    expect(() => computeBalances({ members, expenses: [{ amountCents: 10, paidBy: 'a', split: { mode: 'amounts', amounts: { a: 3, b: 3 } } }] })).to.throw(
      'add up to 6',
    );
  });

  it('serves POST /v1/expenses/settle with a clear 422 for inconsistent groups', async () => {
    const { testKey } = await createAccount();
    const ok = await call('POST', '/v1/expenses/settle', {
      key: testKey,
      body: { members: [{ id: 'ana' }, { id: 'ben' }], expenses: [{ label: 'Train', amountCents: 5001, paidBy: 'ana' }] },
    });
    expect(ok.status).to.equal(200);
    expect(ok.body.transfers).to.deep.equal([{ from: 'ben', to: 'ana', amountCents: 2500 }]);
    expect(ok.body.balances.map((b: { shareCents: number }) => b.shareCents)).to.deep.equal([2501, 2500]);
    const bad = await call('POST', '/v1/expenses/settle', {
      key: testKey,
      body: { members: [{ id: 'ana' }, { id: 'ben' }], expenses: [{ amountCents: 10, paidBy: 'zoe' }] },
    });
    expect(bad.status).to.equal(422);
    expect(bad.body.error).to.deep.include({ code: 'unprocessable', details: { field: 'expenses.0.paidBy', member: 'zoe' } });
  });
});
