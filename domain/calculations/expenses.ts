import { unprocessable } from '../errors.js';

/** The body of POST /v1/expenses/settle, once validated (api/schemas/expenses.ts). */
export interface ExpenseGroup {
  members: { id: string; name?: string }[];
  expenses: {
    label?: string;
    amountCents: number;
    paidBy: string;
    split: { mode: 'equal' | 'shares' | 'amounts'; members?: string[]; shares?: Record<string, number>; amounts?: Record<string, number> };
  }[];
}

export interface Transfer {
  from: string;
  to: string;
  amountCents: number;
}

export interface Settlement {
  currency: 'EUR';
  totalCents: number;
  balances: { member: string; paidCents: number; shareCents: number; balanceCents: number }[];
  transfers: Transfer[];
  transferCount: number;
  method: 'exact' | 'heuristic';
}

/** Beyond this many non-zero balances the exact search (2^n states) is too slow for one request. */
export const EXACT_LIMIT = 22;

/**
 * Splits `total` cents in proportion to `weights` without losing or inventing a cent: each part is
 * rounded down, then the leftover cents go one each to the largest remainders, ties to the earlier
 * member in the list (largest-remainder method).
 */
export function splitCents(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/** Each member's paid and owed totals; 422 when an expense names an unknown member or does not add up. */
export function computeBalances(group: ExpenseGroup): Settlement['balances'] {
  const ids = group.members.map((m) => m.id);
  const index = new Map(ids.map((id, i) => [id, i]));
  if (index.size !== ids.length) throw unprocessable('Member ids must be unique.', { field: 'members' });
  const paid = ids.map(() => 0);
  const share = ids.map(() => 0);
  const known = (id: string, field: string): number => {
    const i = index.get(id);
    if (i === undefined) throw unprocessable(`Unknown member "${id}" in ${field}.`, { field, member: id });
    return i;
  };
  group.expenses.forEach((expense, e) => {
    paid[known(expense.paidBy, `expenses.${e}.paidBy`)]! += expense.amountCents;
    const split = expense.split;
    const field = `expenses.${e}.split`;
    let who: string[];
    let parts: number[];
    if (split.mode === 'amounts') {
      who = Object.keys(split.amounts ?? {});
      parts = who.map((id) => split.amounts![id]!);
      const sum = parts.reduce((a, b) => a + b, 0);
      if (sum !== expense.amountCents) throw unprocessable(`The amounts of expense ${e} add up to ${sum} cents, not ${expense.amountCents}.`, { field });
    } else if (split.mode === 'shares') {
      who = Object.keys(split.shares ?? {});
      const weights = who.map((id) => split.shares![id]!);
      if (!weights.some((w) => w > 0)) throw unprocessable(`Expense ${e} has no positive share.`, { field });
      parts = splitCents(expense.amountCents, weights);
    } else {
      who = split.members ?? ids;
      if (new Set(who).size !== who.length) throw unprocessable(`Expense ${e} lists a member twice.`, { field });
      parts = splitCents(
        expense.amountCents,
        who.map(() => 1),
      );
    }
    if (who.length === 0) throw unprocessable(`Expense ${e} is shared by nobody.`, { field });
    who.forEach((id, k) => {
      share[known(id, field)]! += parts[k]!;
    });
  });
  return ids.map((member, i) => ({ member, paidCents: paid[i]!, shareCents: share[i]!, balanceCents: paid[i]! - share[i]! }));
}

/** Settles one zero-sum group: each transfer clears at least one member, so n members need n - 1. */
function settleGroup(members: { id: string; balance: number }[]): Transfer[] {
  const creditors = members.filter((m) => m.balance > 0).map((m) => ({ ...m }));
  const debtors = members.filter((m) => m.balance < 0).map((m) => ({ ...m, balance: -m.balance }));
  const transfers: Transfer[] = [];
  let c = 0;
  let d = 0;
  while (c < creditors.length && d < debtors.length) {
    const amount = Math.min(creditors[c]!.balance, debtors[d]!.balance);
    transfers.push({ from: debtors[d]!.id, to: creditors[c]!.id, amountCents: amount });
    creditors[c]!.balance -= amount;
    debtors[d]!.balance -= amount;
    if (creditors[c]!.balance === 0) c++;
    if (debtors[d]!.balance === 0) d++;
  }
  return transfers;
}

/**
 * Minimum number of transfers = n − (largest number of disjoint zero-sum groups the n non-zero
 * balances split into). Dynamic programming over subsets finds that split exactly: best[mask] is
 * the most zero-sum groups that the members of `mask` can be removed in, one at a time.
 */
function zeroSumGroups(balances: number[]): number[][] {
  const n = balances.length;
  const size = 1 << n;
  const sum = new Float64Array(size);
  const best = new Int8Array(size);
  for (let mask = 1; mask < size; mask++) {
    const low = mask & -mask;
    sum[mask] = sum[mask ^ low]! + balances[31 - Math.clz32(low)]!;
    let top = 0;
    for (let rest = mask; rest; rest &= rest - 1) {
      const value = best[mask ^ (rest & -rest)]!;
      if (value > top) top = value;
    }
    best[mask] = top + (sum[mask] === 0 ? 1 : 0);
  }
  // Walk back from the full set; members removed between two zero-sum sets form one group.
  const groups: number[][] = [];
  let current: number[] = [];
  let mask = size - 1;
  while (mask) {
    const target = best[mask]! - (sum[mask] === 0 ? 1 : 0);
    if (sum[mask] === 0 && current.length) {
      groups.push(current);
      current = [];
    }
    for (let rest = mask; rest; rest &= rest - 1) {
      const bit = rest & -rest;
      if (best[mask ^ bit] === target) {
        current.push(31 - Math.clz32(bit));
        mask ^= bit;
        break;
      }
    }
  }
  if (current.length) groups.push(current);
  return groups;
}

export function settle(group: ExpenseGroup): Settlement {
  const balances = computeBalances(group);
  const open = balances.filter((b) => b.balanceCents !== 0).map((b) => ({ id: b.member, balance: b.balanceCents }));
  const exact = open.length <= EXACT_LIMIT;
  const transfers = exact
    ? zeroSumGroups(open.map((m) => m.balance)).flatMap((g) => settleGroup(g.map((i) => open[i]!)))
    : settleGroup([...open].sort((a, b) => Math.abs(b.balance) - Math.abs(a.balance)));
  return {
    currency: 'EUR',
    totalCents: group.expenses.reduce((a, e) => a + e.amountCents, 0),
    balances,
    transfers,
    transferCount: transfers.length,
    method: exact ? 'exact' : 'heuristic',
  };
}
