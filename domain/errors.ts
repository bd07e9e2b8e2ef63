/**
 * What the domain refuses or fails at, in its own words. The domain knows no HTTP: exactly one
 * place (api/errors.ts) turns these into SPEC.md statuses and codes. `code` names the SPEC.md code
 * where a kind has several (e.g. an unprocessable request can be address_invalid).
 */
export abstract class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
    readonly code?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request is malformed beyond its schema (e.g. an unreadable cursor). */
export class InvalidRequest extends DomainError {}
/** No such resource for this caller. */
export class NotFound extends DomainError {}
/** Well-formed, but it cannot be done (a missing field, an invalid address). */
export class Unprocessable extends DomainError {}
/** The prepaid balance does not cover the price: nothing was done. */
export class InsufficientBalance extends DomainError {
  constructor(
    readonly requiredCents: number,
    readonly balanceCents: number,
  ) {
    super(`This call costs ${requiredCents} cents excl. VAT and the balance is ${balanceCents} cents. Top up your balance.`, { requiredCents, balanceCents });
  }
}
/** The resource is not in a state that allows this (e.g. a mailing already filed). */
export class Conflict extends DomainError {}
/** The caller may not do this here (e.g. advancing a live mailing). */
export class NotAllowed extends DomainError {}
/** A partner (directory, geocoder, LLM…) keeps failing; nothing was billed. */
export class PartnerFailure extends DomainError {}
/** Our own infrastructure (the workflow service) cannot be reached right now; nothing was done. */
export class Unavailable extends DomainError {}

export const invalidRequest = (message: string, details?: unknown, code?: string): InvalidRequest => new InvalidRequest(message, details, code);
export const notFound = (message: string): NotFound => new NotFound(message);
export const unprocessable = (message: string, details?: unknown, code?: string): Unprocessable => new Unprocessable(message, details, code);
export const upstreamError = (message: string): PartnerFailure => new PartnerFailure(message);
export const serviceUnavailable = (message: string): Unavailable => new Unavailable(message);

/**
 * 403 `ai_not_enabled`: a live key's AI call for an account that has not turned the AI features on
 * (domain/access/ai-consent.ts); nothing is sent to the provider, nothing is billed.
 */
export const aiNotEnabled = (): NotAllowed =>
  new NotAllowed(
    'The AI features are off for this account: nothing was sent to the AI provider and nothing was billed. ' +
      'An owner of the account can turn them on in the developer space (Paramètres du compte, "Fonctions d’IA"), which names the provider and where it is hosted.',
    undefined,
    'ai_not_enabled',
  );
