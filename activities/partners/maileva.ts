import got, { HTTPError, RequestError, type Method } from 'got';
import type { MailevaConfig } from '../../lib/config.js';

/**
 * Maileva's REST v2 APIs (test/fixtures/maileva/: auth, mail v2, registered_mail v2), one call at a
 * time with a time limit. A call is asked again within the same activity attempt only when that
 * cannot repeat an effect: a 429 (refused before any work, after its Retry-After), or a read that
 * failed on 5xx, a timeout or the network; anything else is retried by Temporal, whose filing
 * resumes where the last attempt stopped. The access token (OAuth2 password grant, Basic client authentication) is cached,
 * renewed a minute before it expires, and once when an API call answers 401. No credential or
 * token ever appears in an error this client throws.
 */

/** `/mail/v2` (simple letters) or `/registered_mail/v2` (registered, with or without AR). */
export type MailevaApi = 'mail' | 'registered_mail';

export type SendingStatus = 'DRAFT' | 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'PROCESSED' | 'PROCESSED_WITH_ERRORS';
export type RecipientStatus = 'DRAFT' | 'PENDING' | 'PROCESSED' | 'REJECTED';

export interface Sending {
  id: string;
  custom_id?: string;
  status?: SendingStatus;
  status_detail?: string;
  deposit_proof_date?: string;
  deposit_proof_url?: string;
  documents_count?: number;
  recipients_counts?: { total?: number };
  /** Output only: the envelope Maileva chose from the sheet count (DL, C4, C6). */
  envelope_type?: string;
}

export interface Recipient {
  id: string;
  status: RecipientStatus;
  status_detail?: string;
  last_delivery_status?: string;
  postage_price?: number;
  registered_number?: string;
  acknowledgement_of_receipt_url?: string;
}

export interface DeliveryStatus {
  status?: string;
  label?: string;
  date?: string;
}

export interface Paging {
  total_results?: number;
}

/** The six address lines and country of Maileva's address model (each line at most 38 characters). */
export interface MailevaAddress {
  address_line_1?: string;
  address_line_2?: string;
  address_line_3?: string;
  address_line_4?: string;
  address_line_5?: string;
  address_line_6: string;
  /** ISO 3166-1 alpha-2, from the API's list (FR for a sender). */
  country_code: string;
}

/**
 * A Maileva answer other than success. `retryable`: 429, 5xx, timeouts and network errors (the same
 * call may succeed later); otherwise the request itself was refused (a 4xx). `code` and `message`
 * are Maileva's own (`errors[].code`), never a credential.
 */
export class MailevaError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MailevaError';
  }
}

const PAGE = 100;

/** How many times one call is asked again within an activity attempt (see retryPause). */
const IN_CALL_RETRIES = 3;
/** The longest Retry-After honoured within an attempt; a longer one is left to Temporal's schedule. */
const LONGEST_RETRY_AFTER_MS = 5_000;

/**
 * The pause before asking the same call again, or undefined when it must not be asked again here.
 * A 429 was refused before any work (any method, after its Retry-After, default 1 s). A read (GET)
 * that met a 5xx, a timeout or the network is safe to repeat (0.25 s, 0.5 s, 1 s). A write that
 * met those may have taken effect: the activity's next attempt reads what Maileva holds first.
 */
export function retryPause(method: Method, error: unknown, attempt: number): number | undefined {
  if (error instanceof HTTPError && error.response.statusCode === 429) {
    const header = error.response.headers['retry-after'];
    const seconds = header === undefined ? 1 : Number(header);
    const ms = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000;
    return ms <= LONGEST_RETRY_AFTER_MS ? ms : undefined;
  }
  if (method.toUpperCase() !== 'GET') return undefined;
  const transient = error instanceof HTTPError ? error.response.statusCode >= 500 : error instanceof RequestError;
  return transient ? 250 * 2 ** attempt : undefined;
}

export class MailevaClient {
  private token: { value: string; renewAt: number } | undefined;
  private tokenRequest: Promise<string> | undefined;

  constructor(private readonly settings: MailevaConfig) {}

  /** A valid access token: the cached one, or a new one (one request at a time for all callers). */
  private async accessToken(renew = false): Promise<string> {
    if (!renew && this.token && Date.now() < this.token.renewAt) return this.token.value;
    this.tokenRequest ??= this.requestToken().finally(() => (this.tokenRequest = undefined));
    return this.tokenRequest;
  }

  private async requestToken(): Promise<string> {
    const { authUrl, clientId, clientSecret, username, password, timeoutMs } = this.settings;
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    try {
      const body = await got
        .post(`${authUrl}/token`, {
          form: { grant_type: 'password', username, password },
          headers: { authorization: `Basic ${basic}` },
          timeout: { request: timeoutMs },
          retry: { limit: 0 },
        })
        .json<{ access_token?: unknown; expires_in?: unknown }>();
      if (typeof body.access_token !== 'string' || !body.access_token)
        throw new MailevaError('Maileva answered a token request without a token', 200, null, true);
      // expires_in is an integer in the schema but a string in its example: either is read.
      const seconds = Number(body.expires_in);
      const lifetimeMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 300_000;
      this.token = { value: body.access_token, renewAt: Date.now() + Math.max(lifetimeMs / 2, lifetimeMs - 60_000) };
      return body.access_token;
    } catch (error) {
      throw asMailevaError(error, 'token request');
    }
  }

  /** One API call with the cached token; a 401 renews the token once and asks again. */
  private async call<T>(
    api: MailevaApi,
    method: Method,
    path: string,
    options: { json?: unknown; body?: FormData; searchParams?: Record<string, number>; binary?: boolean } = {},
  ): Promise<T> {
    const what = `${method} /${api}/v2${path.replace(/\/[0-9a-f-]{8,}/gi, '/…')}`;
    for (let attempt = 0, renewed = false; ; attempt++) {
      const token = await this.accessToken(renewed);
      try {
        const response = await got(`${this.settings.apiUrl}/${api}/v2${path}`, {
          method,
          ...(options.json !== undefined ? { json: options.json } : {}),
          ...(options.body ? { body: options.body } : {}),
          ...(options.searchParams ? { searchParams: options.searchParams } : {}),
          headers: { authorization: `Bearer ${token}`, accept: options.binary ? '*/*' : 'application/json' },
          responseType: 'buffer',
          timeout: { request: this.settings.timeoutMs },
          retry: { limit: 0 },
        });
        if (options.binary) return response.body as T;
        return (response.body.length ? JSON.parse(response.body.toString('utf8')) : undefined) as T;
      } catch (error) {
        if (!renewed && error instanceof HTTPError && error.response.statusCode === 401) {
          renewed = true;
          continue;
        }
        const pause = attempt < IN_CALL_RETRIES ? retryPause(method, error, attempt) : undefined;
        if (pause === undefined) throw asMailevaError(error, what);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  createSending(api: MailevaApi, sending: Record<string, unknown>): Promise<Sending> {
    return this.call(api, 'POST', '/sendings', { json: sending });
  }

  getSending(api: MailevaApi, sendingId: string): Promise<Sending> {
    return this.call(api, 'GET', `/sendings/${sendingId}`);
  }

  /** The sending created with this `custom_id`, found by paging through the list (the API filters on nothing). */
  async findSending(api: MailevaApi, customId: string): Promise<Sending | undefined> {
    for (let start = 1; ; start += PAGE) {
      const page = await this.call<{ sendings?: Sending[]; paging?: Paging }>(api, 'GET', '/sendings', { searchParams: { start_index: start, count: PAGE } });
      const sendings = page?.sendings ?? [];
      const found = sendings.find((sending) => sending.custom_id === customId);
      if (found) return found;
      if (sendings.length < PAGE || start + PAGE > (page?.paging?.total_results ?? 0)) return undefined;
    }
  }

  async documentCount(api: MailevaApi, sendingId: string): Promise<number> {
    const page = await this.call<{ documents?: unknown[] }>(api, 'GET', `/sendings/${sendingId}/documents`);
    return page?.documents?.length ?? 0;
  }

  /** Adds the printed letter (multipart: the file and its metadata, as the documents say). */
  async addDocument(api: MailevaApi, sendingId: string, pdf: Uint8Array, name: string): Promise<void> {
    const form = new FormData();
    form.append('document', new Blob([pdf], { type: 'application/pdf' }), name);
    form.append('metadata', new Blob([JSON.stringify({ priority: 1, name })], { type: 'application/json' }));
    await this.call(api, 'POST', `/sendings/${sendingId}/documents`, { body: form });
  }

  async recipients(api: MailevaApi, sendingId: string): Promise<Recipient[]> {
    const page = await this.call<{ recipients?: Recipient[] }>(api, 'GET', `/sendings/${sendingId}/recipients`);
    return page?.recipients ?? [];
  }

  addRecipient(api: MailevaApi, sendingId: string, recipient: MailevaAddress & { custom_id?: string }): Promise<Recipient> {
    return this.call(api, 'POST', `/sendings/${sendingId}/recipients`, { json: recipient });
  }

  async submit(api: MailevaApi, sendingId: string): Promise<void> {
    await this.call(api, 'POST', `/sendings/${sendingId}/submit`);
  }

  async deliveryStatuses(api: MailevaApi, sendingId: string, recipientId: string): Promise<DeliveryStatus[]> {
    const page = await this.call<{ delivery_statuses?: DeliveryStatus[] }>(api, 'GET', `/sendings/${sendingId}/recipients/${recipientId}/delivery_statuses`);
    return page?.delivery_statuses ?? [];
  }

  /** The deposit proof of a registered sending (registered_mail only). */
  depositProof(sendingId: string): Promise<Buffer> {
    return this.call('registered_mail', 'GET', `/sendings/${sendingId}/download_deposit_proof`, { binary: true });
  }

  /** The scanned, signed acknowledgment of receipt (registered_mail with AR scanning). */
  acknowledgementOfReceipt(sendingId: string, recipientId: string): Promise<Buffer> {
    return this.call('registered_mail', 'GET', `/sendings/${sendingId}/recipients/${recipientId}/download_acknowledgement_of_receipt`, { binary: true });
  }
}

/** Any failure as a MailevaError: Maileva's own code and message when it gave one, never a header. */
function asMailevaError(error: unknown, what: string): MailevaError {
  if (error instanceof MailevaError) return error;
  if (error instanceof HTTPError) {
    const status = error.response.statusCode;
    const { code, message } = mailevaReason(error.response.body);
    const retryable = status === 408 || status === 429 || status >= 500;
    return new MailevaError(`Maileva ${what}: HTTP ${status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`, status, code, retryable);
  }
  if (error instanceof RequestError) return new MailevaError(`Maileva ${what}: ${error.code}`, null, null, true);
  if (error instanceof SyntaxError) return new MailevaError(`Maileva ${what}: an answer that is not JSON`, null, null, true);
  return new MailevaError(`Maileva ${what}: ${(error as Error).message}`, null, null, true);
}

/** `{ code, message }` or `{ errors: [{ code, message }] }`, as the documents describe errors. */
function mailevaReason(body: unknown): { code: string | null; message: string | null } {
  try {
    const parsed = JSON.parse(Buffer.isBuffer(body) ? body.toString('utf8') : String(body)) as {
      code?: unknown;
      message?: unknown;
      errors?: { code?: unknown; message?: unknown }[];
    };
    const first = parsed.errors?.[0] ?? parsed;
    return { code: typeof first.code === 'string' ? first.code : null, message: typeof first.message === 'string' ? first.message.slice(0, 300) : null };
  } catch {
    return { code: null, message: null };
  }
}
