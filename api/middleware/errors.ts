import type { Context, Next } from 'koa';
import Joi from 'joi';
import { ApiError, fromDomainError, fromOutage, RETRY_AFTER_SECONDS } from '../errors.js';
import { logger } from '../../lib/logger.js';
import { loggedPath } from './request-log.js';

interface HttpLikeError {
  status?: number;
  expose?: boolean;
  type?: string;
  message: string;
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fromDomain = fromDomainError(error);
  if (fromDomain) return fromDomain;
  const outage = fromOutage(error);
  if (outage) return outage;
  if (error instanceof Joi.ValidationError) {
    return new ApiError(
      400,
      'invalid_request',
      error.details[0]?.message ?? error.message,
      error.details.map((d) => ({ path: d.path.join('.'), message: d.message, type: d.type })),
    );
  }
  const http = error as HttpLikeError;
  if (http && typeof http.status === 'number' && http.status >= 400 && http.status < 500 && http.expose !== false) {
    if (http.status === 413) return new ApiError(413, 'payload_too_large', 'The request body is larger than 1 MB.');
    return new ApiError(400, 'invalid_request', http.message);
  }
  return new ApiError(500, 'internal_error', 'An internal error occurred. It has been logged; please retry later.');
}

/**
 * Every failure leaves the API in the SPEC.md error shape: { error: { code, message, details? } };
 * a route that does not exist is a 404 in the same shape. A plain promise chain rather than an
 * async function: every request passes here, and Koa's compose never throws synchronously.
 */
export function errorBody(ctx: Context, next: Next): Promise<void> {
  return next().then(
    () => {
      if (ctx.body !== undefined && ctx.body !== '') return;
      if (ctx.status === 404) answerError(ctx, new ApiError(404, 'not_found', `No route ${ctx.method} ${ctx.path}.`));
      else if (ctx.status === 405)
        answerError(ctx, new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}.`));
    },
    (error: unknown) => answerError(ctx, error),
  );
}

function answerError(ctx: Context, error: unknown): void {
  const apiError = toApiError(error);
  // Our own failures are errors; a partner, Temporal or the database being down (502, 503) is a warning.
  if (apiError.status === 500) logger.error({ err: error, method: ctx.method, path: loggedPath(ctx.path) }, 'request failed');
  else if (apiError.status > 500)
    logger.warn(
      {
        code: apiError.code,
        method: ctx.method,
        path: loggedPath(ctx.path),
        ...(error === apiError || !(error instanceof Error) ? {} : { reason: error.message }),
      },
      apiError.message,
    );
  ctx.status = apiError.status;
  if (apiError.status === 402 || apiError.status === 429) ctx.services.metrics?.refusal(apiError.code);
  // An outage of the database or of Temporal: the client may retry, after a short wait.
  if (apiError.status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  ctx.type = 'application/json';
  ctx.remove('Content-Disposition');
  ctx.body = { error: { code: apiError.code, message: apiError.message, ...(apiError.details === undefined ? {} : { details: apiError.details }) } };
}
