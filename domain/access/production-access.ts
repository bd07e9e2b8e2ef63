import Joi from 'joi';
import type { Db } from '../../db/knex.js';
import type { Deps } from '../deps.js';
import { PartnerFailure } from '../errors.js';
import { logger } from '../../lib/logger.js';
import { normalize } from '../../lib/text.js';
import { companyProfile, siretProblem } from '../lookups/companies.js';
import type { CompanyProfile } from '../lookups/results.js';
import { enableLiveAutomatically } from './accounts.js';
import { recordAudit, SYSTEM, type Actor } from './audit.js';
import {
  insertProductionRequest,
  lockedRequest,
  pendingRequestOf,
  recordCompany,
  refuseProductionRequest,
  type CheckedCompany,
  type ProductionAccessRequest,
  type Refusal,
} from './production-requests.js';

/**
 * Production access: a customer asks, with their company and use case. When the national business
 * directory shows the establishment and its company active under the legal name given, production
 * opens at once (the check in the audit log). Anything else waits for an operator
 * (`admin account live-enable`). A request made while the directory cannot be reached is kept and
 * checked again later by the productionAccessCheck workflow, never lost. Until production opens, the
 * account's svc_live_ keys answer 403 live_not_enabled.
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

export type SubmitResult =
  /** The directory confirms the company under the name given: production is open. */
  | { kind: 'opened'; request: ProductionAccessRequest }
  /** Checked, no legal name given to compare: waits for an operator. */
  | { kind: 'submitted'; request: ProductionAccessRequest }
  /** The directory could not be reached: kept, and checked again later. */
  | { kind: 'waiting_directory'; request: ProductionAccessRequest }
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

/** What the directory's answer means for a request with this legal name (empty: none given). */
type Verdict =
  | { kind: Refusal; company?: CheckedCompany }
  /** Active under the name given: production may open at once. */
  | { kind: 'confirmed'; company: CheckedCompany }
  /** Active, no name given to compare: an operator decides. */
  | { kind: 'checked'; company: CheckedCompany };

function verdictOf(profile: CompanyProfile | null, legalName: string): Verdict {
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
  if (!legalName) return { kind: 'checked', company };
  return sameCompany(legalName, company) ? { kind: 'confirmed', company } : { kind: 'name_mismatch', company };
}

/** The check as the audit log keeps it: what was compared and what the directory said. */
const checkDetails = (siret: string, verdict: Verdict) => ({
  siret,
  result: verdict.kind,
  directoryName: verdict.company?.name ?? null,
  directoryStatus: verdict.company?.status ?? null,
  dataFreshness: verdict.company?.dataFreshness ?? null,
});

/**
 * Records a request to open production. The SIRET is checked (format, control key) then looked up
 * through the same domain function as GET /v1/companies/{siret}: the establishment and its company
 * must exist and be active. That lookup is our check, never billed to the customer nor counted in
 * their free quota. Confirmed under the name given: production opens at once. The directory
 * failing: the request is kept without its check and the productionAccessCheck workflow asks again.
 */
export async function submitProductionAccess(deps: Deps, accountId: string, input: ProductionAccessInput, actor?: Actor): Promise<SubmitResult> {
  const { db } = deps;
  const account = await db('accounts').where({ id: accountId }).first('live_enabled');
  if (account?.live_enabled) return { kind: 'already_open' };
  const pending = await pendingRequestOf(db, accountId);
  if (pending) return { kind: 'already_pending', request: pending };

  const siret = input.siret.replace(/[\s.]/g, '');
  const problem = siretProblem(siret);
  if (problem) return { kind: 'invalid_siret', reason: problem };
  const legalName = input.legalName ?? '';
  let verdict: Verdict | undefined;
  try {
    verdict = verdictOf(await companyProfile(deps, siret), legalName);
  } catch (error) {
    if (!(error instanceof PartnerFailure)) throw error;
  }
  if (verdict?.kind === 'unknown_company') return { kind: 'unknown_company' };
  if (verdict?.kind === 'closed_company' || verdict?.kind === 'name_mismatch') return { kind: verdict.kind, company: verdict.company! };

  const company = verdict?.company;
  try {
    const request = await db.transaction(async (trx) => {
      const inserted = await insertProductionRequest(trx, {
        accountId,
        siret,
        // Unchecked, only what the customer typed: the later check compares it.
        legalName: legalName || company?.name || '',
        address: input.address || company?.address || '',
        useCase: input.useCase,
        company: company ?? null,
      });
      const target = { type: 'production_request', id: inserted.id } as const;
      await recordAudit(trx, actor, { accountId, action: 'production.requested', target, details: { siret, legalName: inserted.legalName } });
      if (!verdict) return inserted;
      await recordAudit(trx, SYSTEM, { accountId, action: 'production.checked', target, details: checkDetails(siret, verdict) });
      if (verdict.kind === 'confirmed') await enableLiveAutomatically(trx, accountId, { siret, requestId: inserted.id });
      return inserted;
    });
    if (verdict) return { kind: verdict.kind === 'confirmed' ? 'opened' : 'submitted', request };
    await deps.workflows.access
      .startProductionCheck(request.id, siret)
      .catch((error: unknown) =>
        logger.warn({ err: error, requestId: request.id }, 'the later directory check could not start; the request waits for an operator'),
      );
    return { kind: 'waiting_directory', request };
  } catch (error) {
    // Two submissions at once: the unique index keeps one open request per account.
    if ((error as { code?: string }).code !== '23505') throw error;
    return { kind: 'already_pending', request: (await pendingRequestOf(db, accountId))! };
  }
}

/**
 * The later check of a request kept while the directory could not be reached (the activity of the
 * productionAccessCheck workflow): the same verdict as at submission, now recorded. A request an
 * operator decided meanwhile is left as it is.
 */
export async function completeDirectoryCheck(db: Db, requestId: string, profile: CompanyProfile | null): Promise<'opened' | 'pending' | 'refused' | 'decided'> {
  return db.transaction(async (trx) => {
    const request = await lockedRequest(trx, requestId);
    if (!request || request.status !== 'pending' || request.company) return 'decided';
    // Kept without its check, the request holds the name the customer typed (empty: none).
    const verdict = verdictOf(profile, request.legalName);
    const target = { type: 'production_request', id: requestId } as const;
    const { accountId, siret } = request;
    if (verdict.kind !== 'confirmed' && verdict.kind !== 'checked') {
      await refuseProductionRequest(trx, requestId, verdict.kind);
      await recordAudit(trx, SYSTEM, { accountId, action: 'production.refused', target, details: checkDetails(siret, verdict) });
      return 'refused';
    }
    await recordCompany(trx, requestId, verdict.company, request.address || verdict.company.address, request.legalName || verdict.company.name);
    await recordAudit(trx, SYSTEM, { accountId, action: 'production.checked', target, details: checkDetails(siret, verdict) });
    if (verdict.kind !== 'confirmed') return 'pending';
    await enableLiveAutomatically(trx, accountId, { siret, requestId });
    return 'opened';
  });
}
