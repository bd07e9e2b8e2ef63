import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import got, { HTTPError, RequestError } from 'got';
import type { Ar24Config } from '../../lib/config.js';

/**
 * AR24's API (developers.ar24.fr/doc and its knowledge base; docs/electronic-registered-letters.md
 * says what they leave open and what we chose), one call at a time with a time limit. Every call
 * carries our token and the current `date` (Paris time), and the `signature` header: that date
 * encrypted with our private key. A success answers in AES-256-CBC under a key made of that date
 * and the private key; an error, the maintenance answer and a proof's PDF answer in clear, always
 * HTTP 200. A call is asked again within one attempt only when that cannot repeat an effect: a
 * read (GET) that met a 5xx, a timeout or the network. No token, key or signature ever appears in
 * an error this client throws.
 */

/** What a failure was, for the adapter to say whether the letter may be AR24's. */
export type Ar24FailureKind =
  /** `{"status":"maintenance"}`: nothing was done. */
  | 'maintenance'
  /** AR24 refused the signature or the date: nothing was done (a configuration or clock fault). */
  | 'auth'
  /** AR24 refused the request itself (`status: ERROR` with a slug): nothing was done. */
  | 'refused'
  /** A 5xx, a timeout, the network, an answer we cannot read: the call may or may not have taken effect. */
  | 'unknown';

export class Ar24Error extends Error {
  constructor(
    message: string,
    readonly kind: Ar24FailureKind,
    readonly slug: string | null,
  ) {
    super(message);
    this.name = 'Ar24Error';
  }

  /** Whether the same call may succeed later. */
  get retryable(): boolean {
    return this.kind !== 'refused';
  }
}

/**
 * The slugs of AR24's refusals of the signature and of the date. The published pages say both are
 * refused but not with which slug: these are our reading, kept here alone (and in the stand-in).
 */
export const AUTH_SLUGS = new Set(['invalid_signature', 'invalid_date', 'expired_date', 'invalid_token']);

/** `YYYY-MM-DD HH:MM:SS` on AR24's clock (Central European time, as the knowledge base says). */
export function ar24Date(at: Date = new Date()): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Paris',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(at);
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * PHP's openssl_* takes a key longer than the cipher's as its first bytes: the knowledge base's
 * keys are SHA-256 hex digests (64 characters), of which AES-256 uses the first 32, and its iv the
 * first 16 characters of a double hash of the private key.
 */
function cipherParts(keyText: string, privateKey: string): { key: Buffer; iv: Buffer } {
  return { key: Buffer.from(sha256Hex(keyText).slice(0, 32), 'latin1'), iv: Buffer.from(sha256Hex(sha256Hex(privateKey)).slice(0, 16), 'latin1') };
}

/** The `signature` header: the request's date, encrypted under a hash of the private key (base64). */
export function ar24Signature(date: string, privateKey: string): string {
  const { key, iv } = cipherParts(privateKey, privateKey);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(date, 'utf8'), cipher.final()]).toString('base64');
}

/** An encrypted answer in clear: AES-256-CBC under a hash of the request's date and the private key. */
export function ar24Decrypt(encrypted: string, date: string, privateKey: string): string {
  const { key, iv } = cipherParts(date + privateKey, privateKey);
  const decipher = createDecipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([decipher.update(Buffer.from(encrypted.trim(), 'base64')), decipher.final()]).toString('utf8');
}

/** AR24's user, as `GET /user/` answers it (the fields we read). */
export interface Ar24User {
  id: number | string;
  email?: string;
  /** Present once the user's identity is verified (the knowledge base: "sa présence indiquera…"). */
  is_identity_verified?: unknown;
}

/** AR24's mail, as `GET /mail/` answers it (the fields we read). */
export interface Ar24Mail {
  id: number | string;
  status?: string;
  ref_dossier?: string | null;
  date?: string | null;
  ts_ev_date?: string | null;
  view_date?: string | null;
  refused_date?: string | null;
  negligence_date?: string | null;
  bounced_date?: string | null;
  proof_dp_url?: string | null;
  proof_ev_url?: string | null;
  proof_ar_url?: string | null;
  proof_rf_url?: string | null;
  proof_ng_url?: string | null;
}

type Params = Record<string, string | number | undefined>;

/** Reads one page at a time when listing a user's mails. */
const PAGE = 100;
const IN_CALL_RETRIES = 2;

export class Ar24Client {
  constructor(private readonly settings: Ar24Config) {}

  private async call<T>(method: 'GET' | 'POST', path: string, params: Params = {}, file?: { bytes: Uint8Array; name: string }): Promise<T> {
    const what = `${method} ${path}`;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, path, params, file);
      } catch (error) {
        const failure = asAr24Error(error, what);
        // Only a read is asked again here: a write that met the unknown may have taken effect.
        if (method !== 'GET' || failure.kind !== 'unknown' || attempt >= IN_CALL_RETRIES) throw failure;
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }

  private async once<T>(method: 'GET' | 'POST', path: string, params: Params, file?: { bytes: Uint8Array; name: string }): Promise<T> {
    const date = ar24Date();
    const fields: Params = { ...params, token: this.settings.token, date };
    const defined = Object.entries(fields).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
    let body: FormData | undefined;
    if (method === 'POST') {
      body = new FormData();
      for (const [name, value] of defined) body.append(name, String(value));
      if (file) body.append('file', new Blob([file.bytes], { type: 'application/pdf' }), file.name);
    }
    const response = await got(`${this.settings.apiUrl}${path}`, {
      method,
      ...(method === 'GET' ? { searchParams: Object.fromEntries(defined.map(([k, v]) => [k, String(v)])) } : { body }),
      headers: { signature: ar24Signature(date, this.settings.privateKey), accept: 'application/json' },
      responseType: 'text',
      timeout: { request: this.settings.timeoutMs },
      retry: { limit: 0 },
    });
    return this.answer<T>(response.body, date, `${method} ${path}`);
  }

  /** An answer in clear (an error, the maintenance answer) or encrypted (a success). */
  private answer<T>(text: string, date: string, what: string): T {
    const clear = parseJson(text);
    const payload = clear ?? parseJson(decryptOrUndefined(text, date, this.settings.privateKey));
    if (!payload || typeof payload !== 'object') throw new Ar24Error(`AR24 ${what}: an answer we cannot read`, 'unknown', null);
    const { status, slug, message, result } = payload as { status?: unknown; slug?: unknown; message?: unknown; result?: unknown };
    const state = typeof status === 'string' ? status.toLowerCase() : '';
    if (state === 'maintenance') throw new Ar24Error(`AR24 ${what}: maintenance`, 'maintenance', null);
    if (state === 'error') {
      const code = typeof slug === 'string' ? slug : null;
      const reason = typeof message === 'string' ? `: ${message.slice(0, 300)}` : '';
      throw new Ar24Error(`AR24 ${what}: ${code ?? 'error'}${reason}`, code && AUTH_SLUGS.has(code) ? 'auth' : 'refused', code);
    }
    if (state !== 'success') throw new Ar24Error(`AR24 ${what}: an answer that is neither a success nor an error`, 'unknown', null);
    return result as T;
  }

  /** The user with this email, or undefined (slug user_not_found). */
  async findUser(email: string): Promise<Ar24User | undefined> {
    try {
      return await this.call<Ar24User>('GET', '/user/', { email });
    } catch (error) {
      if (error instanceof Ar24Error && error.slug === 'user_not_found') return undefined;
      throw error;
    }
  }

  createUser(user: Params): Promise<Ar24User> {
    return this.call('POST', '/user/', user);
  }

  /** Asks AR24 to verify the user's identity (production: a paper registered letter with its OTP key). */
  async requestIdentity(userId: string): Promise<void> {
    await this.call('POST', '/user/identity', { id_user: userId });
  }

  async uploadAttachment(userId: string, pdf: Uint8Array, name: string): Promise<string> {
    const result = await this.call<{ file_id?: unknown }>('POST', '/attachment/', { id_user: userId }, { bytes: pdf, name });
    if (result?.file_id === undefined) throw new Ar24Error('AR24 POST /attachment/: no file_id', 'unknown', null);
    return String(result.file_id);
  }

  sendMail(mail: Params): Promise<Ar24Mail> {
    return this.call('POST', '/mail/', mail);
  }

  getMail(userId: string, mailId: string): Promise<Ar24Mail> {
    return this.call('GET', '/mail/', { id_user: userId, id: mailId });
  }

  /** The user's mail with this reference (ref_dossier), paging through its list. */
  async findMail(userId: string, reference: string): Promise<Ar24Mail | undefined> {
    for (let start = 0; ; start += PAGE) {
      const page = await this.call<{ mails?: Ar24Mail[]; total?: unknown }>('GET', '/user/mail', { id_user: userId, start, max: PAGE });
      const mails = page?.mails ?? [];
      const found = mails.find((mail) => mail.ref_dossier === reference);
      if (found) return found;
      if (mails.length < PAGE) return undefined;
    }
  }

  /** A proof's PDF from the URL a mail gives (signed and dated as any call). */
  async download(url: string): Promise<Buffer> {
    for (let attempt = 0; ; attempt++) {
      const date = ar24Date();
      try {
        const target = new URL(url, this.settings.apiUrl);
        target.searchParams.set('token', this.settings.token);
        target.searchParams.set('date', date);
        const response = await got(target, {
          headers: { signature: ar24Signature(date, this.settings.privateKey) },
          responseType: 'buffer',
          timeout: { request: this.settings.timeoutMs },
          retry: { limit: 0 },
        });
        if (response.body.subarray(0, 5).toString('latin1') === '%PDF-') return response.body;
        this.answer(response.body.toString('utf8'), date, 'GET proof');
        throw new Ar24Error('AR24 GET proof: not a PDF', 'unknown', null);
      } catch (error) {
        const failure = asAr24Error(error, 'GET proof');
        if (failure.kind !== 'unknown' || attempt >= IN_CALL_RETRIES) throw failure;
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function decryptOrUndefined(text: string, date: string, privateKey: string): string | undefined {
  try {
    return ar24Decrypt(text, date, privateKey);
  } catch {
    return undefined;
  }
}

/** Any failure as an Ar24Error, with AR24's slug when it gave one and never a header or a parameter. */
function asAr24Error(error: unknown, what: string): Ar24Error {
  if (error instanceof Ar24Error) return error;
  if (error instanceof HTTPError) return new Ar24Error(`AR24 ${what}: HTTP ${error.response.statusCode}`, 'unknown', null);
  if (error instanceof RequestError) return new Ar24Error(`AR24 ${what}: ${error.code}`, 'unknown', null);
  return new Ar24Error(`AR24 ${what}: ${(error as Error).message}`, 'unknown', null);
}
