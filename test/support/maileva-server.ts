import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorObject } from 'ajv';
import { checkPdf, onePagePdf, pdfPageCount, zipOf } from './maileva/files.js';
import { multipartBoundary, parseMultipart, type FormPart } from './maileva/multipart.js';
import { loadMailevaSpecs, undeclaredProperties, type MailevaDocumentName, type MailevaSpec, type SpecOperation } from './maileva/spec.js';

/**
 * A stand-in for Maileva (Docaposte / La Poste), which this machine cannot reach, written from
 * Maileva's published OpenAPI documents (test/fixtures/maileva: auth, /mail/v2 simple letters,
 * /registered_mail/v2 registered letters with or without AR).
 *
 * Strict: every request is matched to its operation and validated against the document
 * (openapi-backend + hand checks of what the schemas only say in words: 38-character address
 * lines, `[CODE_POSTAL] [VILLE]` in France, PDF uploads…); a refused request gets the status and
 * the error shape the document declares, with the codes of its `error_response` table. Every
 * answer the stand-in gives is checked against the same document: whatever does not match lands in
 * `violations`, which tests expect to stay empty.
 *
 * After a submit, a sending lives on by itself, one step every `stepDelayMs` (or when the test
 * calls `advance`): see `step` for the statuses and the delivery status codes of each case.
 */

export const MAILEVA_CLIENT_ID = 'maileva-stand-in-client';
export const MAILEVA_CLIENT_SECRET = 'maileva-stand-in-secret';
export const MAILEVA_USERNAME = 'maileva-stand-in-user';
export const MAILEVA_PASSWORD = 'maileva-stand-in-password';

/** Where the stand-in serves the auth document's paths (Maileva's: …/auth/realms/services/protocol/openid-connect). */
export const MAILEVA_AUTH_PATH = '/auth/realms/services/protocol/openid-connect';

/**
 * Postage the stand-in charges per letter (`postage_price`, euros), once a sending is ACCEPTED.
 * The documents name the field but give no tariff: these are round figures of the order of La
 * Poste's 2025 prices, not Maileva's price list.
 */
export const MAILEVA_STAND_IN_PRICES = {
  /** /mail/v2, by `postage_type` (absent: FAST). */
  mail: { URGENT: 2.1, FAST: 1.39, ECONOMIC: 1.29 },
  registered: 5.36,
  registeredWithAr: 6.71,
} as const;

export type MailevaApi = 'mail' | 'registered_mail';
export type SendingStatus = 'DRAFT' | 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'PROCESSED' | 'PROCESSED_WITH_ERRORS';
export type RecipientStatus = 'DRAFT' | 'PENDING' | 'PROCESSED' | 'REJECTED';
/** Why a letter marked with `returnToSender` comes back: wrong address (A23), not collected (A02, P01, P03), refused (P05). */
export type ReturnReason = 'address' | 'unclaimed' | 'refused';

export interface MailevaStandInOptions {
  /** Share of API calls (not token calls) answered 429 or 503 at random (0..1), default 0. */
  faultRate?: number;
  /** Seed of the fault draw, for repeatable runs (default: random). */
  seed?: number;
  /** Retry-After of a 429, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** Token lifetime in seconds (expires_in), default 3600; expired tokens get 401. */
  tokenTtlSeconds?: number;
  /** Delay between two steps of a submitted sending's life, default 300 ms; 0: only `advance` and `settle` move them. */
  stepDelayMs?: number;
  /** The credentials accepted (defaults: the MAILEVA_* constants). */
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  /** Port to listen on (default: any free port). */
  port?: number;
}

export interface StandInDeliveryStatus {
  /** A code of the document's delivery status table (A01, D01, N01…). */
  status: string;
  /** Its label, as the table gives it. */
  label: string;
  date: string;
}

export interface StandInDocument {
  id: string;
  name: string;
  priority: number;
  size: number;
  pagesCount: number;
}

export interface StandInRecipient {
  id: string;
  status: RecipientStatus;
  statusDetail?: string;
  customId?: string;
  /** address_line_1..6, '' where absent. */
  addressLines: string[];
  countryCode: string;
  /** What the test controls decided at submit: delivered, rejected by the operator, or returned to sender. */
  fate: 'deliver' | 'reject' | 'return';
  postagePrice?: number;
  registeredNumber?: string;
  deliveryStatuses: StandInDeliveryStatus[];
}

export interface StandInSending {
  id: string;
  api: MailevaApi;
  status: SendingStatus;
  statusDetail?: string;
  customId?: string;
  name?: string;
  /** The sending's fields as created or patched, with the document's defaults for those not given. */
  options: Readonly<Record<string, unknown>>;
  documents: StandInDocument[];
  recipients: StandInRecipient[];
  /** Every POST …/submit that reached this sending, refused ones included. */
  submitCount: number;
  /** 1 for the first sending created, 2 for the next… (both APIs). */
  creationOrder: number;
  createdAt: string;
  submittedAt?: string;
}

/** One call the stand-in answered. */
export interface StandInCall {
  api: MailevaApi | 'auth' | 'none';
  method: string;
  /** Relative to the API root, with the query. */
  path: string;
  status: number;
  /** An injected 429/503. */
  fault?: boolean;
}

interface DocumentState {
  id: string;
  name: string;
  priority: number;
  size: number;
  pagesCount: number;
}

interface RecipientState {
  id: string;
  fields: Record<string, unknown>;
  status: RecipientStatus;
  statusDetail?: string;
  fate: 'deliver' | 'reject' | 'return';
  /** The delivery status codes this letter will go through, one a step after PROCESSED. */
  script: string[];
  deliveryStatuses: StandInDeliveryStatus[];
  postagePrice?: number;
  postageClass?: string;
  registeredNumber?: string;
  counts?: { pages: number; billedPages: number; sheets: number; envelope: 'DL' | 'C4'; systemAddressSheet: boolean };
  archivedAt?: Date;
  arScannedAt?: Date;
  undeliveredAt?: Date;
}

interface SendingState {
  id: string;
  api: MailevaApi;
  order: number;
  createdAt: Date;
  fields: Record<string, unknown>;
  status: SendingStatus;
  statusDetail?: string;
  submitCount: number;
  submittedAt?: Date;
  acceptedAt?: Date;
  processedAt?: Date;
  depositProofAt?: Date;
  step: number;
  done: boolean;
  timer?: NodeJS.Timeout;
  documents: DocumentState[];
  recipients: RecipientState[];
}

interface Answer {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

type ApiHandler = (context: ApiContext) => Answer;

interface ApiContext {
  api: MailevaApi;
  spec: MailevaSpec;
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
  parts?: FormPart[];
}

/**
 * Error codes the stand-in answers with that the documents' `error_response` table does not list
 * (the table has codes for the fields it checks, none for a generic schema failure, a missing
 * token, an unknown path or an overloaded gateway).
 */
const CODES_OUTSIDE_THE_TABLE = new Set(['INVALID_PARAMETER', 'UNAUTHORIZED', 'NOT_FOUND', 'METHOD_NOT_ALLOWED', 'TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE']);

const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** "20 Mo" per document and per sending. */
const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
const MAX_DOCUMENTS = 30;
const MAX_RECIPIENTS: Record<MailevaApi, number> = { mail: 30000, registered_mail: 5000 };
const ADDRESS_LINE_MAX = 38;
const FRENCH_LINE_6 = /^\d{5} \S.*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** mulberry32: a small seeded PRNG, for repeatable fault draws. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The value at a JSON pointer-like Ajv instancePath. */
function valueAt(root: unknown, path: string): unknown {
  return path
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), root);
}

/** The path parameters of a request, read against its operation's path template. */
function pathParams(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const values = path.replace(/\/+$/, '').split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const match = /^\{(.+)\}$/.exec(name);
    if (match) params[match[1]] = decodeURIComponent(values[i] ?? '');
  });
  return params;
}

const iso = (date: Date | undefined): string | undefined => date?.toISOString();

/** Drops undefined values (the documents' schemas have no nullable fields). */
function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

export class MailevaStandIn {
  /** Answers of the stand-in that do not match the documents (its own drift): tests expect none. */
  readonly violations: string[] = [];
  /** Requests the stand-in refused because the documents refuse them (400, with why). A client under test expects none. */
  readonly refusals: string[] = [];
  /** Every call answered, in order. */
  readonly calls: StandInCall[] = [];
  /** How many token requests were answered 200. */
  tokensIssued = 0;

  private readonly options: Required<Omit<MailevaStandInOptions, 'seed' | 'port'>> & { port: number };
  private readonly random: () => number;
  private server: Server | undefined;
  private specs: Record<MailevaDocumentName, MailevaSpec> | undefined;
  private readonly store = new Map<string, SendingState>();
  private readonly tokens = new Map<string, { expiresAt: number }>();
  private readonly queuedFaults: (429 | 503)[] = [];
  private readonly holds: { step: 'documents' | 'submit'; reached: () => void; released: Promise<void> }[] = [];
  private readonly rejectedAddresses: string[] = [];
  private readonly returnedAddresses: { text: string; reason: ReturnReason }[] = [];
  private tamper: ((body: any) => unknown) | undefined;
  private expireAtSubmit = false;
  private created = 0;

  constructor(options: MailevaStandInOptions = {}) {
    this.options = {
      faultRate: options.faultRate ?? 0,
      retryAfterSeconds: options.retryAfterSeconds ?? 1,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      stepDelayMs: options.stepDelayMs ?? 300,
      clientId: options.clientId ?? MAILEVA_CLIENT_ID,
      clientSecret: options.clientSecret ?? MAILEVA_CLIENT_SECRET,
      username: options.username ?? MAILEVA_USERNAME,
      password: options.password ?? MAILEVA_PASSWORD,
      port: options.port ?? 0,
    };
    this.random = seededRandom(options.seed ?? randomInt(2 ** 31));
  }

  private get origin(): string {
    if (!this.server) throw new Error('the Maileva stand-in is not started');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** e.g. http://127.0.0.1:PORT: `${apiUrl}/mail/v2` and `${apiUrl}/registered_mail/v2` are the two APIs. */
  get apiUrl(): string {
    return this.origin;
  }

  /** e.g. http://127.0.0.1:PORT/auth/realms/services/protocol/openid-connect: the token endpoint is `${authUrl}/token`. */
  get authUrl(): string {
    return `${this.origin}${MAILEVA_AUTH_PATH}`;
  }

  async start(): Promise<void> {
    this.specs = await loadMailevaSpecs();
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.violations.push(`stand-in failure on ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"code":"INTERNAL_ERROR","message":"stand-in failure"}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.options.port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const sending of this.store.values()) clearTimeout(sending.timer);
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  // ---------------------------------------------------------------- test controls and inspection

  /** The sendings of both APIs, in creation order (snapshots). */
  sendings(): ReadonlyArray<StandInSending> {
    return [...this.store.values()].sort((a, b) => a.order - b.order).map((sending) => this.view(sending));
  }

  /** One sending (snapshot), or undefined. */
  sending(id: string): StandInSending | undefined {
    const sending = this.store.get(id);
    return sending && this.view(sending);
  }

  /** Expires every token issued so far: the next API call with one gets 401. */
  expireTokens(): void {
    for (const token of this.tokens.values()) token.expiresAt = 0;
  }

  /**
   * Expires every token at the next submit, as it is done: the calls that follow it (the other
   * letters', the tracking) are made with a token that has just expired, whatever the machine's speed.
   */
  expireTokensAtNextSubmit(): void {
    this.expireAtSubmit = true;
  }

  /** The next `count` API calls (token calls excepted) fail with `status`, before anything is done. */
  failNext(count: number, status: 429 | 503 = 503): void {
    for (let i = 0; i < count; i++) this.queuedFaults.push(status);
  }

  /**
   * Recipients submitted from now on whose address (any of lines 1 to 6, case-insensitive) contains
   * `text` are refused by the operator once submitted: REJECTED, no letter.
   */
  rejectAddressesContaining(text: string): void {
    this.rejectedAddresses.push(text.toUpperCase());
  }

  /** Recipients submitted from now on whose address contains `text` are returned to sender (PND) instead of delivered. */
  returnToSender(text: string, reason: ReturnReason = 'address'): void {
    this.returnedAddresses.push({ text: text.toUpperCase(), reason });
  }

  /** The next JSON answer of an API is passed through `mutate` before it is checked and sent (to prove the checks bite). */
  tamperNextResponse(mutate: (body: any) => unknown): void {
    this.tamper = mutate;
  }

  /**
   * Holds the next `POST …/documents` (never done: the upload does not reach the operator) or the
   * next `POST …/submit` (done, but its answer is lost): `reached` resolves when it arrives, and
   * `release()` drops its connection. For tests that kill the caller at those points.
   */
  holdNext(step: 'documents' | 'submit'): { reached: Promise<void>; release(): void } {
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ step, reached, released });
    return { reached: arrived, release };
  }

  /** Moves every submitted sending `steps` steps on, as the timer would. */
  advance(steps = 1): void {
    for (let i = 0; i < steps; i++) for (const sending of this.store.values()) if (sending.submittedAt && !sending.done) this.step(sending);
  }

  /** Moves every submitted sending to the end of its life. */
  settle(): void {
    for (const sending of this.store.values()) while (sending.submittedAt && !sending.done) this.step(sending);
  }

  /** Forgets sendings, tokens, marks, queued faults and logs. */
  reset(): void {
    for (const sending of this.store.values()) clearTimeout(sending.timer);
    this.store.clear();
    this.tokens.clear();
    this.queuedFaults.length = 0;
    this.rejectedAddresses.length = 0;
    this.returnedAddresses.length = 0;
    this.violations.length = 0;
    this.refusals.length = 0;
    this.calls.length = 0;
    this.tokensIssued = 0;
    this.tamper = undefined;
    this.expireAtSubmit = false;
  }

  private view(sending: SendingState): StandInSending {
    return defined({
      id: sending.id,
      api: sending.api,
      status: sending.status,
      statusDetail: sending.statusDetail,
      customId: sending.fields.custom_id as string | undefined,
      name: sending.fields.name as string | undefined,
      options: structuredClone(sending.fields),
      documents: sending.documents.map((document) => ({ ...document })),
      recipients: sending.recipients.map((recipient) =>
        defined({
          id: recipient.id,
          status: recipient.status,
          statusDetail: recipient.statusDetail,
          customId: recipient.fields.custom_id as string | undefined,
          addressLines: [1, 2, 3, 4, 5, 6].map((n) => String(recipient.fields[`address_line_${n}`] ?? '')),
          countryCode: String(recipient.fields.country_code),
          fate: recipient.fate,
          postagePrice: recipient.postagePrice,
          registeredNumber: recipient.registeredNumber,
          deliveryStatuses: recipient.deliveryStatuses.map((status) => ({ ...status })),
        }),
      ),
      submitCount: sending.submitCount,
      creationOrder: sending.order,
      createdAt: sending.createdAt.toISOString(),
      submittedAt: iso(sending.submittedAt),
    });
  }

  // ---------------------------------------------------------------- HTTP

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = (req.method ?? 'GET').toLowerCase();
    const held = method === 'post' ? this.holds.findIndex((hold) => url.pathname.endsWith(`/${hold.step}`)) : -1;
    if (held >= 0) {
      const [hold] = this.holds.splice(held, 1);
      hold!.reached();
      if (hold!.step === 'documents') {
        // Never reaches the operator: no answer, and the connection dropped once released.
        await hold!.released;
        req.socket.destroy();
        return;
      }
      // Done by the operator, but its answer is lost: the caller never hears of it.
      res.writeHead = (() => res) as typeof res.writeHead;
      res.end = (() => res) as typeof res.end;
      await this.handleRequest(req, res, url, method);
      await hold!.released;
      req.socket.destroy();
      return;
    }
    return this.handleRequest(req, res, url, method);
  }

  private async handleRequest(req: IncomingMessage, res: ServerResponse, url: URL, method: string): Promise<void> {
    const body = await readBody(req);
    if (url.pathname.startsWith(`${MAILEVA_AUTH_PATH}/`)) return this.handleAuth(req, res, url, method, body);
    for (const api of ['mail', 'registered_mail'] as const) {
      const root = `/${api}/v2`;
      if (url.pathname === root || url.pathname.startsWith(`${root}/`)) {
        return this.handleApi(req, res, api, url.pathname.slice(root.length) || '/', url, method, body);
      }
    }
    this.write(res, { api: 'none', method, path: url.pathname + url.search }, undefined, undefined, {
      status: 404,
      contentType: 'application/json',
      body: { code: 'NOT_FOUND', message: `no Maileva API under ${url.pathname}` },
    });
  }

  /**
   * Sends an answer. When it answers an operation of a document, it is first checked against that
   * document (status, content type, schema, declared properties and headers): any mismatch is the
   * stand-in's own drift and goes to `violations`.
   */
  private write(
    res: ServerResponse,
    call: Omit<StandInCall, 'status'>,
    spec: MailevaSpec | undefined,
    operation: SpecOperation | undefined,
    answer: Answer,
  ): void {
    let body = answer.body;
    if (this.tamper && call.api !== 'auth' && answer.contentType === 'application/json' && body !== undefined) {
      body = this.tamper(structuredClone(body));
      this.tamper = undefined;
    }
    const headers: Record<string, string> = { ...(answer.headers ?? {}) };
    if (answer.contentType) headers['content-type'] = answer.contentType;
    if (spec && operation) this.violations.push(...spec.checkResponse(operation, answer.status, { contentType: answer.contentType, body, headers }));
    this.calls.push({ ...call, status: answer.status });
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    if (payload) headers['content-length'] = String(payload.length);
    res.writeHead(answer.status, headers);
    res.end(payload);
  }

  // ---------------------------------------------------------------- auth document

  private handleAuth(req: IncomingMessage, res: ServerResponse, url: URL, method: string, body: Buffer | 'too-large'): void {
    const spec = this.specs!.auth;
    const path = url.pathname.slice(MAILEVA_AUTH_PATH.length);
    const call = { api: 'auth' as const, method, path: path + url.search };
    const operation = spec.match(method, path);
    if (typeof operation === 'number') {
      this.write(res, call, undefined, undefined, {
        status: operation,
        contentType: 'application/json',
        body: { errors: [{ code: 'CLIENT_ERROR', message: 'Not found' }] },
      });
      return;
    }
    const answer = (status: number, message?: string): void => {
      if (status !== 200 && message) this.refusals.push(`auth ${method.toUpperCase()} ${path} → ${status}: ${message}`);
      // auth.yaml's 404 ("un des paramètres requis est manquant") and 403 declare no content.
      const errorBody = status === 404 || status === 403 ? {} : { contentType: 'application/json', body: { errors: [{ code: 'CLIENT_ERROR', message }] } };
      this.write(res, call, spec, operation, { status, ...errorBody });
    };
    const mediaType = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
    if (body === 'too-large' || mediaType !== 'application/x-www-form-urlencoded') {
      return answer(400, `content type ${mediaType ?? '(none)'}: the token endpoint takes application/x-www-form-urlencoded`);
    }
    const form = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
    const errors = spec.validateRequest({ method, path, query: url.search.slice(1), headers: req.headers, body: form }, operation, mediaType);
    const undeclared = undeclaredProperties(spec.requestSchema(operation, mediaType), form);
    const authorization = req.headers.authorization;
    // auth.yaml answers a missing required parameter (the Authorization header; username and
    // password in the password grant) with 404, "(Bad Request) un des paramètres requis est
    // manquant": the status is odd, but it is the document's.
    if (!authorization) return answer(404, 'missing Authorization header (Basic client authentication)');
    if (errors.some((error) => error.instancePath.startsWith('/requestBody') && /grant_type/.test(`${error.instancePath} ${JSON.stringify(error.params)}`))) {
      return answer(400, 'Invalid grant type parameter');
    }
    if (errors.length || undeclared.length) {
      return answer(
        400,
        [
          ...errors.map((error) => `${error.instancePath} ${error.message}`),
          ...undeclared.map((key) => `${key} is not a parameter of the token endpoint`),
        ].join('; '),
      );
    }
    const basic = /^Basic\s+(\S+)$/i.exec(authorization);
    const decoded = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    // RFC 6749 §2.3.1: client id and secret are form-urlencoded before the Base64.
    const unescape = (value: string): string => {
      try {
        return decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        return value;
      }
    };
    const clientId = colon < 0 ? '' : unescape(decoded.slice(0, colon));
    const clientSecret = colon < 0 ? '' : unescape(decoded.slice(colon + 1));
    if (clientId !== this.options.clientId || clientSecret !== this.options.clientSecret) return answer(401, 'Authentication failed');
    let subject = clientId;
    if (form.grant_type === 'password') {
      if (!form.username || !form.password) return answer(404, 'grant_type=password needs username and password');
      if (form.username !== this.options.username || form.password !== this.options.password) return answer(401, 'Authentication failed');
      subject = form.username;
    }
    const now = Math.floor(Date.now() / 1000);
    const ttl = this.options.tokenTtlSeconds;
    // JWT-shaped like Maileva's (auth.yaml: "au format JWT"), signed with nothing anyone checks.
    const token = [
      base64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' })),
      base64url(JSON.stringify({ iss: 'maileva-stand-in', sub: subject, iat: now, exp: now + ttl, jti: randomUUID(), client_id: clientId })),
      base64url(randomBytes(32)),
    ].join('.');
    this.tokens.set(token, { expiresAt: Date.now() + ttl * 1000 });
    this.tokensIssued += 1;
    this.write(res, call, spec, operation, { status: 200, contentType: 'application/json', body: { access_token: token, expires_in: ttl } });
  }

  // ---------------------------------------------------------------- the two mail APIs

  private nextFault(): 429 | 503 | undefined {
    const queued = this.queuedFaults.shift();
    if (queued) return queued;
    if (this.options.faultRate > 0 && this.random() < this.options.faultRate) return this.random() < 0.5 ? 429 : 503;
    return undefined;
  }

  private handleApi(req: IncomingMessage, res: ServerResponse, api: MailevaApi, path: string, url: URL, method: string, body: Buffer | 'too-large'): void {
    const spec = this.specs![api];
    const call = { api, method, path: path + url.search };

    // Faults come first: nothing is done, so the caller may safely retry. The documents declare
    // neither 429 nor 503 (a gateway's answers): they are not checked against them.
    const fault = this.nextFault();
    if (fault) {
      this.write(res, { ...call, fault: true }, undefined, undefined, {
        status: fault,
        contentType: 'application/json',
        headers: fault === 429 ? { 'retry-after': String(this.options.retryAfterSeconds) } : {},
        body: fault === 429 ? { code: 'TOO_MANY_REQUESTS', message: 'Too many requests' } : { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' },
      });
      return;
    }

    let operation = spec.match(method, path);
    // mail-v2.yaml and registered-mail-v2.yaml, PATCH /sendings/{sending_id}: "Si votre système ne
    // permet pas d'utiliser le verbe PATCH, il est possible d'utiliser le verbe POST."
    if (operation === 405 && method === 'post' && /^\/sendings\/[^/]+\/?$/.test(path)) operation = spec.match('patch', path);
    if (typeof operation === 'number') {
      this.write(res, call, undefined, undefined, {
        status: operation,
        contentType: 'application/json',
        body: { code: operation === 404 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED', message: `${method.toUpperCase()} ${path}` },
      });
      return;
    }
    const send = (answer: Answer): void => this.write(res, call, spec, operation, answer);

    // Bearer token (the documents' bearerAuth scheme).
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? this.tokens.get(bearer) : undefined;
    if (!token || token.expiresAt <= Date.now()) {
      send({
        status: 401,
        contentType: 'application/json',
        headers: { 'www-authenticate': `Bearer error="invalid_token"` },
        body: { code: 'UNAUTHORIZED', message: !bearer ? 'Missing bearer token' : token ? 'Token expired' : 'Unknown token' },
      });
      return;
    }

    const refuse = (errors: { code: string; message?: string }[]): void => {
      send(this.badRequest(spec, errors));
      this.refusals.push(`${api} ${method.toUpperCase()} ${path}: ${errors.map((error) => `${error.code} ${error.message ?? ''}`.trim()).join('; ')}`);
    };

    // The body: its media type must be one the operation declares.
    const mediaTypes = spec.requestMediaTypes(operation);
    const contentType = req.headers['content-type'];
    const mediaType = contentType?.split(';')[0].trim().toLowerCase();
    if (body === 'too-large') return refuse([{ code: 'INVALID_DOCUMENT_SIZE' }]);
    const required = Boolean((operation.requestBody as any)?.required);
    let parsed: any;
    let parts: FormPart[] | undefined;
    // A body sent to an operation that declares none (POST …/submit with `{}`) is ignored.
    if (mediaTypes.length && (body.length > 0 || required)) {
      if (!mediaType || !mediaTypes.includes(mediaType)) {
        return refuse([{ code: 'INVALID_PARAMETER', message: `content type ${mediaType ?? '(none)'}; the document declares ${mediaTypes.join(', ')}` }]);
      }
      if (mediaType === 'multipart/form-data') {
        const boundary = multipartBoundary(contentType);
        try {
          if (!boundary) throw new Error('no boundary');
          parts = parseMultipart(body, boundary);
        } catch (error) {
          return refuse([{ code: 'INVALID_PARAMETER', message: `malformed multipart body: ${(error as Error).message}` }]);
        }
        const multipartErrors = this.checkParts(parts);
        if (multipartErrors.length) return refuse(multipartErrors);
        const metadata = parts.find((part) => part.name === 'metadata')!;
        parsed = { document: '(binary)', metadata: JSON.parse(metadata.data.toString('utf8')) };
        for (const part of parts) if (part.name !== 'document' && part.name !== 'metadata') parsed[part.name] = part.data.toString('utf8');
      } else {
        try {
          parsed = body.length ? JSON.parse(body.toString('utf8')) : undefined;
        } catch (error) {
          return refuse([{ code: 'INVALID_PARAMETER', message: `malformed JSON: ${(error as Error).message}` }]);
        }
      }
    }

    const errors = spec.validateRequest({ method, path, query: url.search.slice(1), headers: req.headers, body: parsed }, operation, mediaType);
    const problems = errors.map((error) => this.codeFor(error, parsed));
    if (mediaType && parsed !== undefined) {
      for (const key of undeclaredProperties(spec.requestSchema(operation, mediaType), parsed)) {
        problems.push({ code: 'INVALID_PARAMETER', message: `${key}: not a property the document declares` });
      }
    }
    if (problems.length) return refuse(problems);

    const handler = this.handlers[`${operation.method.toUpperCase()} ${operation.path}`];
    if (!handler) throw new Error(`no handler for ${operation.method.toUpperCase()} ${operation.path}`);
    const answer = handler({ api, spec, params: pathParams(operation.path, path), query: url.searchParams, body: parsed, parts });
    if (answer.status === 400) this.refusals.push(`${api} ${method.toUpperCase()} ${path}: ${JSON.stringify(answer.body)}`);
    send(answer);
  }

  /** The multipart rules of POST /sendings/{id}/documents that the schema cannot express (codes of the table). */
  private checkParts(parts: FormPart[]): { code: string; message?: string }[] {
    const documents = parts.filter((part) => part.name === 'document');
    const metadata = parts.filter((part) => part.name === 'metadata');
    const errors: { code: string; message?: string }[] = [];
    if (documents.length === 0) errors.push({ code: 'EMPTY_DOCUMENT', message: 'no `document` part' });
    if (documents.length > 1) errors.push({ code: 'TOO_MANY_PARAMETER_DOCUMENT' });
    if (metadata.length === 0) errors.push({ code: 'EMPTY_METADATA', message: 'no `metadata` part' });
    if (metadata.length > 1) errors.push({ code: 'TOO_MANY_PARAMETER_METADATA' });
    if (metadata.length === 1) {
      try {
        const value: unknown = JSON.parse(metadata[0].data.toString('utf8'));
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
        // The documents' metadata declares priority and name only; like every body, nothing else is taken.
        for (const key of Object.keys(value))
          if (key !== 'priority' && key !== 'name') errors.push({ code: 'INVALID_PARAMETER', message: `metadata.${key} is not a parameter` });
      } catch (error) {
        errors.push({ code: 'METADATA_WRONG_FORMAT', message: `metadata is not a JSON object (${(error as Error).message})` });
      }
    }
    return errors;
  }

  /** The table code for an Ajv error, where the table has one (else INVALID_PARAMETER). */
  private codeFor(error: ErrorObject, body: unknown): { code: string; message: string } {
    const message = `${error.instancePath || '(request)'} ${error.message}${error.keyword === 'enum' ? ` ${JSON.stringify(error.params)}` : ''}`;
    const field = error.keyword === 'required' ? String(error.params.missingProperty) : (error.instancePath.split('/').pop() ?? '');
    const value = valueAt({ requestBody: body }, error.instancePath);
    const inBody = error.instancePath.startsWith('/requestBody');
    const code = ((): string => {
      if (!inBody) return 'INVALID_PARAMETER';
      switch (field) {
        case 'address_line_6':
          return error.keyword === 'required' ? 'EMPTY_ADDRESS_LINE_6' : 'INVALID_PARAMETER';
        case 'country_code':
        case 'sender_country_code':
          return typeof value === 'string' && value.length > 2 ? 'COUNTRY_CODE_TOO_LONG' : 'INVALID_COUNTRY_CODE';
        case 'name':
          if (error.instancePath.includes('/metadata')) return 'METADATA_WRONG_FORMAT';
          return error.keyword === 'maxLength'
            ? 'NAME_TOO_LONG'
            : error.keyword === 'required' || error.keyword === 'minLength'
              ? 'EMPTY_NAME'
              : 'INVALID_PARAMETER';
        case 'custom_id':
          return 'CUSTOM_ID_WRONG_FORMAT';
        case 'notification_email':
          return 'INVALID_NOTIFICATION_EMAIL';
        case 'priority':
          return error.keyword === 'required' ? 'EMPTY_PRIORITY' : 'INVALID_PRIORITY';
        case 'metadata':
          return 'METADATA_WRONG_FORMAT';
        default:
          return 'INVALID_PARAMETER';
      }
    })();
    return { code, message };
  }

  /** 400 with the documents' errors_response; messages default to the table's descriptions. */
  private badRequest(spec: MailevaSpec, errors: { code: string; message?: string }[]): Answer {
    return {
      status: 400,
      contentType: 'application/json',
      body: { errors: errors.map((error) => ({ code: error.code, message: this.describe(spec, error.code, error.message) })) },
    };
  }

  /** 404 with the documents' error_response (a single object for 401 and 404). */
  private notFound(spec: MailevaSpec, code: 'SENDING_NOT_FOUND' | 'RECIPIENT_NOT_FOUND' | 'DOCUMENT_NOT_FOUND', detail?: string): Answer {
    return { status: 404, contentType: 'application/json', body: { code, message: this.describe(spec, code, detail) } };
  }

  private describe(spec: MailevaSpec, code: string, detail?: string): string {
    const description = spec.errorCodes.get(code);
    if (!description && !CODES_OUTSIDE_THE_TABLE.has(code)) this.violations.push(`${spec.name}: error code ${code} is not in the document's table`);
    return [description, detail].filter(Boolean).join(' — ') || code;
  }

  // ---------------------------------------------------------------- operations

  private sendingOf(context: ApiContext): SendingState | Answer {
    const sending = this.store.get(context.params.sending_id);
    return sending && sending.api === context.api ? sending : this.notFound(context.spec, 'SENDING_NOT_FOUND');
  }

  private recipientOf(context: ApiContext, sending: SendingState): RecipientState | Answer {
    return sending.recipients.find((recipient) => recipient.id === context.params.recipient_id) ?? this.notFound(context.spec, 'RECIPIENT_NOT_FOUND');
  }

  private draftOnly(context: ApiContext, sending: SendingState): Answer | undefined {
    return sending.status === 'DRAFT'
      ? undefined
      : this.badRequest(context.spec, [{ code: 'SENDING_STATUS_IS_NOT_DRAFT', message: `status ${sending.status}` }]);
  }

  private location(api: MailevaApi, path: string): Record<string, string> {
    return { location: `${this.origin}/${api}/v2${path}` };
  }

  private json(status: number, body: unknown, headers?: Record<string, string>): Answer {
    return { status, contentType: 'application/json', body, headers };
  }

  /** start_index (from 1) and count, per the documents' paging parameters. */
  private page<T>(
    context: ApiContext,
    items: T[],
    path: string,
    defaultCount: number,
    maxCount: number,
  ): { items: T[]; paging: Record<string, unknown> } | Answer {
    const start = Number(context.query.get('start_index') ?? 1);
    const asked = Number(context.query.get('count') ?? defaultCount);
    // The schemas type both as `number` with minLength/maxLength (which do not apply to numbers);
    // their descriptions say what is meant: a first element from 1, at most 500 (30 for documents)
    // a page, "par défaut et au maximum". Not whole or below 1: refused; above the maximum: cut.
    if (!Number.isInteger(start) || start < 1 || !Number.isInteger(asked) || asked < 1) {
      return this.badRequest(context.spec, [{ code: 'INVALID_PARAMETER', message: 'start_index and count are whole numbers from 1' }]);
    }
    const count = Math.min(asked, maxCount);
    const paging: Record<string, unknown> = { total_results: items.length };
    if (start - 1 + count < items.length) paging.next = `${path}?start_index=${start + count}&count=${count}`;
    if (start > 1) paging.prev = `${path}?start_index=${Math.max(1, start - count)}&count=${count}`;
    return { items: items.slice(start - 1, start - 1 + count), paging };
  }

  /** Schema defaults of the creation schema, for the fields not given. */
  private withDefaults(spec: MailevaSpec, fields: Record<string, unknown>): Record<string, unknown> {
    const schema = spec.schema('sending_creation');
    const properties: Record<string, any> = { ...(schema.properties ?? {}) };
    for (const member of schema.allOf ?? []) Object.assign(properties, member.properties ?? {});
    const defaults = Object.fromEntries(
      Object.entries(properties).flatMap(([key, property]) => (property.default === undefined ? [] : [[key, property.default]])),
    );
    return { ...defaults, ...fields };
  }

  /** What the schemas say only in words about a sending's fields. */
  private sendingProblems(api: MailevaApi, fields: Record<string, unknown>): { code: string; message?: string }[] {
    const problems: { code: string; message?: string }[] = [];
    if (fields.custom_id === '') problems.push({ code: 'CUSTOM_ID_EMPTY' });
    if (fields.name === '') problems.push({ code: 'EMPTY_NAME' });
    if (typeof fields.notification_email === 'string' && !EMAIL.test(fields.notification_email)) problems.push({ code: 'INVALID_NOTIFICATION_EMAIL' });
    for (let n = 1; n <= 6; n++) {
      const line = fields[`sender_address_line_${n}`];
      if (typeof line === 'string' && line.length > ADDRESS_LINE_MAX) problems.push({ code: `ADDRESS_LINE_${n}_TOO_LONG`, message: 'sender address' });
    }
    if (api === 'registered_mail' && fields.acknowledgement_of_receipt_scanning === true && fields.acknowledgement_of_receipt === false) {
      problems.push({
        code: 'INVALID_PARAMETER',
        message: 'acknowledgement_of_receipt_scanning "nécessite que l’option avis de réception soit activée" (acknowledgement_of_receipt: false)',
      });
    }
    return problems;
  }

  /** The address rules of the recipients' descriptions and of the error table. */
  private recipientProblems(sending: SendingState, fields: Record<string, unknown>): { code: string; message?: string }[] {
    const problems: { code: string; message?: string }[] = [];
    const line = (n: number): string => (typeof fields[`address_line_${n}`] === 'string' ? (fields[`address_line_${n}`] as string) : '');
    for (let n = 1; n <= 6; n++) if (line(n).length > ADDRESS_LINE_MAX) problems.push({ code: `ADDRESS_LINE_${n}_TOO_LONG` });
    if (!line(1).trim() && !line(2).trim()) problems.push({ code: 'EMPTY_ADDRESS_LINE_1_OR_ADDRESS_LINE_2' });
    if (!line(6).trim()) problems.push({ code: 'EMPTY_ADDRESS_LINE_6' });
    else if (fields.country_code === 'FR' && !FRENCH_LINE_6.test(line(6))) problems.push({ code: 'ADDRESS_LINE_6_WRONG_FORMAT', message: `"${line(6)}"` });
    if (fields.custom_id === '') problems.push({ code: 'CUSTOM_ID_EMPTY' });
    for (const piece of (fields.documents_override as { document_id?: string }[] | undefined) ?? []) {
      if (!sending.documents.some((document) => document.id === piece.document_id))
        problems.push({ code: 'DOCUMENT_NOT_FOUND', message: `documents_override ${piece.document_id}` });
    }
    return problems;
  }

  private sendingBody(spec: MailevaSpec, sending: SendingState): Record<string, unknown> {
    const declared = spec.schema('sending_response').properties as Record<string, unknown>;
    const echoed = Object.fromEntries(Object.entries(sending.fields).filter(([key]) => key in declared));
    const counted = sending.recipients.filter((recipient) => recipient.counts);
    const sum = (pick: (counts: NonNullable<RecipientState['counts']>) => number): number | undefined =>
      counted.length ? counted.reduce((total, recipient) => total + pick(recipient.counts!), 0) : undefined;
    const counts = (status: RecipientStatus): number => sending.recipients.filter((recipient) => recipient.status === status).length;
    const archived = sending.recipients.map((recipient) => recipient.archivedAt).filter((date): date is Date => Boolean(date));
    const body: Record<string, unknown> = {
      ...echoed,
      id: sending.id,
      status: sending.status,
      status_detail: sending.statusDetail,
      creation_date: sending.createdAt.toISOString(),
      submission_date: iso(sending.submittedAt),
      processed_date: iso(sending.processedAt),
      archive_date: iso(archived.at(-1)),
      documents_count: sending.documents.length,
      documents_weight: sending.documents.reduce((total, document) => total + document.size, 0),
      pages_count: sum((c) => c.pages),
      billed_pages_count: sum((c) => c.billedPages),
      sheets_count: sum((c) => c.sheets),
      envelope_type: counted.length ? (counted.some((recipient) => recipient.counts!.envelope === 'C4') ? 'C4' : 'DL') : undefined,
      system_address_sheet: counted.length ? counted.some((recipient) => recipient.counts!.systemAddressSheet) : undefined,
      recipients_counts: {
        draft: counts('DRAFT'),
        pending: counts('PENDING'),
        processed: counts('PROCESSED'),
        rejected: counts('REJECTED'),
        total: sending.recipients.length,
      },
    };
    if (sending.api === 'registered_mail' && sending.depositProofAt) {
      body.deposit_proof_date = sending.depositProofAt.toISOString();
      body.deposit_proof_archive_date = sending.depositProofAt.toISOString();
      body.deposit_proof_url = `/sendings/${sending.id}/download_deposit_proof`;
    }
    return defined(body);
  }

  private recipientBody(spec: MailevaSpec, sending: SendingState, recipient: RecipientState): Record<string, unknown> {
    const declared = spec.schema('recipient_response').properties as Record<string, unknown>;
    const echoed = Object.fromEntries(Object.entries(recipient.fields).filter(([key]) => key in declared));
    const last = recipient.deliveryStatuses.at(-1);
    const base = `/sendings/${sending.id}/recipients/${recipient.id}`;
    const body: Record<string, unknown> = {
      ...echoed,
      id: recipient.id,
      status: recipient.status,
      status_detail: recipient.statusDetail,
      // "Dernier statut de distribution": the code (A01, D01…), as `status` in delivery_statuses.
      last_delivery_status: last?.status,
      last_delivery_status_date: last?.date,
      postage_price: recipient.postagePrice,
      pages_count: recipient.counts?.pages,
      billed_pages_count: recipient.counts?.billedPages,
      sheets_count: recipient.counts?.sheets,
      archive_date: iso(recipient.archivedAt),
      archive_url: recipient.archivedAt ? `${base}/download_archive` : undefined,
    };
    if (sending.api === 'mail') {
      body.postage_class = recipient.postageClass;
      body.undelivered_mail_date = iso(recipient.undeliveredAt);
    } else {
      body.registered_number = recipient.registeredNumber;
      body.acknowledgement_of_receipt_archive_date = iso(recipient.arScannedAt);
      body.acknowledgement_of_receipt_url = recipient.arScannedAt ? `${base}/download_acknowledgement_of_receipt` : undefined;
    }
    return defined(body);
  }

  private documentBody(sending: SendingState, document: DocumentState): Record<string, unknown> {
    const accepted = Boolean(sending.acceptedAt);
    const duplex = sending.fields.duplex_printing !== false;
    return defined({
      id: document.id,
      priority: document.priority,
      name: document.name,
      type: 'application/pdf',
      size: document.size,
      // "disponible à partir du statut ACCEPTED"
      pages_count: accepted ? document.pagesCount : undefined,
      sheets_count: accepted ? (duplex ? Math.ceil(document.pagesCount / 2) : document.pagesCount) : undefined,
    });
  }

  private readonly handlers: Record<string, ApiHandler> = {
    'POST /sendings': (context) => {
      const fields = (context.body ?? {}) as Record<string, unknown>;
      const problems = this.sendingProblems(context.api, fields);
      if (problems.length) return this.badRequest(context.spec, problems);
      this.created += 1;
      const sending: SendingState = {
        id: randomUUID(),
        api: context.api,
        order: this.created,
        createdAt: new Date(),
        fields: this.withDefaults(context.spec, fields),
        status: 'DRAFT',
        submitCount: 0,
        step: 0,
        done: false,
        documents: [],
        recipients: [],
      };
      this.store.set(sending.id, sending);
      return this.json(201, this.sendingBody(context.spec, sending), this.location(context.api, `/sendings/${sending.id}`));
    },

    'GET /sendings': (context) => {
      // The documents give GET /sendings no filter (no custom_id): a caller looking for its
      // sending pages through them. Oldest first, so that new sendings do not shift the pages.
      const all = [...this.store.values()].filter((sending) => sending.api === context.api).sort((a, b) => a.order - b.order);
      const page = this.page(context, all, '/sendings', 50, 500);
      if ('status' in page) return page;
      return this.json(200, { sendings: page.items.map((sending) => this.sendingBody(context.spec, sending)), paging: page.paging });
    },

    'GET /sendings/{sending_id}': (context) => {
      const sending = this.sendingOf(context);
      return 'api' in sending ? this.json(200, this.sendingBody(context.spec, sending)) : sending;
    },

    'PATCH /sendings/{sending_id}': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      const fields = { ...sending.fields, ...((context.body ?? {}) as Record<string, unknown>) };
      const problems = this.sendingProblems(context.api, fields);
      if (problems.length) return this.badRequest(context.spec, problems);
      sending.fields = fields;
      return this.json(200, this.sendingBody(context.spec, sending), this.location(context.api, `/sendings/${sending.id}`));
    },

    'DELETE /sendings/{sending_id}': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      this.store.delete(sending.id);
      return { status: 204 };
    },

    'POST /sendings/{sending_id}/submit': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      sending.submitCount += 1;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      const problems: { code: string; message: string }[] = [];
      // The table has no code for "no document" or "no recipient": the nearest ones.
      if (sending.documents.length === 0) problems.push({ code: 'INVALID_DOCUMENTS_COUNT', message: 'the sending has no document' });
      if (sending.recipients.length === 0) problems.push({ code: 'INVALID_RECIPIENTS_COUNT', message: 'the sending has no recipient' });
      if (problems.length) return this.badRequest(context.spec, problems);
      this.submit(sending);
      return { status: 200 };
    },

    'POST /sendings/{sending_id}/documents': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      const part = context.parts!.find((candidate) => candidate.name === 'document')!;
      const metadata = context.body.metadata as { priority?: number; name?: string };
      const problems: { code: string; message?: string }[] = [];
      // Maileva also takes Word, RTF, text and Excel files; what we post is PDF, and the stand-in takes PDF only.
      const check = checkPdf(part.data);
      if (check === 'empty') problems.push({ code: 'EMPTY_DOCUMENT' });
      if (check === 'not-pdf') problems.push({ code: 'DOCUMENT_TYPE_NOT_ACCEPTED', message: 'the stand-in takes PDF files only (no %PDF- header)' });
      if (check === 'corrupted') problems.push({ code: 'CORRUPTED_DOCUMENT', message: 'no %%EOF marker at the end' });
      if (part.data.length > MAX_DOCUMENT_BYTES) problems.push({ code: 'INVALID_DOCUMENT_SIZE' });
      if (sending.documents.reduce((total, document) => total + document.size, part.data.length) > MAX_DOCUMENT_BYTES)
        problems.push({ code: 'INVALID_TOTAL_SENDING_SIZE' });
      if (sending.documents.length >= MAX_DOCUMENTS) problems.push({ code: 'INVALID_DOCUMENTS_COUNT' });
      // metadata.priority is optional in the schema: absent, the document goes last.
      const priority = metadata.priority ?? Math.max(0, ...sending.documents.map((document) => document.priority)) + 1;
      if (priority < 1) problems.push({ code: 'INVALID_PRIORITY', message: 'priority from 1' });
      if (sending.documents.some((document) => document.priority === priority)) problems.push({ code: 'DUPLICATE_PRIORITY' });
      if (problems.length) return this.badRequest(context.spec, problems);
      const document: DocumentState = {
        id: randomUUID(),
        name: metadata.name || part.filename || 'document.pdf',
        priority,
        size: part.data.length,
        pagesCount: pdfPageCount(part.data),
      };
      sending.documents.push(document);
      return this.json(201, this.documentBody(sending, document), this.location(context.api, `/sendings/${sending.id}/documents/${document.id}`));
    },

    'GET /sendings/{sending_id}/documents': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const ordered = [...sending.documents].sort((a, b) => a.priority - b.priority);
      const page = this.page(context, ordered, `/sendings/${sending.id}/documents`, 30, 30);
      if ('status' in page) return page;
      return this.json(200, { documents: page.items.map((document) => this.documentBody(sending, document)), paging: page.paging });
    },

    'GET /sendings/{sending_id}/documents/{document_id}': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const document = sending.documents.find((candidate) => candidate.id === context.params.document_id);
      return document ? this.json(200, this.documentBody(sending, document)) : this.notFound(context.spec, 'DOCUMENT_NOT_FOUND');
    },

    'DELETE /sendings/{sending_id}/documents/{document_id}': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const index = sending.documents.findIndex((candidate) => candidate.id === context.params.document_id);
      if (index < 0) return this.notFound(context.spec, 'DOCUMENT_NOT_FOUND');
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      sending.documents.splice(index, 1);
      return { status: 204 };
    },

    'POST /sendings/{sending_id}/documents/{document_id}/set_priority': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const document = sending.documents.find((candidate) => candidate.id === context.params.document_id);
      if (!document) return this.notFound(context.spec, 'DOCUMENT_NOT_FOUND');
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      const priority = (context.body as { priority?: number } | undefined)?.priority;
      if (priority === undefined) return this.badRequest(context.spec, [{ code: 'EMPTY_PRIORITY' }]);
      if (priority < 1) return this.badRequest(context.spec, [{ code: 'INVALID_PRIORITY', message: 'priority from 1' }]);
      if (sending.documents.some((other) => other !== document && other.priority === priority))
        return this.badRequest(context.spec, [{ code: 'DUPLICATE_PRIORITY' }]);
      document.priority = priority;
      return { status: 200 };
    },

    'POST /sendings/{sending_id}/recipients': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      const fields = (context.body ?? {}) as Record<string, unknown>;
      const problems = this.recipientProblems(sending, fields);
      if (sending.recipients.length >= MAX_RECIPIENTS[context.api]) problems.push({ code: 'INVALID_RECIPIENTS_COUNT' });
      if (problems.length) return this.badRequest(context.spec, problems);
      const recipient = this.newRecipient(fields);
      sending.recipients.push(recipient);
      return this.json(
        201,
        this.recipientBody(context.spec, sending, recipient),
        this.location(context.api, `/sendings/${sending.id}/recipients/${recipient.id}`),
      );
    },

    'GET /sendings/{sending_id}/recipients': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const page = this.page(context, sending.recipients, `/sendings/${sending.id}/recipients`, 50, 500);
      if ('status' in page) return page;
      return this.json(200, { recipients: page.items.map((recipient) => this.recipientBody(context.spec, sending, recipient)), paging: page.paging });
    },

    'DELETE /sendings/{sending_id}/recipients': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      sending.recipients = [];
      return { status: 204 };
    },

    'POST /sendings/{sending_id}/recipients/imports': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      const items = ((context.body ?? {}) as { import_recipients?: Record<string, unknown>[] }).import_recipients ?? [];
      if (sending.recipients.length + items.length > MAX_RECIPIENTS[context.api]) return this.badRequest(context.spec, [{ code: 'INVALID_RECIPIENTS_COUNT' }]);
      const accepted: Record<string, unknown>[] = [];
      const rejected: Record<string, unknown>[] = [];
      for (const item of items) {
        const { correlation_id: correlationId, ...fields } = item;
        const problems = this.recipientProblems(sending, fields);
        if (problems.length) {
          const echoed = Object.fromEntries(Object.entries(item).filter(([key]) => key in context.spec.schema('rejected_import').properties));
          rejected.push({
            ...echoed,
            errors: problems.map((problem) => ({ code: problem.code, message: this.describe(context.spec, problem.code, problem.message) })),
          });
        } else {
          const recipient = this.newRecipient(fields);
          sending.recipients.push(recipient);
          accepted.push(defined({ correlation_id: correlationId, id: recipient.id }));
        }
      }
      return this.json(201, { accepted_import: accepted, rejected_import: rejected });
    },

    'GET /sendings/{sending_id}/recipients/{recipient_id}': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const recipient = this.recipientOf(context, sending);
      if (!('fields' in recipient)) return recipient;
      return this.json(200, this.recipientBody(context.spec, sending, recipient));
    },

    'PATCH /sendings/{sending_id}/recipients/{recipient_id}': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const recipient = this.recipientOf(context, sending);
      if (!('fields' in recipient)) return recipient;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      const fields = { ...recipient.fields, ...((context.body ?? {}) as Record<string, unknown>) };
      const problems = this.recipientProblems(sending, fields);
      if (problems.length) return this.badRequest(context.spec, problems);
      recipient.fields = fields;
      return this.json(200, this.recipientBody(context.spec, sending, recipient));
    },

    'DELETE /sendings/{sending_id}/recipients/{recipient_id}': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const recipient = this.recipientOf(context, sending);
      if (!('fields' in recipient)) return recipient;
      const refused = this.draftOnly(context, sending);
      if (refused) return refused;
      sending.recipients = sending.recipients.filter((other) => other !== recipient);
      return { status: 204 };
    },

    'GET /sendings/{sending_id}/recipients/{recipient_id}/delivery_statuses': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const recipient = this.recipientOf(context, sending);
      if (!('fields' in recipient)) return recipient;
      const page = this.page(context, recipient.deliveryStatuses, `/sendings/${sending.id}/recipients/${recipient.id}/delivery_statuses`, 50, 500);
      if ('status' in page) return page;
      return this.json(200, { delivery_statuses: page.items, paging: page.paging });
    },

    'GET /sendings/{sending_id}/recipients/{recipient_id}/download_archive': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const recipient = this.recipientOf(context, sending);
      if (!('fields' in recipient)) return recipient;
      if (!recipient.archivedAt) return this.notFound(context.spec, 'DOCUMENT_NOT_FOUND', 'no archive (yet) for this recipient');
      const lines = [
        `Maileva archive ${recipient.id}`,
        `Sending ${sending.id}`,
        ...sending.documents.map((document) => `${document.priority}. ${document.name} (${document.pagesCount} p.)`),
      ];
      return this.zipped(`archive_${recipient.id}.pdf`, onePagePdf(lines), recipient.archivedAt);
    },

    'GET /sendings/{sending_id}/recipients/{recipient_id}/download_acknowledgement_of_receipt': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      const recipient = this.recipientOf(context, sending);
      if (!('fields' in recipient)) return recipient;
      if (!recipient.arScannedAt) return this.notFound(context.spec, 'DOCUMENT_NOT_FOUND', 'no scanned acknowledgement of receipt (yet) for this recipient');
      const lines = [
        `Maileva acknowledgement of receipt ${recipient.id}`,
        `Registered number ${recipient.registeredNumber}`,
        `Signed and scanned ${recipient.arScannedAt.toISOString()}`,
      ];
      return this.zipped(`acknowledgement_of_receipt_${recipient.id}.pdf`, onePagePdf(lines), recipient.arScannedAt);
    },

    'GET /sendings/{sending_id}/download_deposit_proof': (context) => {
      const sending = this.sendingOf(context);
      if (!('api' in sending)) return sending;
      if (!sending.depositProofAt) return this.notFound(context.spec, 'DOCUMENT_NOT_FOUND', 'no deposit proof (yet) for this sending');
      const lines = [
        `Maileva deposit proof ${sending.id}`,
        `Deposited ${sending.depositProofAt.toISOString()}`,
        ...sending.recipients
          .filter((recipient) => recipient.registeredNumber)
          .map((recipient) => `${recipient.registeredNumber} ${recipient.fields.address_line_6 ?? ''}`),
      ];
      return this.zipped(`deposit_proof_${sending.id}.pdf`, onePagePdf(lines), sending.depositProofAt);
    },
  };

  /**
   * The documents declare `application/zip` for the three downloads while their descriptions say
   * "au format PDF": the stand-in keeps to the declared type, a real zip holding one real PDF.
   */
  private zipped(name: string, pdf: Buffer, date: Date): Answer {
    return {
      status: 200,
      contentType: 'application/zip',
      headers: { 'content-disposition': `attachment; filename="${name.replace(/\.pdf$/, '.zip')}"` },
      body: zipOf(name, pdf, date),
    };
  }

  // ---------------------------------------------------------------- life after submit

  private newRecipient(fields: Record<string, unknown>): RecipientState {
    return { id: randomUUID(), fields, status: 'DRAFT', fate: 'deliver', script: [], deliveryStatuses: [] };
  }

  private submit(sending: SendingState): void {
    sending.status = 'PENDING';
    sending.submittedAt = new Date();
    if (this.expireAtSubmit) {
      this.expireAtSubmit = false;
      this.expireTokens();
    }
    for (const recipient of sending.recipients) {
      recipient.status = 'PENDING';
      const address = [1, 2, 3, 4, 5, 6]
        .map((n) => recipient.fields[`address_line_${n}`] ?? '')
        .join('\n')
        .toUpperCase();
      const returned = this.returnedAddresses.find((mark) => address.includes(mark.text));
      if (this.rejectedAddresses.some((text) => address.includes(text))) recipient.fate = 'reject';
      else if (returned) recipient.fate = 'return';
      recipient.script = this.script(sending, recipient.fate, returned?.reason ?? 'address');
    }
    this.schedule(sending);
  }

  /**
   * The delivery status codes a letter goes through after PROCESSED, from the documents' tables.
   *
   * /registered_mail/v2 (codes A: acheminement, P: présentation, D: distribution, N: numérisé par Maileva):
   * - delivered: A01 "Pris en charge", D01 "Distribué", then with AR scanning
   *   (acknowledgement_of_receipt_scanning) N01 "AR Signé : RAR distribué" and the scanned AR to
   *   download. Without scanning the paper AR goes back to the sender: no N01.
   * - returned, wrong address: A01, A23 "Retourné à l'expéditeur pour cause d'adresse incorrecte",
   *   then with AR scanning (Maileva's address is the return address) N02 "PND (Pli Non
   *   Distribuable) pour une LR".
   * - returned, not collected: A01, A02 "Avisé", P01 "Attend d'être retiré au guichet", P03
   *   "Retourné à l'expéditeur pour cause de dépassement de délai d'instance", with scanning N03 "Non réclamé".
   * - returned, refused: A01, P05 "Retourné à l'expéditeur pour cause de refus à l'adresse", with scanning N05 "Refusé".
   *
   * /mail/v2: "seule l'option gestion des PND peut faire l'objet d'un statut de distribution": a
   * delivered letter gets none; a returned one N10 "PND (Pli Non Distribuable) pour un courrier"
   * when the sending has treat_undelivered_mail, else none (the letter goes back to the sender).
   *
   * The tables list no production codes: production shows in the statuses (PENDING, ACCEPTED, PROCESSED).
   */
  private script(sending: SendingState, fate: RecipientState['fate'], reason: ReturnReason): string[] {
    if (fate === 'reject') return [];
    if (sending.api === 'mail') return fate === 'return' && sending.fields.treat_undelivered_mail === true ? ['N10'] : [];
    const scanning = sending.fields.acknowledgement_of_receipt === true && sending.fields.acknowledgement_of_receipt_scanning === true;
    if (fate === 'deliver') return ['A01', 'D01', ...(scanning ? ['N01'] : [])];
    if (reason === 'unclaimed') return ['A01', 'A02', 'P01', 'P03', ...(scanning ? ['N03'] : [])];
    if (reason === 'refused') return ['A01', 'P05', ...(scanning ? ['N05'] : [])];
    return ['A01', 'A23', ...(scanning ? ['N02'] : [])];
  }

  private schedule(sending: SendingState): void {
    if (this.options.stepDelayMs <= 0 || sending.done) return;
    sending.timer = setTimeout(() => {
      this.step(sending);
      this.schedule(sending);
    }, this.options.stepDelayMs);
    sending.timer.unref();
  }

  /**
   * One step of a submitted sending's life:
   * 1. the sending is analysed: recipients marked by `rejectAddressesContaining` become REJECTED;
   *    all of them rejected, the sending is REJECTED (end); else ACCEPTED, with postage prices,
   *    page, sheet and envelope counts.
   * 2. production: the sending PROCESSED (PROCESSED_WITH_ERRORS if some recipients were
   *    rejected), its other recipients PROCESSED (registered numbers given, letters archived
   *    when the sending keeps archives: always for registered mail, archiving_duration > 0 for simple mail).
   * 3. and on: each letter gets the next code of its script (see `script`); the first A01 of a
   *    registered sending makes its deposit proof available.
   */
  private step(sending: SendingState): void {
    if (sending.done || !sending.submittedAt) return;
    const spec = this.specs![sending.api];
    sending.step += 1;
    const now = new Date();
    if (sending.step === 1) {
      for (const recipient of sending.recipients) {
        if (recipient.fate !== 'reject') continue;
        recipient.status = 'REJECTED';
        recipient.statusDetail = 'Adresse refusée par le centre de production';
      }
      if (sending.recipients.every((recipient) => recipient.status === 'REJECTED')) {
        sending.status = 'REJECTED';
        sending.statusDetail = 'Aucun destinataire valide';
        sending.done = true;
        return;
      }
      sending.status = 'ACCEPTED';
      sending.acceptedAt = now;
      for (const recipient of sending.recipients) if (recipient.status === 'PENDING') this.price(sending, recipient);
      return;
    }
    if (sending.step === 2) {
      const anyRejected = sending.recipients.some((recipient) => recipient.status === 'REJECTED');
      sending.status = anyRejected ? 'PROCESSED_WITH_ERRORS' : 'PROCESSED';
      sending.processedAt = now;
      const archives = sending.api === 'registered_mail' || Number(sending.fields.archiving_duration ?? 0) > 0;
      for (const recipient of sending.recipients) {
        if (recipient.status !== 'PENDING') continue;
        recipient.status = 'PROCESSED';
        if (sending.api === 'registered_mail') recipient.registeredNumber = `1E${String(randomInt(10 ** 11)).padStart(11, '0')}`;
        if (archives) recipient.archivedAt = now;
      }
    } else {
      for (const recipient of sending.recipients) {
        const code = recipient.script[recipient.deliveryStatuses.length];
        if (recipient.status !== 'PROCESSED' || !code) continue;
        const label = spec.deliveryStatuses.get(code)?.label;
        if (!label) this.violations.push(`${sending.api}: delivery status ${code} is not in the document's table`);
        recipient.deliveryStatuses.push({ status: code, label: label ?? code, date: now.toISOString() });
        if (code === 'A01' && sending.api === 'registered_mail') sending.depositProofAt ??= now;
        if (code === 'N01') recipient.arScannedAt = now;
        if (code === 'N10') recipient.undeliveredAt = now;
      }
    }
    sending.done = sending.recipients.every((recipient) => recipient.status !== 'PROCESSED' || recipient.deliveryStatuses.length >= recipient.script.length);
  }

  /** Postage and counts, once ACCEPTED ("disponible à partir du statut ACCEPTED"). */
  private price(sending: SendingState, recipient: RecipientState): void {
    const duplex = sending.fields.duplex_printing !== false;
    const pages = sending.documents.reduce((total, document) => total + document.pagesCount, 0);
    const sheets = sending.documents.reduce((total, document) => total + (duplex ? Math.ceil(document.pagesCount / 2) : document.pagesCount), 0);
    const optional = sending.fields.optional_address_sheet === true;
    // A return envelope counts as a sheet of the envelope (the rule's "enveloppe retour incluse").
    const returnEnvelope = sending.fields.return_envelope ? 1 : 0;
    // "1 à 5 feuilles (feuille porte-adresse … incluses) : enveloppe DL. 6 à 45 feuilles (hors feuille porte-adresse …) : enveloppe C4",
    // where the address sheet is imposed (system_address_sheet) and not billed.
    if (sheets + returnEnvelope + (optional ? 1 : 0) <= 5) {
      const extra = optional ? 1 : 0;
      recipient.counts = { pages: pages + extra, billedPages: pages + extra, sheets: sheets + extra, envelope: 'DL', systemAddressSheet: false };
    } else {
      recipient.counts = { pages: pages + 1, billedPages: pages, sheets: sheets + 1, envelope: 'C4', systemAddressSheet: true };
    }
    if (sending.api === 'mail') {
      const postageType = (sending.fields.postage_type as keyof typeof MAILEVA_STAND_IN_PRICES.mail | undefined) ?? 'FAST';
      recipient.postagePrice = MAILEVA_STAND_IN_PRICES.mail[postageType];
      recipient.postageClass = { URGENT: 'PRIORITY', FAST: 'GREEN_LETTER', ECONOMIC: 'ECONOMY' }[postageType];
    } else {
      recipient.postagePrice =
        sending.fields.acknowledgement_of_receipt === false ? MAILEVA_STAND_IN_PRICES.registered : MAILEVA_STAND_IN_PRICES.registeredWithAr;
    }
  }
}
