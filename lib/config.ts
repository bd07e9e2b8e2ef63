import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from './paths.js';

export type AppEnv = 'local' | 'preprod' | 'production';

// This file is the only reader of the environment. The few settings needed before (or without) a
// whole configuration are read by the small functions below; everything else is in Config.

/** Local state of `npm start` (embedded Postgres, Temporal dev database, local secrets): DATA_DIR. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR ?? join(projectRoot, '.data'));
}

/**
 * Tools the project builds or unpacks once per machine (the temporal CLI, the packaged Chromium):
 * outside the clone (XDG_CACHE_HOME, else ~/.cache), so every clone and CI run on this machine
 * shares them. Keyed by version below.
 */
export function toolsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc-postal', 'tools');
}

/**
 * TEMPORAL_TEST_SERVER_PATH: Temporal's time-skipping test server (an executable taking the port
 * as its first argument) for the time-skipping tests; unset, it is built from Maven Central.
 */
export function temporalTestServerPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEMPORAL_TEST_SERVER_PATH || undefined;
}

/** The directories searched for programs (PATH). */
export function searchPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PATH ?? '';
}

/** STRIPE_MOCK_PATH: the stripe-mock binary when none is on PATH (else built into the tools cache). */
export function stripeMockPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.STRIPE_MOCK_PATH || undefined;
}

/** HELM_PATH: the helm binary of the chart's checks when none is on PATH (else built into the tools cache). */
export function helmPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.HELM_PATH || undefined;
}

/** WEED_PATH: SeaweedFS's `weed` (the object-store tests' S3-compatible server) when none is on PATH (else built into the tools cache). */
export function weedPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.WEED_PATH || undefined;
}

/** K8S_VALIDATE_PATH: a built scripts/k8s-validate to use instead of building it (the chart's strict check). */
export function k8sValidatePath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.K8S_VALIDATE_PATH || undefined;
}

/** LOG_LEVEL, for the logger, which exists before any configuration is loaded. */
export function logLevel(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOG_LEVEL || 'info';
}

export interface Config {
  appEnv: AppEnv;
  port: number;
  /** METRICS_PORT: the Prometheus endpoint's own port (`GET /metrics`); undefined: no metrics are kept. */
  metricsPort: number | undefined;
  /** HEALTH_PORT: a worker answers `GET /live` on this port, metrics or not; undefined: no such port. */
  healthPort: number | undefined;
  databaseUrl: string | undefined;
  /**
   * DOCUMENT_STORE: where the bytes of own PDFs and proofs live. `postgres` (the default): in their
   * rows. `s3`: in an S3-compatible bucket, keyed by SHA-256 (S3_ENDPOINT, S3_BUCKET, S3_REGION,
   * S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE).
   */
  documentStore: DocumentStoreConfig;
  /**
   * DB_POOL_MAX: connections each API or worker process opens at most (default 10), beside the
   * API's two LISTEN connections. MIGRATION_LOCK_TIMEOUT (default 5s) and MIGRATION_STATEMENT_TIMEOUT
   * (default 30m): a migration gives up rather than hold every reader of a table behind its lock.
   * TLS is read from DATABASE_URL and the PGSSL* variables (db/connection.ts).
   */
  database: { poolMax: number; migrationLockTimeoutMs: number; migrationStatementTimeoutMs: number };
  temporalAddress: string | undefined;
  temporalNamespace: string;
  /**
   * TLS towards Temporal (TEMPORAL_TLS_CA, TEMPORAL_TLS_CERT + TEMPORAL_TLS_KEY, TEMPORAL_TLS_SERVER_NAME;
   * on with TEMPORAL_API_KEY too); undefined: plain gRPC, as the embedded dev server speaks.
   */
  temporalTls: TemporalTlsConfig | undefined;
  /** TEMPORAL_API_KEY: Temporal Cloud's API key (sent as `Authorization: Bearer …`, TLS on). Never logged. */
  temporalApiKey: string | undefined;
  /**
   * TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: the worker registers our search attributes at start (default
   * only for the embedded dev server, i.e. without TEMPORAL_ADDRESS); otherwise it checks they exist.
   */
  temporalRegisterSearchAttributes: boolean;
  /** WORKER_ROLES: which kinds of work this worker process takes, i.e. which task queues it polls (default all). */
  workerRoles: WorkerRole[];
  /** MIGRATE_ON_START: the API and the worker apply the migrations at start (default: not in production). */
  migrateOnStart: boolean;
  /**
   * SHUTDOWN_GRACE: after SIGTERM, how long the API lets requests in flight finish and a worker lets
   * its activities finish before cutting them (20 s outside local, where deployments roll; 0 locally).
   */
  shutdownGraceMs: number;
  taskQueue: string;
  /** 32-byte key that encrypts webhook secrets and signs cursors and proof links. */
  secretKey: Buffer;
  rateLimitPerMinute: number;
  sandboxDailyQuota: number;
  webhookRetryDelaysMs: number[];
  webhookAllowPrivate: boolean;
  operatorStepDelayMs: number;
  operatorFailFirstFilings: number;
  /** How often a filed letter's tracking is asked for news (OPERATOR_POLL_INTERVAL). */
  operatorPollMs: number;
  /** A test mailing not advanced this long ends in error (TEST_MAILING_IDLE_LIMIT, 30 days; a test knob). */
  testMailingIdleLimitMs: number;
  /**
   * IDEMPOTENCY_LEASE (5 min): a POST's claim on its Idempotency-Key lasts this long; when its API
   * process died, the same key is answered 409 until then. Longer than any request (LLM_TIMEOUT).
   */
  idempotencyLeaseMs: number;
  /** A filed letter without news this long ends in error (OPERATOR_SILENCE_LIMIT, 30 days; a test knob). */
  trackingSilenceLimitMs: number;
  /** A confirmed account closing waits this long, cancelable, before the account is closed (ACCOUNT_CLOSING_GRACE, 30 days; a test knob). */
  accountClosingGraceMs: number;
  /** Activities one worker process runs at once on the main task queue (WORKER_ACTIVITY_SLOTS). */
  workerActivitySlots: number;
  /**
   * Mailing workflows one worker process keeps in memory between their tasks (WORKER_CACHED_WORKFLOWS,
   * 500). Past it, the least recent is evicted and replayed from its history at its next task: a
   * mailing waits days between events, so a larger cache buys little and costs memory.
   */
  workerCachedWorkflows: number;
  /** Failed authentications allowed per client address and minute (FAILED_AUTH_PER_MINUTE). */
  failedAuthPerMinute: number;
  /** Email of the developer space (SMTP_URL, MAIL_FROM); no SMTP_URL: .eml files in the outbox folder. */
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  /** The developer space: its public address for emailed links (PUBLIC_URL), its sessions' lifetime. */
  dashboard: { publicUrl: string | undefined; sessionTtlMs: number };
  /**
   * Reverse proxies in front of the process that each append the address they received from to
   * X-Forwarded-For (TRUST_PROXY_HOPS; TRUST_PROXY=1 alone means one): the client's address is the
   * entry that many from the right. 0: the socket's address, the header ignored.
   */
  trustedProxyHops: number;
  /** Top-ups through Stripe Checkout (docs/developer-space.md, "Balance and top-ups"). */
  stripe: StripeConfig;
  /** Who sells: the legal mentions every invoice carries (SELLER_*; docs/billing.md). */
  seller: SellerConfig;
  logLevel: string;
  /** Temporal SDK log level in the worker (TEMPORAL_LOG_LEVEL). */
  temporalLogLevel: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** TEMPORAL_CLI_PATH: the temporal binary when none is on PATH. */
  temporalCliPath: string | undefined;
  /** PDF printing: the browser chosen by PUPPETEER_EXECUTABLE_PATH (else found), pages at once. */
  pdf: { executablePath: string | undefined; pages: number };
  /** OpenAI-compatible embeddings endpoint of the semantic search; unset: search stays lexical. */
  embeddings: { baseUrl: string | undefined; apiKey: string | undefined; model: string };
  /**
   * The LLM of the AI operations: an OpenAI-compatible chat-completions API. Mistral AI's by
   * default (a provider established and hosting in the EU, docs/privacy.md); any other
   * OpenAI-compatible API by LLM_BASE_URL and LLM_MODEL.
   */
  llm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number; perSecond: number };
  /** Who posts live letters (POSTAL_OPERATOR): the bundled simulator, or Maileva with its credentials. */
  postalOperator: PostalOperatorConfig;
  /** LRE_PROVIDER: who sends qualified electronic registered letters (not yet offered by the API). */
  lreProvider: LreProviderConfig;
  /** Public-data partners: base URLs, one request's time limit, and requests per second. */
  partners: {
    geocodingBaseUrl: string;
    companiesBaseUrl: string;
    routingBaseUrl: string;
    fuelBaseUrl: string;
    timeoutMs: number;
    geocodingPerSecond: number;
    companiesPerSecond: number;
    routingPerSecond: number;
    fuelPerSecond: number;
    /** PARTNER_BREAKER_FAILURES (5) and PARTNER_BREAKER_COOL_DOWN (30s): each partner's circuit breaker. */
    breaker: { failures: number; coolDownMs: number };
  };
}

/** The kinds of work a worker process can take (WORKER_ROLES); docs/operators.md, "Worker roles". */
export const WORKER_ROLES = ['mailings', 'deliveries', 'printing', 'tracking', 'partners'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];

/** WORKER_ROLES: a comma-separated list among WORKER_ROLES; unset or empty: all of them. */
export function workerRoles(raw: string | undefined): WorkerRole[] {
  const names = (raw ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return [...WORKER_ROLES];
  const unknown = names.filter((name) => !(WORKER_ROLES as readonly string[]).includes(name));
  if (unknown.length)
    throw new Error(
      `WORKER_ROLES: unknown role${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} (roles: ${WORKER_ROLES.join(', ')})`,
    );
  return WORKER_ROLES.filter((role) => names.includes(role));
}

/** TLS towards the Temporal frontend; the PEM files are read once, at start. */
export interface TemporalTlsConfig {
  /** TEMPORAL_TLS_CA: the CA bundle the server's certificate is checked against; undefined: the system's CAs. */
  serverCa: Buffer | undefined;
  /** TEMPORAL_TLS_CERT + TEMPORAL_TLS_KEY: this process's client certificate and key (mTLS). */
  client: { cert: Buffer; key: Buffer } | undefined;
  /** TEMPORAL_TLS_SERVER_NAME: the name the server's certificate is checked for (SNI), instead of the address's host. */
  serverName: string | undefined;
}

/** Reads a PEM file named by `setting`, refusing with a line that names the setting and the file. */
function pemFile(env: NodeJS.ProcessEnv, setting: string, kind: RegExp, what: string): Buffer | undefined {
  const path = env[setting];
  return path ? readPemFile(path, setting, kind, what) : undefined;
}

/** A PEM file a setting names, refused with that setting's name when unreadable or without a block of `kind`. */
export function readPemFile(path: string, setting: string, kind: RegExp, what: string): Buffer {
  let content: Buffer;
  try {
    content = readFileSync(path);
  } catch (error) {
    throw new Error(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); it must name a PEM file with ${what}`, {
      cause: error,
    });
  }
  if (!kind.test(content.toString('latin1'))) throw new Error(`${setting}: ${path} holds no PEM ${what} (no "-----BEGIN …-----" block of that kind)`);
  return content;
}

function temporalTlsConfig(env: NodeJS.ProcessEnv): TemporalTlsConfig | undefined {
  const settings = ['TEMPORAL_TLS_CA', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY', 'TEMPORAL_TLS_SERVER_NAME', 'TEMPORAL_API_KEY'].filter((name) => env[name]);
  if (settings.length === 0) return undefined;
  if (!env.TEMPORAL_ADDRESS)
    throw new Error(
      `${settings.join(', ')} need${settings.length > 1 ? '' : 's'} TEMPORAL_ADDRESS: the embedded dev server that npm start runs without it speaks plain gRPC`,
    );
  if (Boolean(env.TEMPORAL_TLS_CERT) !== Boolean(env.TEMPORAL_TLS_KEY))
    throw new Error('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (the client certificate of mTLS and its private key): set both or neither');
  const cert = pemFile(env, 'TEMPORAL_TLS_CERT', /-----BEGIN CERTIFICATE-----/, 'a certificate');
  const key = pemFile(env, 'TEMPORAL_TLS_KEY', /-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key');
  return {
    serverCa: pemFile(env, 'TEMPORAL_TLS_CA', /-----BEGIN CERTIFICATE-----/, 'a CA certificate'),
    client: cert && key ? { cert, key } : undefined,
    serverName: env.TEMPORAL_TLS_SERVER_NAME || undefined,
  };
}

/** `1` or `0`; unset: `fallback`. */
function switchSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1') return true;
  if (raw === '0') return false;
  throw new Error(`${name} must be 1 or 0, got "${raw}"`);
}

/** A duration setting, refused with its name. */
function durationSetting(env: NodeJS.ProcessEnv, name: string, fallback: string): number {
  try {
    return parseDuration(env[name] || fallback);
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
  }
}

/** POSTAL_OPERATOR: `simulator` (default) or `maileva` (docs/operators.md). */
export type PostalOperatorConfig = { kind: 'simulator' } | { kind: 'maileva'; maileva: MailevaConfig };

export interface MailevaConfig {
  /** MAILEVA_API_URL: `/mail/v2` and `/registered_mail/v2` live under it. */
  apiUrl: string;
  /** MAILEVA_AUTH_URL: the token endpoint is `{authUrl}/token`. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** Where Maileva sends its notifications (the address of MAIL_FROM). */
  notificationEmail: string;
  /** One request's time limit (PARTNER_TIMEOUT, at least 30 s: documents are uploaded). */
  timeoutMs: number;
}

const MAILEVA_SETTINGS = ['MAILEVA_CLIENT_ID', 'MAILEVA_CLIENT_SECRET', 'MAILEVA_USERNAME', 'MAILEVA_PASSWORD'] as const;

function postalOperatorConfig(env: NodeJS.ProcessEnv, mailFrom: string, partnerTimeoutMs: number): PostalOperatorConfig {
  const kind = env.POSTAL_OPERATOR || 'simulator';
  if (kind === 'simulator') return { kind };
  if (kind !== 'maileva') throw new Error(`POSTAL_OPERATOR must be simulator or maileva, got "${kind}"`);
  const missing = MAILEVA_SETTINGS.filter((name) => !env[name]);
  if (missing.length) throw new Error(`POSTAL_OPERATOR=maileva needs ${missing.join(', ')} (missing)`);
  // Maileva sends its notifications (and deposit proofs) to this address, and refuses a sending without a valid one.
  const notificationEmail = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(notificationEmail))
    throw new Error(`POSTAL_OPERATOR=maileva needs MAIL_FROM with a real address for Maileva's notifications (got "${notificationEmail}")`);
  return {
    kind,
    maileva: {
      apiUrl: (env.MAILEVA_API_URL || 'https://api.maileva.com').replace(/\/+$/, ''),
      authUrl: (env.MAILEVA_AUTH_URL || 'https://connexion.maileva.com/auth/realms/services/protocol/openid-connect').replace(/\/+$/, ''),
      clientId: env.MAILEVA_CLIENT_ID!,
      clientSecret: env.MAILEVA_CLIENT_SECRET!,
      username: env.MAILEVA_USERNAME!,
      password: env.MAILEVA_PASSWORD!,
      notificationEmail,
      timeoutMs: Math.max(30_000, partnerTimeoutMs),
    },
  };
}

/** LRE_PROVIDER: `simulator` (default) or `ar24` (docs/electronic-registered-letters.md). */
export type LreProviderConfig = { kind: 'simulator' } | { kind: 'ar24'; ar24: Ar24Config };

export interface Ar24Config {
  /** AR24_API_URL: the API's base (routes such as `/user/` and `/mail/` under it). */
  apiUrl: string;
  /** AR24_TOKEN. */
  token: string;
  /** AR24_PRIVATE_KEY: signs each request's date and decrypts the answers. */
  privateKey: string;
  /** One request's time limit: AR24's own, 60 s (its documentation asks clients to match it). */
  timeoutMs: number;
}

export const AR24_DEFAULT_API_URL = 'https://app.ar24.fr/api';
const AR24_SETTINGS = ['AR24_TOKEN', 'AR24_PRIVATE_KEY'] as const;

function lreProviderConfig(env: NodeJS.ProcessEnv): LreProviderConfig {
  const kind = env.LRE_PROVIDER || 'simulator';
  if (kind === 'simulator') return { kind };
  if (kind !== 'ar24') throw new Error(`LRE_PROVIDER must be simulator or ar24, got "${kind}"`);
  const missing = AR24_SETTINGS.filter((name) => !env[name]);
  if (missing.length) throw new Error(`LRE_PROVIDER=ar24 needs ${missing.join(', ')} (missing)`);
  const apiUrl = (env.AR24_API_URL || AR24_DEFAULT_API_URL).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(apiUrl)) throw new Error(`AR24_API_URL must be an http(s) URL, got "${apiUrl}"`);
  return { kind, ar24: { apiUrl, token: env.AR24_TOKEN!, privateKey: env.AR24_PRIVATE_KEY!, timeoutMs: 60_000 } };
}

/**
 * `stripe`: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (test-mode or live keys of a real Stripe account).
 * `mock` (APP_ENV=local without a key): the API calls go to stripe-mock at STRIPE_MOCK_URL (started
 * by npm start and the tests), events are signed with a local secret, and the test payment page exists.
 * `disabled` (preprod or production without a key): balance and ledger are shown, top-ups are refused.
 */
export interface StripeConfig {
  mode: 'stripe' | 'mock' | 'disabled';
  secretKey: string | undefined;
  webhookSecret: string | undefined;
  /** STRIPE_MOCK_URL, e.g. http://127.0.0.1:12111: stripe-mock's address in `mock` mode. */
  mockUrl: string | undefined;
}

function stripeConfig(env: NodeJS.ProcessEnv, appEnv: AppEnv, secretKey: Buffer): StripeConfig {
  const key = env.STRIPE_SECRET_KEY || undefined;
  if (key) {
    if (!env.STRIPE_WEBHOOK_SECRET)
      throw new Error('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (the whsec_… secret of the /stripe/webhook endpoint)');
    return { mode: 'stripe', secretKey: key, webhookSecret: env.STRIPE_WEBHOOK_SECRET, mockUrl: undefined };
  }
  if (appEnv !== 'local') return { mode: 'disabled', secretKey: undefined, webhookSecret: undefined, mockUrl: undefined };
  // stripe-mock takes any test key; the local secret is derived from SECRET_KEY, so every local process agrees on it.
  const localSecret = 'whsec_local_' + createHmac('sha256', secretKey).update('stripe-webhook').digest('hex').slice(0, 32);
  return { mode: 'mock', secretKey: 'sk_test_stripemock', webhookSecret: env.STRIPE_WEBHOOK_SECRET || localSecret, mockUrl: env.STRIPE_MOCK_URL || undefined };
}

/**
 * The seller's legal mentions on every invoice (Code de commerce L441-9 and R123-237, CGI annexe II
 * art. 242 nonies A). Local runs get marked example values; a server that invoices for real
 * (STRIPE_SECRET_KEY outside local) refuses to start without them.
 */
export interface SellerConfig {
  /** SELLER_LEGAL_NAME: the company's name. */
  legalName: string;
  /** SELLER_LEGAL_FORM: legal form and share capital, e.g. "SAS au capital de 10 000 €". */
  legalForm: string;
  /** SELLER_ADDRESS: the registered office, one line. */
  address: string;
  /** SELLER_SIREN: 9 digits. */
  siren: string;
  /** SELLER_RCS: the registry and its town, e.g. "RCS Paris". */
  rcs: string;
  /** SELLER_VAT_NUMBER: FR + key + SIREN. */
  vatNumber: string;
  /** SELLER_VAT_ON_DEBITS=1: the seller opted to pay VAT on debits, which invoices must then say. */
  vatOnDebits: boolean;
}

const LOCAL_SELLER: SellerConfig = {
  legalName: 'Service postal (exemple, serveur local)',
  legalForm: 'SAS au capital de 1 000 €',
  address: '1 rue de l’Exemple, 75001 Paris',
  // A made-up SIREN with a valid control key, and its VAT number.
  siren: '123456782',
  rcs: 'RCS Paris',
  vatNumber: 'FR11123456782',
  vatOnDebits: false,
};

function sellerConfig(env: NodeJS.ProcessEnv, appEnv: AppEnv, stripe: StripeConfig): SellerConfig {
  const invoicing = appEnv !== 'local' && stripe.mode === 'stripe';
  const names = ['SELLER_LEGAL_NAME', 'SELLER_LEGAL_FORM', 'SELLER_ADDRESS', 'SELLER_SIREN', 'SELLER_RCS', 'SELLER_VAT_NUMBER'] as const;
  const missing = names.filter((name) => !env[name]);
  if (invoicing && missing.length) throw new Error(`invoices need the seller's legal mentions: set ${missing.join(', ')} (docs/billing.md)`);
  const siren = (env.SELLER_SIREN || LOCAL_SELLER.siren).replace(/\s/g, '');
  if (!/^\d{9}$/.test(siren)) throw new Error(`SELLER_SIREN must be 9 digits, got "${env.SELLER_SIREN}"`);
  const vatNumber = (env.SELLER_VAT_NUMBER || LOCAL_SELLER.vatNumber).replace(/\s/g, '').toUpperCase();
  if (!/^FR[0-9A-Z]{2}\d{9}$/.test(vatNumber)) throw new Error(`SELLER_VAT_NUMBER must be FR, a 2-character key and the SIREN, got "${env.SELLER_VAT_NUMBER}"`);
  return {
    legalName: env.SELLER_LEGAL_NAME || LOCAL_SELLER.legalName,
    legalForm: env.SELLER_LEGAL_FORM || LOCAL_SELLER.legalForm,
    address: env.SELLER_ADDRESS || LOCAL_SELLER.address,
    siren,
    rcs: env.SELLER_RCS || LOCAL_SELLER.rcs,
    vatNumber,
    vatOnDebits: env.SELLER_VAT_ON_DEBITS === '1',
  };
}

/** MIGRATE_ON_START: 1 or 0; unset, migrations run at start except in production (a separate `migrate` step there). */
function migrateOnStart(raw: string | undefined, appEnv: AppEnv): boolean {
  if (raw === undefined || raw === '') return appEnv !== 'production';
  if (raw !== '0' && raw !== '1') throw new Error(`MIGRATE_ON_START must be 0 or 1, got "${raw}"`);
  return raw === '1';
}

const DEFAULT_RETRY_DELAYS = '1m,5m,30m,2h,6h,12h,24h';

/** Parses "500ms", "30s", "5m", "2h", "1d" (a bare number is milliseconds). */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`invalid duration "${text}" (expected e.g. 500ms, 30s, 5m, 2h)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms'] ?? 1;
  return Math.round(Number(match[1]) * unit);
}

/**
 * How many proxies to trust. Only the entries our own proxies appended can be believed: the
 * leftmost ones are whatever the client wrote, so the address is taken that many from the right.
 */
function trustedProxyHops(env: NodeJS.ProcessEnv): number {
  const hops = positiveInt(env.TRUST_PROXY_HOPS, 'TRUST_PROXY_HOPS', env.TRUST_PROXY === '1' ? 1 : 0);
  if (env.TRUST_PROXY === '1' && env.TRUST_PROXY_HOPS === '0')
    throw new Error('TRUST_PROXY=1 says there is a proxy, TRUST_PROXY_HOPS=0 that there is none: set one of them');
  return hops;
}

function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/**
 * SECRET_KEY (64 hex chars) is mandatory outside local runs. Locally a key is generated once
 * and kept in the data folder so that encrypted webhook secrets survive restarts.
 */
function loadSecretKey(env: NodeJS.ProcessEnv, appEnv: AppEnv): Buffer {
  const raw = env.SECRET_KEY;
  if (raw) {
    if (!/^[0-9a-fA-F]{64}$/.test(raw)) throw new Error('SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
    return Buffer.from(raw, 'hex');
  }
  if (appEnv !== 'local') throw new Error('SECRET_KEY is required when APP_ENV is ' + appEnv);
  const file = join(dataDir(env), 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir(env), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

const TEMPORAL_LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

function temporalLogLevel(raw: string | undefined): Config['temporalLogLevel'] {
  const level = (raw || 'WARN').toUpperCase();
  if (!(TEMPORAL_LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`TEMPORAL_LOG_LEVEL must be one of ${TEMPORAL_LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level as Config['temporalLogLevel'];
}

/**
 * A real operator is asked every minute unless told otherwise; the simulator no more often than
 * its own steps (at least every 100 ms, the shortest retry interval worth having).
 */
function operatorPollMs(raw: string | undefined, stepDelayMs: number): number {
  if (raw) return Math.max(100, parseDuration(raw));
  return Math.max(100, Math.min(60_000, stepDelayMs));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const appEnv = (env.APP_ENV ?? 'local') as AppEnv;
  if (!['local', 'preprod', 'production'].includes(appEnv)) throw new Error(`APP_ENV must be local, preprod or production, got "${appEnv}"`);
  const production = appEnv === 'production';
  // Test knobs never apply in production.
  const knob = (name: string): string | undefined => (production ? undefined : env[name]);
  const secretKey = loadSecretKey(env, appEnv);
  const mailFrom = env.MAIL_FROM || 'Service postal <no-reply@localhost>';
  const partnerTimeoutMs = parseDuration(env.PARTNER_TIMEOUT || '5s');
  const stripe = stripeConfig(env, appEnv, secretKey);
  return {
    appEnv,
    port: positiveInt(env.PORT, 'PORT', 3000),
    metricsPort: env.METRICS_PORT ? positiveInt(env.METRICS_PORT, 'METRICS_PORT', 0) : undefined,
    healthPort: env.HEALTH_PORT ? positiveInt(env.HEALTH_PORT, 'HEALTH_PORT', 0) : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    documentStore: documentStoreConfig(env),
    database: {
      poolMax: positiveInt(env.DB_POOL_MAX, 'DB_POOL_MAX', 10) || 10,
      migrationLockTimeoutMs: durationSetting(env, 'MIGRATION_LOCK_TIMEOUT', '5s'),
      migrationStatementTimeoutMs: durationSetting(env, 'MIGRATION_STATEMENT_TIMEOUT', '30m'),
    },
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalTls: temporalTlsConfig(env),
    temporalApiKey: env.TEMPORAL_API_KEY || undefined,
    // Registering needs the operator service, which Temporal Cloud refuses: by default only the dev server started here.
    temporalRegisterSearchAttributes: switchSetting(env, 'TEMPORAL_REGISTER_SEARCH_ATTRIBUTES', !env.TEMPORAL_ADDRESS),
    workerRoles: workerRoles(env.WORKER_ROLES),
    migrateOnStart: migrateOnStart(env.MIGRATE_ON_START, appEnv),
    shutdownGraceMs: durationSetting(env, 'SHUTDOWN_GRACE', appEnv === 'local' ? '0' : '20s'),
    taskQueue: env.TEMPORAL_TASK_QUEUE || 'postal-api',
    secretKey,
    rateLimitPerMinute: positiveInt(env.RATE_LIMIT_PER_MINUTE, 'RATE_LIMIT_PER_MINUTE', 120),
    sandboxDailyQuota: positiveInt(env.SANDBOX_DAILY_QUOTA, 'SANDBOX_DAILY_QUOTA', 1000),
    webhookRetryDelaysMs: (knob('WEBHOOK_RETRY_DELAYS') || DEFAULT_RETRY_DELAYS).split(',').map(parseDuration),
    // Private targets are for local runs and tests only, never preprod or production.
    webhookAllowPrivate: appEnv === 'local' && env.WEBHOOK_ALLOW_PRIVATE === '1',
    operatorStepDelayMs: parseDuration(knob('OPERATOR_STEP_DELAY') || '30s'),
    operatorFailFirstFilings: positiveInt(knob('OPERATOR_FAIL_FIRST_FILINGS'), 'OPERATOR_FAIL_FIRST_FILINGS', 0),
    operatorPollMs: operatorPollMs(env.OPERATOR_POLL_INTERVAL, production ? 60_000 : parseDuration(knob('OPERATOR_STEP_DELAY') || '30s')),
    testMailingIdleLimitMs: parseDuration(knob('TEST_MAILING_IDLE_LIMIT') || '30d'),
    idempotencyLeaseMs: durationSetting(env, 'IDEMPOTENCY_LEASE', '5m'),
    trackingSilenceLimitMs: parseDuration(knob('OPERATOR_SILENCE_LIMIT') || '30d'),
    accountClosingGraceMs: parseDuration(knob('ACCOUNT_CLOSING_GRACE') || '30d'),
    workerActivitySlots: positiveInt(env.WORKER_ACTIVITY_SLOTS, 'WORKER_ACTIVITY_SLOTS', 100) || 100,
    workerCachedWorkflows: positiveInt(env.WORKER_CACHED_WORKFLOWS, 'WORKER_CACHED_WORKFLOWS', 500) || 500,
    failedAuthPerMinute: positiveInt(env.FAILED_AUTH_PER_MINUTE, 'FAILED_AUTH_PER_MINUTE', 30) || 30,
    trustedProxyHops: trustedProxyHops(env),
    stripe,
    seller: sellerConfig(env, appEnv, stripe),
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      from: mailFrom,
      outboxDir: join(dataDir(env), 'outbox'),
    },
    dashboard: {
      publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
      sessionTtlMs: parseDuration(env.DASHBOARD_SESSION_TTL || '12h'),
    },
    logLevel: logLevel(env),
    temporalLogLevel: temporalLogLevel(env.TEMPORAL_LOG_LEVEL),
    temporalCliPath: env.TEMPORAL_CLI_PATH || undefined,
    pdf: { executablePath: env.PUPPETEER_EXECUTABLE_PATH || undefined, pages: positiveInt(env.PDF_PAGES, 'PDF_PAGES', 4) || 4 },
    postalOperator: postalOperatorConfig(env, mailFrom, partnerTimeoutMs),
    lreProvider: lreProviderConfig(env),
    partners: {
      geocodingBaseUrl: env.GEOCODING_BASE_URL || 'https://data.geopf.fr/geocodage',
      timeoutMs: partnerTimeoutMs,
      geocodingPerSecond: positiveInt(env.GEOCODING_RATE_PER_SECOND, 'GEOCODING_RATE_PER_SECOND', 40),
      companiesBaseUrl: env.COMPANIES_BASE_URL || 'https://recherche-entreprises.api.gouv.fr',
      // The company directory allows 7 requests per second.
      companiesPerSecond: positiveInt(env.COMPANIES_RATE_PER_SECOND, 'COMPANIES_RATE_PER_SECOND', 7),
      routingBaseUrl: env.ROUTING_BASE_URL || 'https://router.project-osrm.org',
      // The public OSRM server asks for at most one request per second.
      routingPerSecond: positiveInt(env.ROUTING_RATE_PER_SECOND, 'ROUTING_RATE_PER_SECOND', 1),
      fuelBaseUrl: env.FUEL_BASE_URL || 'https://data.economie.gouv.fr',
      fuelPerSecond: positiveInt(env.FUEL_RATE_PER_SECOND, 'FUEL_RATE_PER_SECOND', 5),
      // Each partner's circuit breaker (domain/lookups/breaker.ts): failures in a row that open it, and how long.
      breaker: {
        failures: positiveInt(env.PARTNER_BREAKER_FAILURES, 'PARTNER_BREAKER_FAILURES', 5) || 5,
        coolDownMs: durationSetting(env, 'PARTNER_BREAKER_COOL_DOWN', '30s'),
      },
    },
    llm: {
      baseUrl: env.LLM_BASE_URL || 'https://api.mistral.ai/v1',
      apiKey: env.LLM_API_KEY || undefined,
      model: env.LLM_MODEL || 'mistral-small-latest',
      timeoutMs: parseDuration(env.LLM_TIMEOUT || '30s'),
      perSecond: positiveInt(env.LLM_RATE_PER_SECOND, 'LLM_RATE_PER_SECOND', 5),
    },
    embeddings: {
      baseUrl: env.EMBEDDINGS_BASE_URL || undefined,
      apiKey: env.EMBEDDINGS_API_KEY || undefined,
      model: env.EMBEDDINGS_MODEL || 'text-embedding-3-small',
    },
  };
}

export type DocumentStoreConfig =
  | { kind: 'postgres' }
  | {
      kind: 's3';
      /** S3_ENDPOINT: a self-hosted store's URL; undefined: AWS's own endpoint for S3_REGION. */
      endpoint: string | undefined;
      bucket: string;
      region: string;
      /** S3_ACCESS_KEY_ID + S3_SECRET_ACCESS_KEY; undefined: the SDK's default chain (an IAM role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      /** S3_FORCE_PATH_STYLE=1: `endpoint/bucket/key` rather than `bucket.endpoint/key` (most self-hosted stores). */
      forcePathStyle: boolean;
    };

const S3_SETTINGS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

function documentStoreConfig(env: NodeJS.ProcessEnv): DocumentStoreConfig {
  const kind = env.DOCUMENT_STORE || 'postgres';
  if (kind === 'postgres') {
    const stray = S3_SETTINGS.filter((name) => env[name]);
    if (stray.length) throw new Error(`${stray.join(', ')} set without DOCUMENT_STORE=s3: set DOCUMENT_STORE=s3 or unset them`);
    return { kind };
  }
  if (kind !== 's3') throw new Error(`DOCUMENT_STORE must be postgres or s3, got "${kind}"`);
  if (!env.S3_BUCKET) throw new Error('DOCUMENT_STORE=s3 needs S3_BUCKET (missing)');
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY)
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither (neither: the SDK finds its own credentials)');
  return {
    kind,
    endpoint,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    credentials: env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY! } : undefined,
    forcePathStyle: switchSetting(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

/**
 * The settings a deployed API or worker process (dist/server/main.js, dist/worker/main.js) cannot
 * start without, beyond what loadConfig already refuses: it starts no local component, so the
 * database and Temporal must be given. Throws one line naming each missing setting.
 */
export function requireDeployedSettings(config: Config, role: 'API' | 'worker'): { databaseUrl: string; temporalAddress: string } {
  const missing = [!config.databaseUrl && 'DATABASE_URL', !config.temporalAddress && 'TEMPORAL_ADDRESS'].filter(Boolean);
  if (missing.length) throw new Error(`the ${role} process needs ${missing.join(' and ')} (it starts no local PostgreSQL or Temporal; npm start does)`);
  return { databaseUrl: config.databaseUrl!, temporalAddress: config.temporalAddress! };
}
