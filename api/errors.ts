import {
  Conflict,
  DomainError,
  InsufficientBalance,
  InvalidRequest,
  NotAllowed,
  NotFound,
  PartnerFailure,
  Unavailable,
  Unprocessable,
} from '../domain/errors.js';
import { isDatabaseUnavailable } from '../db/knex.js';

/** An error answered over HTTP; the error middleware turns it into the SPEC.md error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 invalid_request for what the HTTP layer itself refuses (headers, body, schema). */
export const badRequest = (message: string, details?: unknown): ApiError => new ApiError(400, 'invalid_request', message, details);

/** The one mapping from the domain's errors to SPEC.md statuses and default codes. */
const HTTP_OF: [new (...args: never[]) => DomainError, number, string][] = [
  [InvalidRequest, 400, 'invalid_request'],
  [InsufficientBalance, 402, 'insufficient_balance'],
  // Or the code the domain names: account_suspended, live_not_enabled, test_only, ai_not_enabled (domain/errors.ts).
  [NotAllowed, 403, 'forbidden'],
  [NotFound, 404, 'not_found'],
  [Conflict, 409, 'conflict'],
  [Unprocessable, 422, 'unprocessable'],
  [PartnerFailure, 502, 'upstream_error'],
  [Unavailable, 503, 'service_unavailable'],
];

/** A domain error as the API answers it; undefined for anything else. */
export function fromDomainError(error: unknown): ApiError | undefined {
  if (!(error instanceof DomainError)) return undefined;
  const [, status, code] = HTTP_OF.find(([type]) => error instanceof type) ?? [DomainError, 500, 'internal_error'];
  return new ApiError(status, error.code ?? code, error.message, error.details);
}

/** Seconds a client is asked to wait (Retry-After) after a 503: our components restart in seconds. */
export const RETRY_AFTER_SECONDS = 3;

/** 503 service_unavailable for an outage of our own database; undefined for any other error. */
export function fromOutage(error: unknown): ApiError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new ApiError(503, 'service_unavailable', 'The database cannot be reached right now; please retry shortly.');
}

/**
 * 429 `rate_limited` for a client address that keeps failing (authentication, proof links): it may
 * try again when the minute is over, which Retry-After says.
 */
export function tooManyFailures(ctx: { set(field: string, value: string): void }, message: string): ApiError {
  ctx.set('Retry-After', String(60 - (Math.floor(Date.now() / 1000) % 60)));
  return new ApiError(429, 'rate_limited', message);
}
