import { payThen } from '../../domain/billing/charge.js';
import { notFound } from '../../domain/errors.js';
import { partnerLookup } from '../../domain/lookups/lookup.js';
import { companyProfile, DIRECTORY } from '../../domain/lookups/companies.js';
import { normalize } from '../../domain/search/normalize.js';
import { companyProfileSchema, companyResultsSchema, companySearchQuery, siretParams } from '../schemas/companies.js';
import { defineRoute } from './route.js';
import { caller, deps } from '../respond.js';

/** The directory is refreshed daily; searches are reused for an hour (profiles: domain/lookups/companies.ts). */
const SEARCH_TTL_SECONDS = 3600;

export const companyRoutes = [
  defineRoute<Record<string, never>, { q: string; limit: number; status: 'active' | 'all' }>({
    operationId: 'searchCompanies',
    method: 'GET',
    path: '/v1/companies',
    tag: 'Data',
    summary: 'Search companies by name, trade name, SIREN or SIRET (national business directory)',
    description:
      'status=active (default) keeps active companies; all includes closed ones. Billed as one "data.lookup" after the monthly free quota; 502 and nothing billed when the directory fails.',
    scope: 'data:read',
    query: companySearchQuery,
    success: { status: 200, description: 'CompanyResults', schema: companyResultsSchema },
    errors: [400, 401, 402, 403, 429, 500, 502],
    async handler(ctx, { query }) {
      const key = `companies:${query.status}:${query.limit}:${normalize(query.q)}`;
      const results = await payThen(deps(ctx), caller(ctx), 'data.lookup', () =>
        partnerLookup(deps(ctx), {
          key,
          ttlSeconds: SEARCH_TTL_SECONDS,
          workflow: 'companySearch',
          args: [query.q, query.limit, query.status],
          idPrefix: 'company-search',
          partner: DIRECTORY,
          breaker: 'companyDirectory',
        }),
      );
      ctx.body = { results };
    },
  }),
  defineRoute<{ siret: string }>({
    operationId: 'getCompany',
    method: 'GET',
    path: '/v1/companies/{siret}',
    tag: 'Data',
    summary: 'Company profile of an establishment: status, company, head office, activity, headcount, data freshness',
    description: 'Billed as one "data.lookup.premium" after the monthly free quota; 404 (not billed) for an unknown SIRET.',
    scope: 'data:read',
    params: siretParams,
    success: { status: 200, description: 'CompanyProfile', schema: companyProfileSchema },
    errors: [400, 401, 402, 403, 404, 429, 500, 502],
    async handler(ctx, { params }) {
      ctx.body = await payThen(deps(ctx), caller(ctx), 'data.lookup.premium', async () => {
        const value = await companyProfile(deps(ctx), params.siret);
        if (!value) throw notFound(`No establishment with SIRET ${params.siret}.`);
        return value;
      });
    },
  }),
];
