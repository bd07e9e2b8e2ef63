import Joi from 'joi';
import { buildOpenApi } from '../openapi.js';
import { renderDocsPage } from '../docs-page.js';
import { defineRoute, type Route } from './route.js';
import { publicOrigin } from '../respond.js';
import { RETRY_AFTER_SECONDS } from '../errors.js';

const component = (description: string): Joi.ObjectSchema =>
  Joi.object({ ok: Joi.boolean().required(), latencyMs: Joi.number().integer().min(0).required().description('Time the probe took') }).description(description);

const healthSchema = Joi.object({
  status: Joi.string().valid('ok', 'degraded').required(),
  checkedAt: Joi.string().isoDate().required().description('When the components were probed; the result is shared for a few seconds'),
  postgres: component('The database answers SELECT 1').required(),
  temporal: component('The Temporal server answers').required(),
  worker: Joi.object({
    ok: Joi.boolean().required(),
    lastPollAt: Joi.string().isoDate().description('When a worker last asked for work, as the Temporal server knows it'),
  })
    .required()
    .description('A worker polled the task queue of mailings within the last 90 seconds'),
}).label('Health');

/** Public routes: health, the OpenAPI document and its human page. `all` is every mounted route. */
export function metaRoutes(all: () => Route[]): Route[] {
  return [
    defineRoute({
      operationId: 'health',
      method: 'GET',
      path: '/health',
      tag: 'Service',
      summary: 'Whether Postgres, Temporal and a worker are up (no authentication; probed at most every few seconds)',
      scope: null,
      success: { status: 200, description: 'Everything up (503 with the same body, and Retry-After, otherwise)', schema: healthSchema, sameBodyOn: [503] },
      errors: [503],
      async handler(ctx) {
        const health = await ctx.services.health.check();
        ctx.status = health.status === 'ok' ? 200 : 503;
        if (ctx.status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
        ctx.body = health;
      },
    }),
    defineRoute({
      operationId: 'getOpenApi',
      method: 'GET',
      path: '/v1/openapi.json',
      tag: 'Service',
      summary: 'This OpenAPI 3.1 document (no authentication)',
      scope: null,
      success: { status: 200, description: 'OpenAPI document', schema: Joi.object().unknown(true).label('OpenApiDocument') },
      errors: [500],
      async handler(ctx) {
        ctx.body = buildOpenApi(all(), publicOrigin(ctx));
      },
    }),
    defineRoute({
      operationId: 'getDocs',
      method: 'GET',
      path: '/docs',
      tag: 'Service',
      summary: 'Human-readable API reference (HTML)',
      scope: null,
      success: { status: 200, description: 'HTML page', contentType: 'text/html' },
      errors: [500],
      async handler(ctx) {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = renderDocsPage(buildOpenApi(all(), publicOrigin(ctx)));
      },
    }),
  ];
}
