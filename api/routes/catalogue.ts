import Joi from 'joi';
import { catalogue } from '../../domain/catalogue/catalogue.js';
import { catalogueSchema } from '../../domain/catalogue/schema.js';
import { defineRoute } from './route.js';
import { answerSerializedJson } from '../respond.js';
import { answerNow, listHeader } from '../fast-path.js';

/** Clients may reuse a copy after revalidating it; it changes only with a deployment. */
const CACHE_CONTROL = 'private, max-age=0, must-revalidate';

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export const catalogueRoutes = [
  defineRoute({
    operationId: 'getCatalogue',
    method: 'GET',
    path: '/v1/catalogue',
    tag: 'Catalogue',
    summary: 'The whole catalogue: categories, letters with providers and fields, calculators, AI tools, quotes and prices',
    description: 'Sent with a strong ETag and Cache-Control; a request whose If-None-Match holds the current ETag gets 304 without a body.',
    scope: 'catalogue:read',
    query: Joi.object({}),
    success: { status: 200, description: 'Catalogue (304 without body when If-None-Match matches)', schema: catalogueSchema },
    errors: [400, 401, 403, 429, 500],
    async handler(ctx) {
      const current = catalogue();
      // In the answer's header list: the cheapest authenticated call there is (api/fast-path.ts).
      listHeader(ctx, 'ETag', current.etag);
      listHeader(ctx, 'Cache-Control', CACHE_CONTROL);
      if (matches(ctx.req.headers['if-none-match'], current.etag)) answerNow(ctx, 304, undefined);
      else answerSerializedJson(ctx, current.body);
    },
  }),
];
