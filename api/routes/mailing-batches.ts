import { findBatch, listBatches } from '../../domain/batches/batches.js';
import { checkBatch, createBatch } from '../../domain/batches/create.js';
import { notFound } from '../../domain/errors.js';
import {
  batchIdParams,
  batchListQuery,
  batchListSchema,
  batchReportSchema,
  batchRequestSchema,
  batchSchema,
  MAX_BATCH_ROWS,
  type BatchRequest,
} from '../schemas/batches.js';
import { caller, deps } from '../respond.js';
import { defineRoute } from './route.js';

export const mailingBatchRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, BatchRequest>({
    operationId: 'createMailingBatch',
    method: 'POST',
    path: '/v1/mailing-batches',
    tag: 'Mailings',
    summary: 'Send one letter to many recipients (mail merge): one mailing per row, all or nothing, paid once',
    description:
      `Beyond SPEC.md, non-breaking. Up to ${MAX_BATCH_ROWS} rows (about what SPEC.md's 1 MB body holds). Each row goes through the checks of POST /v1/mailings: a row that would be refused makes the whole batch a 422 batch_invalid whose details are the report (each row's code, message and details), nothing created or charged. ` +
      'A live key is debited once for the whole batch (402 when the balance is short, nothing created); each row then becomes a normal mailing (same webhooks and proofs) whose `batch` is this batch, listed by GET /v1/mailings?batch=. ' +
      'dryRun: true answers 200 with the report and the total price, creating and charging nothing. mailing_batch.completed is sent, when every mailing is final, to the endpoints whose event filter names it.',
    scope: 'mailings:write',
    body: batchRequestSchema,
    success: { status: 201, description: 'MailingBatch', schema: batchSchema },
    otherSuccess: { status: 200, description: 'MailingBatchReport (dryRun: true)', schema: batchReportSchema },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 502, 503],
    async handler(ctx, { body }) {
      if (body.dryRun) {
        ctx.body = (await checkBatch(deps(ctx), caller(ctx), body)).report;
        return;
      }
      const batch = await createBatch(deps(ctx), caller(ctx), body);
      ctx.status = 201;
      ctx.set('Location', `/v1/mailing-batches/${batch.id}`);
      ctx.body = batch;
    },
  }),
  defineRoute<Record<string, never>, { limit: number; cursor?: string }>({
    operationId: 'listMailingBatches',
    method: 'GET',
    path: '/v1/mailing-batches',
    tag: 'Mailings',
    summary: "List mailing batches, most recent first, with their mailings' counts by status",
    description: 'Beyond SPEC.md, non-breaking. Test keys list test batches, live keys live ones.',
    scope: 'mailings:read',
    query: batchListQuery,
    success: { status: 200, description: 'List envelope of MailingBatch', schema: batchListSchema },
    errors: [400, 401, 403, 429, 500],
    async handler(ctx, { query }) {
      const auth = ctx.state.auth!;
      ctx.body = await listBatches(deps(ctx).db, deps(ctx).config.secretKey, { ...query, accountId: auth.accountId, test: auth.mode === 'test' });
    },
  }),
  defineRoute<{ id: string }>({
    operationId: 'getMailingBatch',
    method: 'GET',
    path: '/v1/mailing-batches/{id}',
    tag: 'Mailings',
    summary: "A mailing batch: its mailings' counts by status, amount, created and finished",
    description: 'Beyond SPEC.md, non-breaking. Its mailings: GET /v1/mailings?batch={id}.',
    scope: 'mailings:read',
    params: batchIdParams,
    success: { status: 200, description: 'MailingBatch', schema: batchSchema },
    errors: [400, 401, 403, 404, 429, 500],
    async handler(ctx, { params }) {
      const auth = ctx.state.auth!;
      const batch = await findBatch(deps(ctx).db, { accountId: auth.accountId, test: auth.mode === 'test' }, params.id);
      if (!batch) throw notFound(`No mailing batch ${params.id}.`);
      ctx.body = batch;
    },
  }),
];
