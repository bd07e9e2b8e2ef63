import type { Context, Next } from 'koa';
import type Joi from 'joi';
import { invalidRequest } from '../errors.js';
import type { Route, RouteInput } from '../routes/route.js';

declare module 'koa' {
  interface DefaultState {
    input?: RouteInput<unknown, unknown, unknown>;
  }
}

const OPTIONS: Joi.ValidationOptions = { abortEarly: false, convert: true, allowUnknown: false, errors: { wrap: { label: false } } };

function check(schema: Joi.Schema | undefined, value: unknown, where: 'path' | 'query' | 'body'): unknown {
  if (!schema) {
    if (where === 'body' && value !== undefined) throw invalidRequest('This operation takes no request body.');
    return undefined;
  }
  const { error, value: clean } = schema.validate(value);
  if (error) {
    const details = error.details.map((d) => ({ in: where, field: d.path.join('.'), message: d.message, type: d.type }));
    const first = details[0]!;
    throw invalidRequest(`Invalid ${where === 'body' ? 'body field' : where + ' parameter'} ${first.field ? `"${first.field}"` : ''}: ${first.message}.`.replace('  ', ' '), details);
  }
  return clean;
}

/** Validates path, query and body against the route's Joi schemas (SPEC.md limits live there). */
export function validate(route: Route) {
  // Preferences compiled into the schemas once, not merged again on every call.
  const [params, query, body] = [route.params, route.query, route.body].map((schema) => schema?.prefs(OPTIONS));
  return function validateInput(ctx: Context, next: Next): Promise<void> {
    ctx.state.input = {
      params: check(params, ctx.params ?? {}, 'path'),
      query: check(query, { ...ctx.query }, 'query'),
      body: check(body, ctx.request.body, 'body'),
    };
    return next();
  };
}
