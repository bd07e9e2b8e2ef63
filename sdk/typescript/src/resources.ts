import type { Client } from './generated/client/index.js';
import {
  advanceTestMailing,
  cancelMailing,
  eraseMailing,
  createMailing,
  createMailingBatch,
  getCatalogue,
  getLetter,
  getMailing,
  getMailingBatch,
  getMailingProof,
  listMailingBatches,
  listMailings,
  quoteMailing,
  renderLetter,
  renderLetterPdf,
  searchCatalogue,
} from './generated/sdk.gen.js';
import type {
  AdvanceTestMailingData,
  CreateMailingBatchData,
  CreateMailingData,
  GetLetterData,
  GetMailingProofData,
  ListMailingBatchesData,
  ListMailingsData,
  RenderLetterData,
  SearchCatalogueData,
} from './generated/types.gen.js';
import { paginate } from './pagination.js';
import { parseWebhook, type VerifyOptions, type WebhookEvent } from './webhooks.js';

export interface RequestOptions {
  /** Cancels the call (and its retries). */
  signal?: AbortSignal;
}

export interface PostOptions extends RequestOptions {
  /**
   * The `Idempotency-Key`: the same key sent again (after a crash of yours, say) replays the first
   * answer instead of acting twice. Default: a new UUID per call, kept across the client's retries.
   */
  idempotencyKey?: string;
}

/** A list's query without its cursor: the iterator passes the cursors on. */
type ListQuery<Data extends { query?: unknown }> = Omit<NonNullable<Data['query']>, 'cursor'>;

function post(options: PostOptions | undefined) {
  return { signal: options?.signal, headers: options?.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : undefined };
}

/** `svc.mailings`: send, follow, list, cancel and erase letters. */
export function mailingsOf(client: Client) {
  return {
    /** Pays and sends a letter (POST /v1/mailings): the mailing, `paid`. */
    create: async (body: CreateMailingData['body'], options?: PostOptions) => (await createMailing({ client, body, ...post(options) })).data,
    /** What a mailing would cost, without sending it (POST /v1/mailing-quotes). */
    quote: async (body: CreateMailingData['body'], options?: PostOptions) => (await quoteMailing({ client, body, ...post(options) })).data,
    get: async (id: string, options?: RequestOptions) => (await getMailing({ client, path: { id }, ...options })).data,
    /** Every mailing matching `query`, most recent first, page after page: `for await (const mailing of svc.mailings.list({ status: 'paid' }))`. */
    list: (query?: ListQuery<ListMailingsData>, options?: RequestOptions) =>
      paginate((cursor) => listMailings({ client, query: { ...query, cursor }, ...options })),
    /** Cancels a mailing not yet printed, refunded (a 409 `conflict` ApiError after that). */
    cancel: async (id: string, options?: PostOptions) => (await cancelMailing({ client, path: { id }, ...post(options) })).data,
    /**
     * Erases a final mailing's personal data (recipient, letter, PDFs, proofs' PDFs); its amount,
     * history and hashes stay (a 409 `mailing_not_final` ApiError before it is final).
     */
    erase: async (id: string, options?: PostOptions) => (await eraseMailing({ client, path: { id }, ...post(options) })).data,
    /** Sandbox only: moves a test mailing on to `step` (or to `status` returned/error) and sends its webhooks. */
    advance: async (id: string, body?: AdvanceTestMailingData['body'], options?: PostOptions) =>
      (await advanceTestMailing({ client, path: { id }, body, ...post(options) })).data,
    /** A short-lived link to a proof (filing, delivery, return) once available. */
    proof: async (id: string, kind: GetMailingProofData['path']['kind'], options?: RequestOptions) =>
      (await getMailingProof({ client, path: { id, kind }, ...options })).data,
  };
}

/** `svc.mailingBatches`: many letters in one call (docs/batches.md). */
export function mailingBatchesOf(client: Client) {
  return {
    create: async (body: CreateMailingBatchData['body'], options?: PostOptions) => (await createMailingBatch({ client, body, ...post(options) })).data,
    get: async (id: string, options?: RequestOptions) => (await getMailingBatch({ client, path: { id }, ...options })).data,
    /** Every batch, most recent first, page after page. */
    list: (query?: ListQuery<ListMailingBatchesData>, options?: RequestOptions) =>
      paginate((cursor) => listMailingBatches({ client, query: { ...query, cursor }, ...options })),
  };
}

/** `svc.letters`: the catalogue of administrative letters, and letters rendered from it. */
export function lettersOf(client: Client) {
  return {
    catalogue: async (options?: RequestOptions) => (await getCatalogue({ client, ...options })).data,
    search: async (query: SearchCatalogueData['query'], options?: RequestOptions) => (await searchCatalogue({ client, query, ...options })).data,
    get: async (slug: string, query?: GetLetterData['query'], options?: RequestOptions) =>
      (await getLetter({ client, path: { slug }, query, ...options })).data,
    /** The letter filled with `body.fields`: its text, ready for `svc.mailings.create`. */
    render: async (slug: string, body?: RenderLetterData['body'], options?: PostOptions) =>
      (await renderLetter({ client, path: { slug }, body, ...post(options) })).data,
    /** The same letter as a PDF. */
    renderPdf: async (slug: string, body?: RenderLetterData['body'], options?: PostOptions) =>
      (await renderLetterPdf({ client, path: { slug }, body, ...post(options) })).data,
  };
}

/** `svc.webhooks`: the event of a signed webhook; `secrets` defaults to the client's `webhookSecrets`. */
export function webhooksOf(webhookSecrets: string | string[] | undefined) {
  return {
    /** The verified event, narrowed by `type`, or a WebhookSignatureError. */
    verify: (options: Omit<VerifyOptions, 'secrets'> & { secrets?: VerifyOptions['secrets'] }): WebhookEvent => {
      const secrets = options.secrets ?? webhookSecrets;
      if (!secrets) throw new TypeError('svc.webhooks.verify needs secrets: pass them, or webhookSecrets to createClient');
      return parseWebhook({ ...options, secrets });
    },
  };
}
