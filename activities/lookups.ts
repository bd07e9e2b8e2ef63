import { ApplicationFailure } from '@temporalio/activity';
import { HTTPError } from 'got';
import type { Config } from '../lib/config.js';
import { PartnerResponseError, searchAddresses, type AddressResult } from './partners/geoplateforme.js';

/** Public-data partner calls. They run on per-partner task queues, whose rate caps all workers together. */
export function lookupActivities(config: Config) {
  return {
    async geocodeAddresses(q: string, limit: number): Promise<AddressResult[]> {
      try {
        return await searchAddresses(config.partners.geocodingBaseUrl, q, limit, config.partners.timeoutMs);
      } catch (error) {
        // A refusal of the request itself will not get better with a retry.
        if (error instanceof HTTPError && error.response.statusCode >= 400 && error.response.statusCode < 500 && error.response.statusCode !== 429) {
          throw ApplicationFailure.nonRetryable(`geocoder refused the request (${error.response.statusCode})`, 'PartnerRefused');
        }
        if (error instanceof PartnerResponseError) throw ApplicationFailure.retryable(error.message, 'PartnerMalformed');
        throw error;
      }
    },
  };
}
