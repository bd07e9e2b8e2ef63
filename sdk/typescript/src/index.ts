// The official TypeScript SDK: the operations and types generated from the OpenAPI document
// (./generated, `npm run sdk:generate` at the repository's root), and a small hand-written layer.
export * from './generated/sdk.gen.js';
export type * from './generated/types.gen.js';
export { createClient, type ClientOptions } from './client.js';
export { ApiError } from './errors.js';
export { retryingFetch, retryAfterMs, type RetryOptions } from './retries.js';
export { paginate, type Page } from './pagination.js';
export { parseWebhook, verifyWebhookSignature, WebhookSignatureError, type VerifyOptions } from './webhooks.js';
