import type { Context } from 'koa';
import type Joi from 'joi';
import { badRequest } from '../errors.js';
import type { Route } from '../routes/route.js';

const OPTIONS: Joi.ValidationOptions = { abortEarly: false, convert: true, allowUnknown: false, errors: { wrap: { label: false } } };

/** The path of the first string or key holding U+0000, which PostgreSQL text and jsonb cannot store; undefined when none. */
function nulCharacterAt(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return childPath;
        pending.push([child, childPath]);
      }
    }
  }
  return undefined;
}

function check(schema: Joi.Schema | undefined, value: unknown, where: 'path' | 'query' | 'body'): unknown {
  const nul = nulCharacterAt(value);
  if (nul !== undefined) {
    const details = [{ in: where, field: nul, message: `${nul || 'the value'} contains the character U+0000`, type: 'string.nul' }];
    throw badRequest(`Invalid ${where === 'body' ? 'body field' : where + ' parameter'} "${nul}": the character U+0000 is not accepted.`, details);
  }
  if (!schema) {
    if (where === 'body' && value !== undefined) throw badRequest('This operation takes no request body.');
    return undefined;
  }
  const { error, value: clean } = schema.validate(value);
  if (error) {
    const details = error.details.map((d) => ({ in: where, field: d.path.join('.'), message: d.message, type: d.type }));
    const first = details[0]!;
    throw badRequest(
      `Invalid ${where === 'body' ? 'body field' : where + ' parameter'} ${first.field ? `"${first.field}"` : ''}: ${first.message}.`.replace('  ', ' '),
      details,
    );
  }
  return clean;
}

/**
 * What a schema makes of an empty query string, worked out once: most calls send none, and the
 * answer (defaults included) is the same every time. Null when it must be validated per call
 * (an error to report, or a default that is not a plain value).
 */
function emptyQueryResult(schema: Joi.Schema | undefined): Record<string, unknown> | null {
  if (!schema) return null;
  const { error, value } = schema.validate({});
  const plain = (v: unknown): boolean => v === null || (typeof v !== 'object' && typeof v !== 'function');
  return !error && Object.values(value as object).every(plain) ? (value as Record<string, unknown>) : null;
}

/** Distinct path parameters remembered per route: a polled resource is not validated again. */
const REMEMBERED_PATHS = 1000;

/**
 * Path parameters validated once per distinct value: clients poll the same ids, and Joi's pass
 * over `{ id }` was a tenth of a cached GET /v1/mailings/{id}. Only valid values are kept (an
 * invalid one is checked, and refused, every time), at most REMEMBERED_PATHS per route.
 */
function rememberedPathCheck(schema: Joi.Schema | undefined): (params: Record<string, string>) => unknown {
  // A route without path parameters gets {} from @koa/router: nothing to check on each call.
  if (!schema) return (params) => (Object.keys(params).length === 0 ? undefined : check(schema, params, 'path'));
  const valid = new Map<string, Record<string, unknown>>();
  return (params) => {
    const values = Object.values(params);
    if (values.some((v) => v.includes('\u0000'))) return check(schema, params, 'path');
    const key = values.join('\u0000');
    const known = valid.get(key);
    if (known) return { ...known };
    const clean = check(schema, params, 'path') as Record<string, unknown>;
    if (valid.size >= REMEMBERED_PATHS) valid.delete(valid.keys().next().value!);
    valid.set(key, clean);
    return { ...clean };
  };
}

/**
 * The last step of every route: validates path, query and body against the route's Joi schemas
 * (SPEC.md limits live there), then runs the handler with the clean input.
 */
export function validateThenHandle(route: Route) {
  // Preferences compiled into the schemas once, not merged again on every call.
  const [params, query, body] = [route.params, route.query, route.body].map((schema) => schema?.prefs(OPTIONS));
  const emptyQuery = emptyQueryResult(query);
  const checkPath = rememberedPathCheck(params);
  return function validatedHandler(ctx: Context): Promise<void> {
    return route.handler(ctx, {
      params: checkPath(ctx.params ?? {}),
      // A copy, so that a handler changing its input cannot change the next call's.
      query: emptyQuery && ctx.querystring === '' ? { ...emptyQuery } : check(query, { ...ctx.query }, 'query'),
      // A missing or empty body is validated as {}: the answer names each missing field.
      body: check(body, body && ctx.request.body === undefined ? {} : ctx.request.body, 'body'),
    });
  };
}
