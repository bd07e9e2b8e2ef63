// The official TypeScript SDK: the operations and types generated from the OpenAPI document
// (./generated, `npm run sdk:generate` at the repository's root), and a small hand-written layer.
export * from './generated/sdk.gen.js';
export type * from './generated/types.gen.js';
export { createClient, type ClientOptions, type SvcPostal } from './client.js';
export type { RequestOptions, PostOptions } from './resources.js';
export { ApiError } from './errors.js';
export { retryingFetch, retryAfterMs, type RetryOptions } from './retries.js';
export { paginate, type Page } from './pagination.js';
export {
  parseWebhook,
  verifyWebhookSignature,
  WebhookSignatureError,
  type VerifyOptions,
  type WebhookEvent,
  type MailingStepEvent,
  type MailingErrorEvent,
  type MailingProofAvailableEvent,
  type MailingBatchCompletedEvent,
  type PingEvent,
  type UnknownWebhookEvent,
} from './webhooks.js';
