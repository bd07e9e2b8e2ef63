import { createClient as createGeneratedClient, createConfig, type Client } from './generated/client/index.js';
import { ApiError } from './errors.js';
import { lettersOf, mailingBatchesOf, mailingsOf, webhooksOf } from './resources.js';
import { retryingFetch, type RetryOptions } from './retries.js';

export interface ClientOptions extends RetryOptions {
  /** `svc_test_…` (sandbox) or `svc_live_…`. */
  apiKey: string;
  /** The API's origin, e.g. `http://localhost:3000` for `npm start` (paths start with /v1). */
  baseUrl: string;
  /** The endpoint's `whsec_…` secret (several during a rotation), for `svc.webhooks.verify`. */
  webhookSecrets?: string | string[];
}

/**
 * The API, bound to a key: `svc.mailings.create(body)`, `svc.mailings.get(id)`,
 * `for await (const mailing of svc.mailings.list({ status }))`, `svc.letters.render(slug, body)`,
 * `svc.webhooks.verify(…)`: each returns the success body, typed, and throws an ApiError for an
 * error answer. It is also the `client` every generated function takes (`getCompany({ client: svc, path })`).
 */
export type SvcPostal = Client & {
  mailings: ReturnType<typeof mailingsOf>;
  mailingBatches: ReturnType<typeof mailingBatchesOf>;
  letters: ReturnType<typeof lettersOf>;
  webhooks: ReturnType<typeof webhooksOf>;
};

/**
 * The client: authenticated, retrying safely (see retryingFetch), and throwing an ApiError for
 * every answer that is not 2xx, so a call's `data` is always the success body.
 */
export function createClient(options: ClientOptions): SvcPostal {
  const client = createGeneratedClient(
    createConfig({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch(options),
      throwOnError: true,
      // The document's query parameters are all of its default style (form, exploded): an object
      // parameter (GET /v1/fuel/stations's) is sent as its fields, not the generator's `query[fuel]=`.
      querySerializer: { object: { style: 'form', explode: true } },
    }),
  );
  client.interceptors.error.use((error, response) => (response && !response.ok ? ApiError.fromAnswer(response.status, response.headers, error) : error));
  return Object.assign(client, {
    mailings: mailingsOf(client),
    mailingBatches: mailingBatchesOf(client),
    letters: lettersOf(client),
    webhooks: webhooksOf(options.webhookSecrets),
  });
}
