import { searchCatalogue } from '../../domain/search/search.js';
import { searchQuerySchema, searchResultsSchema } from '../schemas/search.js';
import { defineRoute } from './route.js';
import { deps } from '../respond.js';

export const searchRoutes = [
  defineRoute<Record<string, never>, { q: string; limit: number; mode: 'hybrid' | 'lexical' }>({
    operationId: 'searchCatalogue',
    method: 'GET',
    path: '/v1/search',
    tag: 'Catalogue',
    summary: 'Search letters, calculators, AI tools and quotes by keywords or natural language',
    description:
      'Keyword and alias matching (accent- and case-insensitive) is instantaneous. The semantic engine is merged in only when keywords give no result or the query has 3 words or more; ' +
      'with mode=lexical it is never called; when it is unavailable the response says mode: lexical.',
    scope: 'catalogue:read',
    query: searchQuerySchema,
    success: { status: 200, description: 'SearchResults', schema: searchResultsSchema },
    errors: [400, 401, 403, 429, 500],
    async handler(ctx, { query }) {
      ctx.body = await searchCatalogue(deps(ctx), query.q, query.limit, query.mode);
    },
  }),
];
