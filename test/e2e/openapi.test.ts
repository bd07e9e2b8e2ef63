import { expect } from 'chai';
import type Joi from 'joi';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { call, createAccount } from '../support/api.js';
import { routes } from '../../api/routes/index.js';
import { requestExamples } from '../../api/examples.js';
import { documentedStatuses } from '../../api/openapi.js';
import type { Route } from '../../api/routes/route.js';

type Json = Record<string, any>;

const PREFS: Joi.ValidationOptions = { abortEarly: false, convert: true, allowUnknown: false };

/** A validator of one schema of the document, its $refs resolved against the document. */
function validatorOf(doc: Json): (schema: Json) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  const rebase = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components/g, '"$ref":"doc#/components'));
  return (schema) => ajv.compile(rebase(schema) as Json);
}

/** The request schemas of an operation: path, query (one object) and body. */
function requestSchemas(op: Json): { path: Json; query: Json; body?: Json } {
  const params = (op.parameters ?? []) as Json[];
  const object = (where: string): Json => {
    const list = params.filter((p) => p.in === where);
    const exploded = list.find((p) => p.style === 'form' && p.explode && p.schema.type === 'object');
    if (exploded) return exploded.schema;
    return {
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, p.schema])),
      required: list.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    };
  };
  return { path: object('path'), query: object('query'), body: op.requestBody?.content?.['application/json']?.schema };
}

/** As the query string carries it: every value a string. */
const asQueryString = (query: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));

function joiAccepts(route: Route, where: 'params' | 'query' | 'body', value: unknown): string | undefined {
  const schema = route[where] as Joi.Schema | undefined;
  if (!schema) return value === undefined || (typeof value === 'object' && value && !Object.keys(value).length) ? undefined : 'no schema';
  const input = where === 'query' ? asQueryString(value as Record<string, unknown>) : where === 'body' && value === undefined ? {} : value;
  return schema.validate(input, PREFS).error?.message;
}

describe('OpenAPI document and docs page', () => {
  let doc: Json;
  before(async () => {
    doc = (await call('GET', '/v1/openapi.json')).body;
  });

  it('serves an OpenAPI 3.1 document, version 1.2.0, without authentication, listing every route and every status it answers', async () => {
    const res = await call('GET', '/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal('3.1.0');
    expect(res.body.info.version).to.equal('1.2.0');
    for (const route of routes) {
      const op = res.body.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).to.be.an('object');
      expect(op.operationId).to.equal(route.operationId);
      const statuses = Object.keys(op.responses)
        .map(Number)
        .filter((s) => s >= 400);
      expect(
        statuses.sort((a, b) => a - b),
        route.operationId,
      ).to.deep.equal(documentedStatuses(route));
      for (const status of route.errors) expect(op.responses, `${route.operationId} ${status}`).to.have.property(String(status));
    }
  });

  it('documents what schemathesis found undocumented: 422 on cancel, 400 on proof files, 503 with Retry-After everywhere a component is reached', () => {
    expect(doc.paths['/v1/mailings/{id}/cancel'].post.responses).to.include.keys('409', '413', '422');
    expect(doc.paths['/v1/proof-files/{token}'].get.responses).to.include.keys('400', '404', '503');
    for (const route of routes.filter((r) => !r.fromMemory)) {
      const response = doc.paths[route.path][route.method.toLowerCase()].responses['503'];
      expect(response, route.operationId).to.be.an('object');
      if (route.operationId !== 'health') expect(response.headers, route.operationId).to.have.property('Retry-After');
    }
  });

  it('U+0000 in a body, a query or a path is 400 naming the field (it was 500: PostgreSQL cannot store it), and the document excludes it', async () => {
    const account = await createAccount();
    const input = { kind: 'letter', title: 'Un titre\u0000', description: 'Une description assez longue' };
    const body = await call('POST', '/v1/requests', { key: account.testKey, body: input });
    expect(body.status).to.equal(400);
    expect(body.body.error.details[0]).to.include({ in: 'body', field: 'title' });
    const key = await call('POST', '/v1/letters/x/render', { key: account.testKey, body: { fields: { 'a\u0000': 'b' } } });
    expect(key.status).to.equal(400);
    const query = await call('GET', '/v1/mailings?reference=a%00', { key: account.testKey });
    expect(query.status).to.equal(400);
    expect(query.body.error.details[0]).to.include({ in: 'query', field: 'reference' });
    const ok = await call('POST', '/v1/requests', { key: account.testKey, body: { ...input, title: 'Un titre' } });
    expect(ok.status).to.equal(201);
    expect(doc.components.schemas.ServiceRequestInput.properties.title.pattern).to.match(/^\^\[.*\\u0001/);
  });

  it('takes its limits from the Joi schemas', async () => {
    const settle = doc.paths['/v1/expenses/settle'].post;
    expect(settle['x-required-scope']).to.equal('catalogue:read');
    const idempotency = settle.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
    expect(idempotency.schema.pattern).to.equal('^[\\x20-\\x7E]{1,255}$');
    const group = doc.components.schemas.ExpenseGroup;
    expect(group.properties.members).to.include({ minItems: 2, maxItems: 50 });
    expect(settle.responses['200'].headers).to.have.keys('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Service-Balance');
    // What schemathesis found looser than Joi.
    expect(doc.components.schemas.MailingAddress.properties.name).to.include({ minLength: 1, maxLength: 200 });
    const patterns = (schema: Json): string[] => [schema.pattern, ...(schema.allOf ?? []).map((p: Json) => p.pattern)].filter(Boolean);
    expect(patterns(doc.paths['/v1/mailings/{id}'].get.parameters[0].schema).join()).to.match(/-\[4571\]/);
    expect(doc.paths['/v1/proof-files/{token}'].get.parameters[0].schema).to.include({ minLength: 1, maxLength: 500 });
    const stations = doc.paths['/v1/fuel/stations'].get.parameters[0];
    expect(stations).to.include({ in: 'query', style: 'form', explode: true });
    expect(patterns(stations.schema.properties.insee)).to.include('^([0-9]{5}|2[AB][0-9]{3})$');
    expect(stations.schema.allOf).to.have.length(2);
  });

  it('every operation has a curl sample, and every operation with inputs an example that Joi accepts and the document allows', () => {
    const compile = validatorOf(doc);
    const examples = requestExamples();
    for (const route of routes) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      expect(op['x-codeSamples']?.[0]?.source, route.operationId).to.match(/^curl /);
      const hasInputs = route.params || (route.query && Object.keys(route.query.describe().keys ?? {}).length) || route.body;
      const example = examples[route.operationId];
      if (!hasInputs) continue;
      expect(example, `example for ${route.operationId}`).to.be.an('object');
      const schemas = requestSchemas(op);
      for (const [where, value, schema] of [
        ['params', example!.params ?? {}, schemas.path],
        ['query', example!.query ?? {}, schemas.query],
        ['body', example!.body, schemas.body],
      ] as const) {
        expect(joiAccepts(route, where, value), `${route.operationId} ${where}`).to.equal(undefined);
        if (schema && value !== undefined) {
          const validate = compile(schema);
          expect(validate(value), `${route.operationId} ${where}: ${JSON.stringify(validate.errors)}`).to.equal(true);
        }
      }
    }
  });

  it('the request schemas allow nothing Joi refuses: minimal and maximal instances built from the document', () => {
    const compile = validatorOf(doc);
    const resolve = (schema: Json): Json => (schema.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);
    /** Instances at the document's boundaries (shortest, longest, each enum value, each branch), or none when unsure. */
    const instances = (raw: Json, depth = 0): unknown[] => {
      const s = resolve(raw);
      if (depth > 6) return [];
      if (s.enum) return s.enum;
      if (s.const !== undefined) return [s.const];
      if (s.anyOf || s.oneOf) {
        const branches = (s.anyOf ?? s.oneOf) as Json[];
        return branches.flatMap((b) => instances({ ...s, anyOf: undefined, oneOf: undefined, ...resolve(b) }, depth + 1)).slice(0, 6);
      }
      const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
      if (type === 'string') {
        if (s.format) return [];
        // Candidates at the bounds; only those this property's own schema allows (its patterns too).
        const min = s.minLength ?? 1;
        const max = s.maxLength ?? 20;
        const candidates = [
          'x'.repeat(min),
          'x'.repeat(Math.max(min, 12)),
          'é'.repeat(Math.min(max, 60_000)),
          ` ${'ab '.repeat(Math.ceil(min / 2))}`.slice(0, max),
        ];
        const validate = compile(s);
        return [...new Set(candidates)].filter((c) => validate(c));
      }
      if (type === 'integer' || type === 'number') return [s.minimum, s.maximum].filter((v) => v !== undefined);
      if (type === 'boolean') return [true, false];
      if (type === 'array') {
        const items = s.items ? instances(s.items, depth + 1) : [];
        if (!items.length) return s.minItems ? [] : [[]];
        const shortest = Array(s.minItems ?? 0).fill(items[0]);
        const longer = Array(Math.min(s.maxItems ?? 3, 3)).fill(items.at(-1));
        return [shortest, longer].filter((a) => !s.minItems || a.length >= s.minItems);
      }
      if (type === 'object') {
        const properties = Object.entries((s.properties ?? {}) as Record<string, Json>);
        const required: string[] = s.required ?? [];
        const minimal: Json = {};
        const maximal: Json = {};
        for (const [name, property] of properties) {
          const values = instances(property, depth + 1);
          if (!values.length) {
            if (required.includes(name)) return [];
            continue;
          }
          if (required.includes(name)) minimal[name] = values[0];
          maximal[name] = values.at(-1);
        }
        return [minimal, maximal];
      }
      return [];
    };
    let checked = 0;
    for (const route of routes) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      const schemas = requestSchemas(op);
      for (const [where, schema] of [
        ['params', schemas.path],
        ['query', schemas.query],
        ['body', schemas.body],
      ] as const) {
        if (!schema) continue;
        const validate = compile(schema);
        for (const instance of instances(schema)) {
          // Only what the document allows counts (the builder ignores cross-key rules and patterns).
          if (!validate(instance)) continue;
          checked++;
          expect(joiAccepts(route, where, instance), `${route.operationId} ${where} ${JSON.stringify(instance).slice(0, 300)}`).to.equal(undefined);
        }
      }
    }
    expect(checked).to.be.greaterThan(40);
  });
});
