import { createClient as createGeneratedClient, createConfig, type Client } from './generated/client/index.js';
import { ApiError } from './errors.js';
import { retryingFetch, type RetryOptions } from './retries.js';

export interface ClientOptions extends RetryOptions {
  /** `svc_test_…` (sandbox) or `svc_live_…`. */
  apiKey: string;
  /** The API's origin, e.g. `http://localhost:3000` for `npm start` (paths start with /v1). */
  baseUrl: string;
}

/**
 * A client for the generated operations (`createMailing({ client, body })`…): authenticated,
 * retrying safely (see retryingFetch), and throwing an ApiError for every answer that is not 2xx,
 * so a call's `data` is always the success body.
 */
export function createClient(options: ClientOptions): Client {
  const client = createGeneratedClient(
    createConfig({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(options),
      throwOnError: true,
    }),
  );
  client.interceptors.error.use((error, response) => (response && !response.ok ? ApiError.fromAnswer(response.status, response.headers, error) : error));
  return client;
}
