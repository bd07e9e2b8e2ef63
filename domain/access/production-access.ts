import Joi from 'joi';
import type { Db, Tx } from '../../db/knex.js';
import type { Deps } from '../deps.js';
import { normalize } from '../../lib/text.js';
import { companyProfile, siretProblem } from '../lookups/companies.js';
import { recordAudit, type Actor } from './audit.js';

/**
 * Production access (issue 15): a customer asks, with their company and use case; an operator opens
 * production with `admin account live-enable`, which approves the request. Until then the account's
 * svc_live_ keys answer 403 live_not_enabled.
 */

/** What the form sends; its limits appear here only. Empty legal name or address: the directory's. */
export const productionAccessInputSchema = Joi.object({
  siret: Joi.string().trim().max(40).required(),
  legalName: Joi.string().trim().max(200).allow(''),
  address: Joi.string().trim().max(500).allow(''),
  useCase: Joi.string().trim().min(20).max(2000).required(),
});

export interface ProductionAccessInput {
  siret: string;
  legalName?: string;
  address?: string;
  useCase: string;
}

/** What the directory said of the establishment when the request was made. */
export interface CheckedCompany {
  name: string;
  acronym: string | null;
  status: 'active' | 'closed';
  address: string;
  activity: string | null;
  dataFreshness: string | null;
}

export interface ProductionAccessRequest {
  id: string;
  accountId: string;
  siret: string;
  legalName: string;
  address: string;
  useCase: string;
  company: CheckedCompany;
  status: 'pending' | 'approved';
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
  company: CheckedCompany;
  status: 'pending' | 'approved';
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
  createdAt: row.created_at.toISOString(),
  decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
});

export type SubmitResult =
  | { kind: 'submitted'; request: ProductionAccessRequest }
  /** Not 14 digits, or a wrong control key: refused before any lookup. */
  | { kind: 'invalid_siret'; reason: 'format' | 'checksum' }
  | { kind: 'unknown_company' }
  | { kind: 'closed_company'; company: CheckedCompany }
  /** The legal name given is not the directory's (the page offers the directory's). */
  | { kind: 'name_mismatch'; company: CheckedCompany }
  | { kind: 'already_pending'; request: ProductionAccessRequest }
  | { kind: 'already_open' };

/**
 * "La Poste", "LA POSTE" and "La Poste SA" name the same company (the directory's name, or its
 * acronym, word for word within the name given); "Poste" or "La" alone do not.
 */
export function sameCompany(given: string, company: Pick<CheckedCompany, 'name' | 'acronym'>): boolean {
  const words = ` ${normalize(given)} `;
  return [company.name, company.acronym]
    .filter((name): name is string => !!name && normalize(name) !== '')
    .some((name) => words.includes(` ${normalize(name)} `));
}

/** The account's latest request (pending or approved), if any. */
export async function latestProductionAccess(db: Db, accountId: string): Promise<ProductionAccessRequest | undefined> {
  const row = (await db('production_access_requests').where({ account_id: accountId }).orderBy('created_at', 'desc').first()) as Row | undefined;
  return row ? toRequest(row) : undefined;
}

/**
 * Records a request to open production. The SIRET is checked (format, control key) then looked up
 * through the same domain function as GET /v1/companies/{siret}: the establishment and its company
 * must exist and be active. That lookup is our check, never billed to the customer nor counted in
 * their free quota. A directory that keeps failing throws PartnerFailure (nothing recorded).
 */
export async function submitProductionAccess(deps: Deps, accountId: string, input: ProductionAccessInput, actor?: Actor): Promise<SubmitResult> {
  const { db } = deps;
  const account = await db('accounts').where({ id: accountId }).first('live_enabled');
  if (account?.live_enabled) return { kind: 'already_open' };
  const pending = await db('production_access_requests').where({ account_id: accountId, status: 'pending' }).first();
  if (pending) return { kind: 'already_pending', request: toRequest(pending as Row) };

  const siret = input.siret.replace(/[\s.]/g, '');
  const problem = siretProblem(siret);
  if (problem) return { kind: 'invalid_siret', reason: problem };
  const profile = await companyProfile(deps, siret);
  if (!profile) return { kind: 'unknown_company' };
  const company: CheckedCompany = {
    name: profile.company.name,
    acronym: profile.company.acronym,
    status: profile.establishment.status === 'active' && profile.company.status === 'active' ? 'active' : 'closed',
    address: profile.establishment.address,
    activity: profile.activity.code,
    dataFreshness: profile.dataFreshness,
  };
  if (company.status !== 'active') return { kind: 'closed_company', company };
  if (input.legalName && !sameCompany(input.legalName, company)) return { kind: 'name_mismatch', company };

  try {
    const row = await db.transaction(async (trx) => {
      const [inserted] = await trx('production_access_requests')
        .insert({
          account_id: accountId,
          siret,
          legal_name: input.legalName || company.name,
          address: input.address || company.address,
          use_case: input.useCase,
          company: JSON.stringify(company),
        })
        .returning('*');
      await recordAudit(trx, actor, {
        accountId,
        action: 'production.requested',
        target: { type: 'production_request', id: inserted.id },
        details: { siret, legalName: inserted.legal_name },
      });
      return inserted as Row;
    });
    return { kind: 'submitted', request: toRequest(row) };
  } catch (error) {
    // Two submissions at once: the unique index keeps one open request per account.
    if ((error as { code?: string }).code !== '23505') throw error;
    const request = await latestProductionAccess(db, accountId);
    return { kind: 'already_pending', request: request! };
  }
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

/** Production opened (`account live-enable`): the account's open request, if any, is approved. */
export async function approveProductionAccess(trx: Tx, accountId: string): Promise<void> {
  await trx('production_access_requests').where({ account_id: accountId, status: 'pending' }).update({ status: 'approved', decided_at: trx.fn.now() });
}
