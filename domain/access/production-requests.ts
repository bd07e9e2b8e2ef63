import type { Db, Tx } from '../../db/knex.js';

/**
 * The table `production_access_requests`: requests to open production, what the directory said
 * of their company (null while it could not be reached), and how each ended. The process that
 * decides is in production-access.ts.
 */

/** What the directory said of the establishment. */
export interface CheckedCompany {
  name: string;
  acronym: string | null;
  status: 'active' | 'closed';
  address: string;
  activity: string | null;
  dataFreshness: string | null;
}

/** Why a request checked later (the directory was down when it was made) was refused. */
export type Refusal = 'unknown_company' | 'closed_company' | 'name_mismatch';

export interface ProductionAccessRequest {
  id: string;
  accountId: string;
  siret: string;
  legalName: string;
  address: string;
  useCase: string;
  /** Null while the directory has not answered (checked again by the productionAccessCheck workflow). */
  company: CheckedCompany | null;
  status: 'pending' | 'approved' | 'refused';
  /** Who opened production: the directory check at once, or an operator. */
  decidedBy: 'automatic' | 'operator' | null;
  refusal: Refusal | null;
  createdAt: string;
  decidedAt: string | null;
}

interface Row {
  id: string;
  account_id: string;
  siret: string;
  legal_name: string;
  address: string;
  use_case: string;
  company: CheckedCompany | null;
  status: ProductionAccessRequest['status'];
  decided_by: ProductionAccessRequest['decidedBy'];
  refusal: Refusal | null;
  created_at: Date;
  decided_at: Date | null;
}

const toRequest = (row: Row): ProductionAccessRequest => ({
  id: row.id,
  accountId: row.account_id,
  siret: row.siret,
  legalName: row.legal_name,
  address: row.address,
  useCase: row.use_case,
  company: row.company,
  status: row.status,
  decidedBy: row.decided_by,
  refusal: row.refusal,
  createdAt: row.created_at.toISOString(),
  decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
});

/** The account's latest request, if any. */
export async function latestProductionAccess(db: Db | Tx, accountId: string): Promise<ProductionAccessRequest | undefined> {
  const row = (await db('production_access_requests').where({ account_id: accountId }).orderBy('created_at', 'desc').first()) as Row | undefined;
  return row ? toRequest(row) : undefined;
}

/** The account's open request, if any (one at most: a unique index). */
export async function pendingRequestOf(db: Db | Tx, accountId: string): Promise<ProductionAccessRequest | undefined> {
  const row = (await db('production_access_requests').where({ account_id: accountId, status: 'pending' }).first()) as Row | undefined;
  return row ? toRequest(row) : undefined;
}

/** A request, locked until the transaction ends (the later check and an operator may meet). */
export async function lockedRequest(trx: Tx, id: string): Promise<ProductionAccessRequest | undefined> {
  const row = (await trx('production_access_requests').where({ id }).forUpdate().first()) as Row | undefined;
  return row ? toRequest(row) : undefined;
}

/** Records a new open request; a second open one for the account fails on the unique index (23505). */
export async function insertProductionRequest(
  trx: Tx,
  request: { accountId: string; siret: string; legalName: string; address: string; useCase: string; company: CheckedCompany | null },
): Promise<ProductionAccessRequest> {
  const [row] = await trx('production_access_requests')
    .insert({
      account_id: request.accountId,
      siret: request.siret,
      legal_name: request.legalName,
      address: request.address,
      use_case: request.useCase,
      company: request.company && JSON.stringify(request.company),
    })
    .returning('*');
  return toRequest(row as Row);
}

/** What the directory said, once it answered a request kept without it. */
export async function recordCompany(trx: Tx, id: string, company: CheckedCompany, address: string, legalName: string): Promise<void> {
  await trx('production_access_requests')
    .where({ id })
    .update({ company: JSON.stringify(company), address, legal_name: legalName });
}

/** Ends an open request the later directory check refused. */
export async function refuseProductionRequest(trx: Tx, id: string, refusal: Refusal): Promise<void> {
  await trx('production_access_requests').where({ id, status: 'pending' }).update({ status: 'refused', refusal, decided_at: trx.fn.now() });
}

/** Production opened: the account's open request, if any, is approved, by whom it says. */
export async function approveProductionAccess(trx: Tx, accountId: string, by: 'automatic' | 'operator' = 'operator'): Promise<void> {
  await trx('production_access_requests')
    .where({ account_id: accountId, status: 'pending' })
    .update({ status: 'approved', decided_by: by, decided_at: trx.fn.now() });
}

/** Open requests for operators (`admin account pending`), oldest first, with the account's name. */
export async function pendingProductionAccess(db: Db): Promise<(ProductionAccessRequest & { accountName: string })[]> {
  const rows = (await db('production_access_requests as r')
    .join('accounts as a', 'a.id', 'r.account_id')
    .where('r.status', 'pending')
    .orderBy([
      { column: 'r.created_at', order: 'asc' },
      { column: 'r.id', order: 'asc' },
    ])
    .select('r.*', 'a.name as account_name')) as (Row & { account_name: string })[];
  return rows.map((row) => ({ ...toRequest(row), accountName: row.account_name }));
}
