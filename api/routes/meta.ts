import Joi from 'joi';
import { buildOpenApi } from '../openapi.js';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { defineRoute, type Route } from './route.js';
import { publicOrigin } from '../respond.js';
import { RETRY_AFTER_SECONDS } from '../errors.js';
import { BREAKER_PARTNERS } from '../../domain/lookups/breaker.js';

const component = (description: string): Joi.ObjectSchema =>
  Joi.object({ ok: Joi.boolean().required(), latencyMs: Joi.number().integer().min(0).required().description('Time the probe took') }).description(description);

/** One shape for every partner's breaker (one model in the SDKs). */
const partnerBreakerSchema = Joi.object({
  state: Joi.string()
    .valid('closed', 'open', 'half_open')
    .required()
    .description('closed: calls go to the partner; open: answered at once without it; half_open: one call probes it'),
}).label('PartnerBreaker');

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
  partners: Joi.object(Object.fromEntries(BREAKER_PARTNERS.map((partner) => [partner, partnerBreakerSchema.required()])))
    .required()
    .description(
      "This process's circuit breaker of each partner called on the request path: open while the partner keeps failing (its calls are answered at once, " +
        'as when it fails: a mailing goes on with address_check_unavailable, a lookup answers 502), half_open while one call probes it. ' +
        'Partners are not our components: an open breaker leaves status ok.',
    ),
}).label('Health');

const readinessSchema = Joi.object({
  status: Joi.string().valid('ready', 'unready').required(),
  checkedAt: Joi.string().isoDate().required().description('When the database was probed; the result is shared for a few seconds'),
  postgres: component('The database answers SELECT 1').required(),
}).label('Readiness');

/** Redoc's standalone bundle, from its npm package: the docs page loads nothing from elsewhere. */
const REDOC_BUNDLE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
let redocBundle: Buffer | undefined;

/** The page may load what this server serves, and nothing else (Redoc's search runs in a blob worker). */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/v1/openapi.json" required-props-first="true" expand-responses="200,201" path-in-middle-panel="true"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

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
      operationId: 'ready',
      method: 'GET',
      path: '/ready',
      tag: 'Service',
      summary:
        'Whether this API process can serve: its database answers (no authentication; the readiness probe). While Temporal is away it stays ready: reads are served, and what needs Temporal answers 503 itself',
      scope: null,
      success: { status: 200, description: 'Ready (503 with the same body, and Retry-After, otherwise)', schema: readinessSchema, sameBodyOn: [503] },
      errors: [503],
      async handler(ctx) {
        const readiness = await ctx.services.health.readiness();
        ctx.status = readiness.status === 'ready' ? 200 : 503;
        if (ctx.status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
        ctx.body = readiness;
      },
    }),
    defineRoute({
      operationId: 'getOpenApi',
      method: 'GET',
      path: '/v1/openapi.json',
      tag: 'Service',
      summary: 'This OpenAPI 3.1 document (no authentication)',
      scope: null,
      fromMemory: true,
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
      summary: 'Human-readable API reference (HTML): this document rendered by Redoc, served from its npm package',
      scope: null,
      fromMemory: true,
      success: { status: 200, description: 'HTML page', contentType: 'text/html' },
      errors: [500],
      async handler(ctx) {
        ctx.set('Content-Security-Policy', DOCS_CSP);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = DOCS_PAGE;
      },
    }),
    defineRoute({
      operationId: 'getDocsScript',
      method: 'GET',
      path: '/docs/redoc.standalone.js',
      tag: 'Service',
      summary: "The docs page's renderer (Redoc's standalone bundle, from the redoc npm package)",
      scope: null,
      fromMemory: true,
      success: { status: 200, description: 'JavaScript', contentType: 'text/javascript' },
      errors: [500],
      async handler(ctx) {
        redocBundle ??= readFileSync(REDOC_BUNDLE);
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.type = 'text/javascript; charset=utf-8';
        ctx.body = redocBundle;
      },
    }),
  ];
}
