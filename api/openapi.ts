import { createHash } from 'node:crypto';
import type Joi from 'joi';
import { joiToOpenApiSchema, nameOpenEnums, type JsonSchema } from '../lib/json-schema.js';
import { errorObject } from './schemas/common.js';
import { webhookEventSchema } from './schemas/webhooks.js';
import type { Route } from './routes/route.js';
import { IDEMPOTENCY_KEY_PATTERN } from './middleware/idempotency.js';
import { requestExamples } from './examples.js';
import { codeSamples, SAMPLE_KEY_VARIABLE } from './code-samples.js';
import { API_VERSION } from '../domain/version.js';
import { EVENT_TYPES } from '../domain/webhooks/event-types.js';

/** SPEC.md's Errors table, with the codes DESIGN.md adds; the document's error table and examples. */
export const ERROR_CODES: { status: number; code: string; condition: string }[] = [
  {
    status: 400,
    code: 'invalid_request',
    condition:
      'Invalid parameters or body; `details` lists each invalid field (`in`, `field`, `message`, `type`). Also a request that is not valid HTTP/1.1, or ends before its headers are complete (answered before any route, without `details`)',
  },
  { status: 400, code: 'invalid_cursor', condition: 'Unreadable pagination cursor: pass `nextCursor` exactly as received' },
  { status: 401, code: 'invalid_api_key', condition: 'Key missing, unknown or invalid' },
  { status: 401, code: 'revoked_api_key', condition: 'Key revoked' },
  { status: 402, code: 'insufficient_balance', condition: 'Prepaid balance too low for a paid unit; nothing is executed' },
  { status: 403, code: 'insufficient_scope', condition: 'Key lacks the scope the operation requires' },
  { status: 403, code: 'account_suspended', condition: 'Account suspended' },
  { status: 403, code: 'live_not_enabled', condition: 'Production not yet opened for the account' },
  {
    status: 403,
    code: 'ai_not_enabled',
    condition: 'A live key calls an AI operation of an account that has not turned the AI features on; nothing is sent to the AI provider or billed',
  },
  { status: 403, code: 'test_only', condition: 'A test-only operation called with a live key or on a live mailing' },
  { status: 408, code: 'request_timeout', condition: 'The request did not arrive in full in time (answered before any route; the connection closes)' },
  { status: 404, code: 'not_found', condition: 'Unknown slug, id, SIRET or route' },
  { status: 405, code: 'method_not_allowed', condition: 'A known path with a method it does not have; the `Allow` header lists those it has' },
  { status: 409, code: 'idempotency_in_progress', condition: 'An identical request with the same `Idempotency-Key` is still running' },
  { status: 409, code: 'conflict', condition: 'The resource is not in a state that allows the operation (e.g. a mailing already filed)' },
  { status: 413, code: 'payload_too_large', condition: 'Body larger than 1 MB' },
  {
    status: 431,
    code: 'headers_too_large',
    condition: 'Request line and headers larger than 16 KB, e.g. a very long URL (answered before any route; the connection closes)',
  },
  { status: 422, code: 'idempotency_key_reused', condition: 'The `Idempotency-Key` was used for a different request' },
  {
    status: 422,
    code: 'address_invalid',
    condition:
      'An address fails the postal norm or the official commune list (`details`: a list of `{ field, message }`), or the national address base does not confirm the recipient (`details.suggestions`: addresses to resend)',
  },
  { status: 422, code: 'recipient_siret_unknown', condition: 'No establishment has the recipient SIRET (`details.siret`)' },
  { status: 422, code: 'recipient_siret_closed', condition: 'The recipient SIRET names a closed establishment (`details.siret`)' },
  {
    status: 422,
    code: 'pdf_refused',
    condition:
      'A PDF letter (`letter.pdf`) fails a check before anything is charged; `details.reason`: `unreadable`, `encrypted`, `no_pages`, `active_content`, `page_size`, `too_many_sheets`, `font_not_embedded` or `window_not_blank` (docs/own-pdf.md)',
  },
  {
    status: 422,
    code: 'recipient_email_required',
    condition: 'options.emailCopy, or the electronic channel (channel "electronic"), and no recipientEmail was given',
  },
  { status: 422, code: 'channel_not_available', condition: 'The electronic channel with a mode that has none: mode simple is posted only' },
  {
    status: 422,
    code: 'destination_not_served',
    condition:
      "A registered or AR letter to a country the operator's registered mail does not reach: France (its overseas included), Monaco and Andorra only, or an electronic one whose paper fallback would be posted elsewhere (`details.field`: recipient.country)",
  },
  {
    status: 422,
    code: 'consent_required',
    condition: 'The electronic channel to a consumer recipient without electronic.consent, its prior consent (CPCE L100)',
  },
  {
    status: 422,
    code: 'sender_identity_unverified',
    condition:
      "A live electronic letter while the account's sender identity is not verified at the provider (`details.identity`); requested in the developer space",
  },
  {
    status: 422,
    code: 'option_not_available',
    condition:
      "An operator's option the mode does not offer (`details.field`): options.postage (one speed) or options.returnedMail (no digital handling of returns), options.envelopeWindows or options.printSenderAddress for a registered or AR letter, an options.archiveYears value the mode's archive does not have (`details.allowed`), any of them on the electronic channel",
  },
  {
    status: 422,
    code: 'return_envelope_not_configured',
    condition: 'options.returnEnvelope while the account has no return envelope configured (its settings in the developer space or the admin CLI)',
  },
  { status: 422, code: 'unprocessable', condition: 'Other unprocessable request (well-formed but inconsistent), on operations that list 422' },
  { status: 429, code: 'rate_limited', condition: 'More than 120 requests per minute for the key (see `RateLimit-*`)' },
  { status: 429, code: 'test_quota_exceeded', condition: 'Sandbox daily quota exceeded' },
  { status: 500, code: 'internal_error', condition: 'Internal error' },
  { status: 502, code: 'upstream_error', condition: 'A partner service fails; nothing is billed' },
  { status: 503, code: 'service_unavailable', condition: 'Our database, Temporal or the document store cannot be reached; retry after `Retry-After` seconds' },
];

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthenticated',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  422: 'Unprocessable',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Partner failure',
  503: 'Service unavailable',
};

/**
 * The statuses a route answers beyond its SPEC.md list because of the steps every route of its
 * kind goes through (api/app.ts `chain`), each with why. Documented once here rather than repeated
 * in every route; test/e2e/spec-conformance.test.ts checks the document is SPEC.md plus these.
 */
export function commonStatuses(route: Route): Map<number, string> {
  const common = new Map<number, string>();
  const authenticated = route.scope !== null;
  if (route.params || route.query || route.body || route.method === 'POST') common.set(400, 'parameters, body or headers refused');
  if (authenticated) {
    common.set(401, 'authenticate: key missing, unknown or revoked');
    common.set(403, 'authenticate: scope, suspended account, live not enabled');
    common.set(429, 'authenticate: rate limit and sandbox quota');
  }
  if (route.method === 'POST') {
    common.set(409, 'idempotency: the same key still running');
    common.set(413, 'body: larger than 1 MB');
    common.set(422, 'idempotency: the key was used for another request');
  }
  common.set(500, 'any route');
  if (!route.fromMemory) common.set(503, 'an outage of the database, Temporal or the document store, on any route that reaches them');
  return common;
}

/** Every status the route can answer, sorted. */
export function documentedStatuses(route: Route): number[] {
  return [...new Set([...route.errors, ...commonStatuses(route).keys()])].sort((a, b) => a - b);
}

function errorTable(): string {
  return ['| HTTP | Code | Meaning |', '|---|---|---|', ...ERROR_CODES.map((e) => `| ${e.status} | \`${e.code}\` | ${e.condition} |`)].join('\n');
}

const WEBHOOK_CHECK = `\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the exact bytes received (before any JSON parsing); secret: the whole whsec_… string.
export function verify(rawBody, signatureHeader, secret, now = Date.now()) {
  const parts = signatureHeader.split(',').map((p) => p.split('='));
  const t = parts.find(([name]) => name === 't')?.[1] ?? '';
  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();
  // Several v1 after a secret rotation (new, old): any one matching is enough.
  const matches = parts
    .filter(([name]) => name === 'v1')
    .map(([, hex]) => Buffer.from(hex ?? '', 'hex'))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  const fresh = Math.abs(now / 1000 - Number(t)) <= 300; // 5 minutes
  return fresh && matches;
}
\`\`\``;

function description(): string {
  return `Postal mailings (simple, registered, registered with acknowledgment of receipt), administrative letters, calculators, quotes and public-data lookups.

Amounts are integers in euro cents, excluding VAT. Authenticate every call with \`Authorization: Bearer svc_test_…\` (sandbox: nothing is billed or posted) or \`svc_live_…\`. The samples of each operation (curl, TypeScript with the \`svc-postal\` package, Python with \`svc_postal\`) read the key from \`${SAMPLE_KEY_VARIABLE}\` (\`export ${SAMPLE_KEY_VARIABLE}=svc_test_…\`) and send a fresh \`Idempotency-Key\` on each POST: they run as pasted, as many times as wanted. Call the API from a server: no CORS header is sent.

# Errors

Every error answers \`{ "error": { "code", "message", "details"? } }\` with one of these codes. Each operation lists the statuses it can answer; 503 (with \`Retry-After\`) can come from any operation that reaches our database, Temporal or the document store during an outage, 429 from any authenticated one.

${errorTable()}

# Limits

- 120 requests per minute per key: \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` on every authenticated answer; \`X-Service-Balance\` gives the remaining prepaid balance.
- Bodies up to 1 MB, JSON only (\`Content-Type: application/json\`).
- Every POST takes an optional \`Idempotency-Key\` (1 to 255 printable ASCII characters; a UUID v4 is recommended): the same key and request within 24 hours replays the first answer with \`Idempotent-Replayed: true\`; another request under the same key is 422 \`idempotency_key_reused\`; the same one still running is 409 \`idempotency_in_progress\`. Keys are scoped to the account and the mode (test or live).
- Lists (\`GET /v1/mailings\`, \`GET /v1/mailing-batches\`, \`GET /v1/requests\`) are pages of 1 to 100 items, most recent first; pass \`nextCursor\` as \`cursor\` while \`hasMore\` is true. The cursor is opaque: anything else is 400 \`invalid_cursor\`.

# Webhooks

Each step of a mailing is announced by an HTTPS \`POST\` to the account's endpoints (test events to test endpoints, live to live), with the body shown under **Webhooks** (event types: ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}) and these headers: \`Service-Event\` (the type), \`Service-Delivery\` (delivery id, the same on every retry), \`Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>\` (during the 24 h after a secret rotation, \`v1=<new>,v1=<old>\`: accept any matching \`v1\`).

Answer 2xx within 10 seconds; otherwise the delivery is retried after 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h (8 attempts). Deduplicate on the event \`id\`; never move a mailing backwards (keep the highest \`data.mailing.step\`).

## Verify the signature

\`v1\` is the lowercase hex HMAC-SHA256 of \`<t>.<raw body>\` keyed with the whole \`whsec_…\` secret. Compute it on the raw bytes, compare in constant time, refuse a \`t\` more than 5 minutes from your clock:

${WEBHOOK_CHECK}
`;
}

const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per minute for this key', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current minute', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current window resets', schema: { type: 'integer' } },
  'X-Service-Balance': { description: 'Remaining prepaid balance, euro cents excluding VAT', schema: { type: 'integer' } },
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  style?: string;
  explode?: boolean;
  example?: unknown;
}

function parameters(
  schema: Joi.ObjectSchema | undefined,
  where: 'path' | 'query',
  example: Record<string, unknown> | undefined,
  components: Record<string, JsonSchema>,
): Parameter[] {
  if (!schema) return [];
  const object = joiToOpenApiSchema(schema, { components, query: true }) as JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] };
  const dependent = ['allOf', 'anyOf', 'oneOf', 'not'].some((k) => k in object);
  if (dependent && where === 'query') {
    // Parameters that depend on each other (e.g. lat with lon, or insee): one exploded object, so
    // that the dependencies are part of the document rather than prose.
    const { description: _d, ...rest } = object;
    return [
      {
        name: 'query',
        in: 'query',
        required: true,
        style: 'form',
        explode: true,
        description: `The query parameters, each sent as its own \`name=value\`. ${(object.description as string | undefined) ?? ''}`.trim(),
        schema: rest,
        ...(example ? { example } : {}),
      },
    ];
  }
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
    ...(example?.[name] !== undefined ? { example: example[name] } : {}),
  }));
}

function errorExample(status: number): Record<string, unknown> {
  const first = ERROR_CODES.find((e) => e.status === status);
  return {
    error: {
      code: first?.code ?? 'error',
      message: first?.condition.replace(/`/g, '') ?? 'Error',
      ...(status === 400 ? { details: [{ in: 'body', field: 'sender.postcode', message: 'sender.postcode is required', type: 'any.required' }] } : {}),
    },
  };
}

/** The OpenAPI 3.1 document, generated from the routes' Joi schemas. */
export function buildOpenApi(routes: Route[], serverUrl: string): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const response = (schema: Joi.Schema): JsonSchema => joiToOpenApiSchema(schema, { components, loose: true });
  const errorSchema = response(errorObject);
  const examples = requestExamples();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const authenticated = route.scope !== null;
    const example = examples[route.operationId];
    const success = route.success;
    const content = success.schema
      ? { [success.contentType ?? 'application/json']: { schema: response(success.schema) } }
      : success.contentType
        ? { [success.contentType]: { schema: { type: 'string', format: 'binary' } } }
        : undefined;
    const responses: Record<string, unknown> = {
      [success.status]: { description: success.description, ...(authenticated ? { headers: rateLimitHeaders } : {}), ...(content ? { content } : {}) },
    };
    const other = route.otherSuccess;
    if (other?.schema)
      responses[other.status] = {
        description: other.description,
        ...(authenticated ? { headers: rateLimitHeaders } : {}),
        content: { 'application/json': { schema: response(other.schema) } },
      };
    if (route.operationId === 'getCatalogue') responses['304'] = { description: 'Not modified: If-None-Match holds the current ETag (no body)' };
    const common = commonStatuses(route);
    for (const status of documentedStatuses(route)) {
      const sameBody = success.sameBodyOn?.includes(status) && content;
      const codes = ERROR_CODES.filter((e) => e.status === status).map((e) => `\`${e.code}\``);
      const why = route.errors.includes(status) ? '' : ` (${common.get(status)})`;
      responses[status] = {
        description: `${STATUS_TITLES[status] ?? 'Error'}${codes.length ? ': ' + codes.join(', ') : ''}${why}`,
        ...(status === 503 ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } } } : {}),
        content: sameBody || { 'application/json': { schema: errorSchema, example: errorExample(status) } },
      };
    }
    const idempotencyHeader: Parameter[] =
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
    const bodyRequired = route.body ? route.body.validate({}).error !== undefined : false;
    const bodyContent = route.body
      ? { schema: joiToOpenApiSchema(route.body, { components }), ...(example?.body !== undefined ? { example: example.body } : {}) }
      : undefined;
    const operationParameters = [
      ...parameters(route.params, 'path', example?.params, components),
      ...parameters(route.query, 'query', example?.query, components),
      ...idempotencyHeader,
    ];
    // A nullable body is `anyOf: [{ $ref }, { type: 'null' }]` (lib/json-schema.ts): its model is the component's still.
    const bodySchema = bodyContent?.schema as { $ref?: unknown; anyOf?: { $ref?: unknown }[] } | undefined;
    const bodyRef = [bodySchema?.$ref, ...(bodySchema?.anyOf ?? []).map((branch) => branch.$ref)].find((ref): ref is string => typeof ref === 'string');
    const bodyModel = bodyRef?.replace('#/components/schemas/', '');
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(authenticated ? { security: [{ bearerAuth: [] }], 'x-required-scope': route.scope } : { security: [] }),
      parameters: operationParameters,
      ...(bodyContent ? { requestBody: { required: bodyRequired, content: { 'application/json': bodyContent } } } : {}),
      responses,
      'x-codeSamples': codeSamples({
        route,
        example,
        serverUrl,
        parameters: operationParameters,
        bodyModel,
      }),
    };
  }
  const event = response(webhookEventSchema);
  const webhooks = Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: type,
          description: `Sent to your endpoint, signed in \`Service-Signature\` (see "Verify the signature").${type === 'ping' ? ' Sent by the developer space\'s "send a test event" button to one endpoint; `data` is `{ endpoint: { id, url, events } }`.' : ''}`,
          parameters: [
            { name: 'Service-Event', in: 'header', required: true, schema: { const: type } },
            { name: 'Service-Delivery', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
            {
              name: 'Service-Signature',
              in: 'header',
              required: true,
              schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
              description: 'One v1 per signing secret: two, the new one first, during the 24 h after a secret rotation',
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: event } } },
          responses: { '2XX': { description: 'Received; anything else (or no answer within 10 s) is retried' } },
        },
      },
    ]),
  );
  nameOpenEnums(components);
  return {
    openapi: '3.1.0',
    info: { title: 'Postal Mailing, Administrative Letters and Data API', version: API_VERSION, description: description() },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    webhooks,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'svc_test_… or svc_live_… API key' } },
      schemas: components,
    },
  };
}

/**
 * What CHANGELOG.md's releases (and `## Unreleased`, once it has an entry) end with: the SHA-256 of
 * the document with sorted keys, served address left out. A change of the contract changes it, so
 * test/unit/changelog.test.ts fails until the change has its entry (`npm run openapi:fingerprint`).
 */
export function openApiFingerprint(routes: Route[]): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
          )
        : value;
  const { servers: _servedAt, ...contract } = buildOpenApi(routes, 'https://api.example.invalid');
  return createHash('sha256')
    .update(JSON.stringify(sorted(contract)))
    .digest('hex');
}
