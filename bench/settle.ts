import { settle } from '../domain/calculations/expenses.js';
import type { ExpenseGroup } from '../api/schemas/expenses.js';
import { summary } from './stats.js';

/** Deterministic pseudo-random numbers (the same groups every run). */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** A group whose n members end with the given non-zero balances (members pay each other). */
function groupWithBalances(balances: number[]): ExpenseGroup {
  const members = balances.map((_, i) => ({ id: `m${i}` }));
  const debtors = balances.map((b, i) => ({ i, b })).filter((x) => x.b < 0);
  // Each creditor pays for the share of one debtor until every balance is reached.
  const expenses: ExpenseGroup['expenses'] = [];
  const owed = debtors.map((d) => ({ ...d, b: -d.b }));
  balances.forEach((b, i) => {
    let left = b;
    while (left > 0) {
      const d = owed.find((x) => x.b > 0)!;
      const amount = Math.min(left, d.b);
      expenses.push({ amountCents: amount, paidBy: `m${i}`, split: { mode: 'amounts', amounts: { [`m${d.i}`]: amount } } });
      left -= amount;
      d.b -= amount;
    }
  });
  return { members, expenses };
}

/** Balances that often hide zero-sum sub-groups, as real groups do (round amounts). */
function randomBalances(next: () => number, n: number): number[] {
  const values = Array.from({ length: n - 1 }, () => (Math.floor(next() * 20) - 10 || 1) * 500);
  const last = -values.reduce((a, b) => a + b, 0);
  return last === 0 ? randomBalances(next, n) : [...values, last];
}

/** The usual heuristic: the largest debtor pays the largest creditor, again and again. */
function greedyCount(balances: number[]): number {
  const b = balances.filter((x) => x !== 0);
  let count = 0;
  for (;;) {
    const max = b.reduce((m, x, i) => (x > b[m]! ? i : m), 0);
    const min = b.reduce((m, x, i) => (x < b[m]! ? i : m), 0);
    if (b[max]! <= 0) return count;
    const amount = Math.min(b[max]!, -b[min]!);
    b[max]! -= amount;
    b[min]! += amount;
    count += 1;
  }
}

export function benchSettle(): string[] {
  const next = random(2026);
  const lines: string[] = [];
  for (const n of [10, 15, 20]) {
    const times: number[] = [];
    let ours = 0;
    let greedy = 0;
    let better = 0;
    const groups = n === 20 ? 10 : 30;
    for (let g = 0; g < groups; g++) {
      const balances = randomBalances(next, n);
      const group = groupWithBalances(balances);
      const started = performance.now();
      const result = settle(group);
      times.push(performance.now() - started);
      const open = result.balances.filter((x) => x.balanceCents !== 0).length;
      if (open !== n) throw new Error(`expected ${n} non-zero balances, got ${open}`);
      const heuristic = greedyCount(result.balances.map((x) => x.balanceCents));
      ours += result.transferCount;
      greedy += heuristic;
      if (result.transferCount < heuristic) better += 1;
    }
    const s = summary(times);
    lines.push(
      `settle ${n} non-zero balances (${groups} groups): p50 ${s.p50.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; transfers: ours ${(ours / groups).toFixed(2)} vs greedy ${(greedy / groups).toFixed(2)} on average, fewer in ${better}/${groups} groups`,
    );
  }
  return lines;
}
