import type { Db, Tx } from '../../db/knex.js';
import { isUuid } from '../../lib/text.js';
import { notFound } from '../errors.js';
import { approveProductionAccess } from './production-requests.js';
import { recordAudit, SYSTEM, type Actor } from './audit.js';
import type { AddressCheck } from '../mailings/request.js';

export interface AccountState {
  id: string;
  status: 'active' | 'suspended';
  liveEnabled: boolean;
}

/** A new account: sandbox only until production is opened (live_enabled). */
export async function createAccount(db: Db, input: { name: string; liveEnabled?: boolean }): Promise<{ id: string }> {
  const [row] = await db('accounts')
    .insert({ name: input.name, live_enabled: input.liveEnabled ?? false })
    .returning('id');
  return { id: row.id as string };
}

/** NotFound unless the account exists. */
export async function requireAccount(db: Db, id: string): Promise<void> {
  if (!isUuid(id) || !(await db('accounts').where({ id }).first('id'))) throw notFound(`No account ${id}.`);
}

/**
 * Suspends or reactivates an account, or opens production for it (approving its open production
 * access request, in the same transaction); its keys learn it at once (auth_changed).
 */
export async function changeAccount(db: Db, id: string, change: { suspended?: boolean; liveEnabled?: true }, actor?: Actor): Promise<AccountState> {
  await requireAccount(db, id);
  const update = {
    ...(change.suspended === undefined ? {} : { status: change.suspended ? 'suspended' : 'active' }),
    ...(change.liveEnabled ? { live_enabled: true } : {}),
  };
  return db.transaction(async (trx) => {
    // The state before, locked: the audit log records changes, not repeated commands.
    const before = await trx('accounts').where({ id }).forUpdate().first('status', 'live_enabled');
    const [row] = await trx('accounts').where({ id }).update(update).returning(['id', 'status', 'live_enabled']);
    if (change.liveEnabled) await approveProductionAccess(trx, id);
    const target = { type: 'account', id } as const;
    if (change.liveEnabled && !before.live_enabled) await recordAudit(trx, actor, { accountId: id, action: 'account.live_enabled', target });
    if (row.status !== before.status)
      await recordAudit(trx, actor, { accountId: id, action: row.status === 'suspended' ? 'account.suspended' : 'account.unsuspended', target });
    return { id: row.id, status: row.status, liveEnabled: row.live_enabled };
  });
}

/**
 * Opens production within the caller's transaction (the self-serve check: production-access.ts),
 * approving the open request as decided automatically; its keys learn it at once (auth_changed).
 */
export async function enableLiveAutomatically(trx: Tx, id: string, details: Record<string, unknown>): Promise<void> {
  const [row] = await trx('accounts').where({ id, live_enabled: false }).update({ live_enabled: true }).returning('id');
  await approveProductionAccess(trx, id, 'automatic');
  if (row)
    await recordAudit(trx, SYSTEM, {
      accountId: id,
      action: 'account.live_enabled',
      target: { type: 'account', id },
      details: { automatic: true, ...details },
    });
}

/** Whether the account may use live keys (production opened by an operator or the self-serve check). */
export async function isLiveEnabled(db: Db, id: string): Promise<boolean> {
  const account = (await db('accounts').where({ id }).first('live_enabled')) as { live_enabled: boolean } | undefined;
  return account?.live_enabled === true;
}

/** What authentication knows of an account for its keys: status, production, balance, address check default. */
export interface AccountStanding {
  suspended: boolean;
  liveEnabled: boolean;
  balanceCents: number;
  addressCheckDefault: AddressCheck;
}

/** The account as a key's authentication would see it (the developer space sends mailings with it); undefined when unknown. */
export async function accountStanding(db: Db, id: string): Promise<AccountStanding | undefined> {
  const row = await db('accounts').where({ id }).first('status', 'closure', 'live_enabled', 'balance_cents', 'address_check_default');
  if (!row) return undefined;
  return {
    // A closing (or closed) account sends nothing more, as a suspended one.
    suspended: row.status === 'suspended' || row.closure !== null,
    liveEnabled: row.live_enabled === true,
    balanceCents: Number(row.balance_cents),
    addressCheckDefault: row.address_check_default as AddressCheck,
  };
}

/** How many days a final mailing of the account keeps its personal data (domain/privacy/retention.ts). */
export async function accountRetentionDays(db: Db | Tx, id: string): Promise<number> {
  await requireAccount(db as Db, id);
  const row = (await db('accounts').where({ id }).first('retention_days')) as { retention_days: number };
  return row.retention_days;
}

/**
 * Sets the account's retention period, already checked against its bounds (the database checks them
 * again); audit-logged when it changes. Returns the period before and after.
 */
export async function setAccountRetentionDays(db: Db, id: string, days: number, actor?: Actor): Promise<{ before: number; days: number }> {
  await requireAccount(db, id);
  return db.transaction(async (trx) => {
    const before = (await trx('accounts').where({ id }).forUpdate().first('retention_days')) as { retention_days: number };
    await trx('accounts').where({ id }).update({ retention_days: days });
    if (before.retention_days !== days)
      await recordAudit(trx, actor, {
        accountId: id,
        action: 'account.retention_changed',
        target: { type: 'account', id },
        details: { from: before.retention_days, to: days },
      });
    return { before: before.retention_days, days };
  });
}

/** An account's closure (domain/access/closing.ts): null while open. */
export type AccountClosure = 'closing' | 'closed' | null;

export interface AccountSummary {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  closure: AccountClosure;
  liveEnabled: boolean;
  balanceCents: number;
  createdAt: Date;
}

/** The account's own row as its export shows it. */
export async function accountSummary(db: Db, accountId: string): Promise<AccountSummary | undefined> {
  const row = await db('accounts').where({ id: accountId }).first('id', 'name', 'status', 'closure', 'live_enabled', 'balance_cents', 'created_at');
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    closure: row.closure,
    liveEnabled: row.live_enabled,
    balanceCents: Number(row.balance_cents),
    createdAt: row.created_at,
  };
}

/** The account's closure; undefined when there is no such account. */
export async function accountClosure(db: Db, accountId: string): Promise<AccountClosure | undefined> {
  const row = (await db('accounts').where({ id: accountId }).first('closure')) as { closure: AccountClosure } | undefined;
  return row?.closure;
}

/**
 * The account enters (`closing`) or leaves (null, from `closing` only) its closing's grace period.
 * The trigger on accounts announces it on auth_changed: every API process forgets the account's
 * keys at commit.
 */
export async function setAccountClosing(trx: Tx, accountId: string, closing: boolean): Promise<void> {
  if (closing) await trx('accounts').where({ id: accountId }).update({ closure: 'closing' });
  else await trx('accounts').where({ id: accountId, closure: 'closing' }).update({ closure: null });
}

/** The account closed: its name, which may name a person, goes with the rest of its personal data. */
export async function markAccountClosed(trx: Tx, accountId: string): Promise<void> {
  await trx('accounts').where({ id: accountId }).update({ closure: 'closed', name: 'Compte clôturé' });
}
