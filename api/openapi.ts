import type Joi from 'joi';
import { joiToJsonSchema as parse } from '../lib/json-schema.js';
import { errorObject } from './schemas/common.js';
import type { Route } from './routes/route.js';
import { IDEMPOTENCY_KEY_PATTERN } from './middleware/idempotency.js';

type JsonSchema = Record<string, unknown>;

import { API_VERSION } from '../domain/version.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid parameters or body (invalid_request, invalid_cursor)',
  401: 'Missing, unknown (invalid_api_key) or revoked (revoked_api_key) key',
  402: 'Prepaid balance too low (insufficient_balance); nothing was executed',
  403: 'insufficient_scope, account_suspended, live_not_enabled or test_only',
  404: 'Unknown slug, id or SIRET (not_found)',
  409: 'idempotency_in_progress, or a state conflict',
  413: 'Body larger than 1 MB (payload_too_large)',
  422: 'idempotency_key_reused, address_invalid, recipient_email_required or another unprocessable request',
  429: 'rate_limited (120 requests per minute per key) or test_quota_exceeded',
  500: 'Internal error (internal_error)',
  502: 'A partner service failed (upstream_error)',
  503: 'Service unavailable (service_unavailable)',
};

function toJsonSchema(schema: Joi.Schema, components: Record<string, JsonSchema>): JsonSchema {
  const shared: Record<string, JsonSchema> = {};
  const converted = parse(schema as never, 'open-api-3.1', shared) as JsonSchema & { schemas?: Record<string, JsonSchema> };
  Object.assign(components, shared, converted.schemas ?? {});
  delete converted.schemas;
  const label = schema.describe().flags as { label?: string } | undefined;
  if (label?.label) {
    components[label.label] = converted;
    return { $ref: `#/components/schemas/${label.label}` };
  }
  return converted;
}

function parameters(schema: Joi.ObjectSchema | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = toJsonSchema(schema, {}) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per minute for this key', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current minute', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current window resets', schema: { type: 'integer' } },
  'X-Service-Balance': { description: 'Remaining prepaid balance, euro cents excluding VAT', schema: { type: 'integer' } },
};

/** The OpenAPI 3.1 document, generated from the routes' Joi schemas. */
export function buildOpenApi(routes: Route[], serverUrl: string): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const errorSchema = toJsonSchema(errorObject, components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const authenticated = route.scope !== null;
    const success = route.success;
    const content = success.schema
      ? { [success.contentType ?? 'application/json']: { schema: toJsonSchema(success.schema, components) } }
      : success.contentType
        ? { [success.contentType]: { schema: { type: 'string', format: 'binary' } } }
        : undefined;
    const responses: Record<string, unknown> = {
      [success.status]: { description: success.description, ...(authenticated ? { headers: rateLimitHeaders } : {}), ...(content ? { content } : {}) },
    };
    for (const status of route.errors) {
      const sameBody = success.sameBodyOn?.includes(status) && content;
      responses[status] = { description: ERROR_DESCRIPTIONS[status] ?? 'Error', content: sameBody || { 'application/json': { schema: errorSchema } } };
    }
    const idempotencyHeader =
      route.method === 'POST'
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Replays the first response for 24 hours (UUID v4 recommended)',
              schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
            },
          ]
        : [];
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(authenticated ? { security: [{ bearerAuth: [] }], 'x-required-scope': route.scope } : { security: [] }),
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query'), ...idempotencyHeader],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(route.body, components) } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Postal Mailing, Administrative Letters and Data API',
      version: API_VERSION,
      description: 'Amounts are integers in euro cents, excluding VAT. Authenticate with "Authorization: Bearer svc_test_…" (sandbox) or "svc_live_…".',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'svc_test_… or svc_live_… API key' } },
      schemas: components,
    },
  };
}
