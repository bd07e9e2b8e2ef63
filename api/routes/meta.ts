import Joi from 'joi';
import { buildOpenApi } from '../openapi.js';
import { renderDocsPage } from '../docs-page.js';
import { defineRoute, type Route } from './route.js';
import { publicOrigin } from '../respond.js';

const healthSchema = Joi.object({
  status: Joi.string().valid('ok', 'degraded').required(),
  postgres: Joi.object({ ok: Joi.boolean().required(), latencyMs: Joi.number(), error: Joi.string() }).required(),
  temporal: Joi.object({ ok: Joi.boolean().required(), latencyMs: Joi.number(), workerAt: Joi.string(), error: Joi.string() }).required(),
}).label('Health');

async function timed<T>(work: () => Promise<T>): Promise<{ ok: boolean; latencyMs: number; value?: T; error?: string }> {
  const started = performance.now();
  try {
    const value = await work();
    return { ok: true, latencyMs: Math.round(performance.now() - started), value };
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) };
  }
}

/** Public routes: health, the OpenAPI document and its human page. `all` is every mounted route. */
export function metaRoutes(all: () => Route[]): Route[] {
  return [
    defineRoute({
      operationId: 'health',
      method: 'GET',
      path: '/health',
      tag: 'Service',
      summary: 'Reachability of Postgres and of Temporal with a live worker',
      scope: null,
      success: { status: 200, description: 'Everything reachable (503 with the same body otherwise)', schema: healthSchema },
      errors: [503],
      async handler(ctx) {
        const { db, domain } = ctx.services;
        const [postgres, worker] = await Promise.all([
          timed(() => db.raw('SELECT 1')),
          // A real round trip: the workflow runs an activity on a worker, which queries Postgres.
          timed(() => domain.workflows.run('healthCheck', [], { idPrefix: 'health', timeout: '5s' })),
        ]);
        const ok = postgres.ok && worker.ok;
        ctx.status = ok ? 200 : 503;
        ctx.body = {
          status: ok ? 'ok' : 'degraded',
          postgres: { ok: postgres.ok, latencyMs: postgres.latencyMs, ...(postgres.error ? { error: postgres.error } : {}) },
          temporal: {
            ok: worker.ok,
            latencyMs: worker.latencyMs,
            ...(worker.value ? { workerAt: worker.value.workerAt } : {}),
            ...(worker.error ? { error: worker.error } : {}),
          },
        };
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
