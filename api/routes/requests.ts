import { deps, respondWithin } from '../respond.js';
import { accountServiceRequests, insertServiceRequest, serviceRequest, type ServiceRequestInput } from '../../domain/requests/service-requests.js';
import { serviceRequestInputSchema, serviceRequestListQuery, serviceRequestListSchema, serviceRequestSchema } from '../schemas/requests.js';
import { defineRoute } from './route.js';

export const requestRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, ServiceRequestInput>({
    operationId: 'createServiceRequest',
    method: 'POST',
    path: '/v1/requests',
    tag: 'Service requests',
    summary: 'Ask for a letter, calculator or AI tool missing from the catalogue (free)',
    description: 'Never billed; rate-limited like every call. The request starts as received; its status is listed by GET /v1/requests.',
    scope: 'requests:write',
    body: serviceRequestInputSchema,
    success: { status: 201, description: 'ServiceRequest', schema: serviceRequestSchema },
    errors: [400, 401, 403, 409, 413, 422, 429, 500],
    async handler(ctx, { body }) {
      // The idempotent answer commits with the request it describes.
      await deps(ctx).db.transaction(async (trx) => {
        const row = await insertServiceRequest(trx, ctx.state.auth!.accountId, body);
        await respondWithin(ctx, trx, 201, serviceRequest(row));
      });
    },
  }),
  defineRoute<Record<string, never>, { limit: number; cursor?: string }>({
    operationId: 'listServiceRequests',
    method: 'GET',
    path: '/v1/requests',
    tag: 'Service requests',
    summary: "The account's service requests with their status, most recent first (free)",
    description: 'Cursor pagination as for mailings: pass nextCursor as cursor; an unreadable cursor is 400 invalid_cursor.',
    scope: 'requests:read',
    query: serviceRequestListQuery,
    success: { status: 200, description: 'List of ServiceRequest', schema: serviceRequestListSchema },
    errors: [400, 401, 403, 429, 500],
    async handler(ctx, { query }) {
      const { db, config } = deps(ctx);
      ctx.body = await accountServiceRequests(db, config.secretKey, ctx.state.auth!.accountId, query);
    },
  }),
];
