import { ApplicationFailure } from '@temporalio/activity';
import { HTTPError } from 'got';

/** A partner answered, but not with what its documentation promises: worth another attempt. */
export class PartnerResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartnerResponseError';
  }
}

/**
 * Partner failures as Temporal sees them: a refused request (4xx other than 408 and 429) is not
 * retried; timeouts, 5xx, 429 and malformed answers are.
 */
export async function partnerCall<T>(partner: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HTTPError) {
      const status = error.response.statusCode;
      if (status >= 400 && status < 500 && status !== 408 && status !== 429)
        throw ApplicationFailure.nonRetryable(`${partner} refused the request (${status})`, 'PartnerRefused');
    }
    if (error instanceof PartnerResponseError) throw ApplicationFailure.retryable(`${partner}: ${error.message}`, 'PartnerMalformed');
    throw error;
  }
}
