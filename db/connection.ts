import type { ConnectionOptions } from 'node:tls';
import type pg from 'pg';
import { readPemFile } from '../lib/config.js';

/** Which part of the product a connection belongs to: PostgreSQL shows it in pg_stat_activity. */
export type DatabaseRole = 'api' | 'worker' | 'migrate' | 'tool' | 'listener';

/** The TLS modes of libpq that can be honoured without a fallback to plain text. */
const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
type SslMode = (typeof SSL_MODES)[number];

const CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** Settings a connection string may carry that are read here, not by the driver. */
const TLS_PARAMETERS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'ssl', 'uselibpqcompat'];

export interface ConnectionExtras {
  /** Sent as startup parameters: a migration gives up rather than queue every reader behind its lock. */
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
}

/**
 * The driver's settings for DATABASE_URL, with TLS read as libpq reads it (the managed providers
 * document their connection strings for libpq): `sslmode` and `sslrootcert`, `sslcert`, `sslkey` in
 * the URL, else PGSSLMODE, PGSSLROOTCERT, PGSSLCERT, PGSSLKEY.
 * - `disable` (or no mode at all): plain text.
 * - `require`: encrypted, the server's certificate unchecked, unless a CA file is given: then as `verify-ca`.
 * - `verify-ca`: the certificate must chain to the CA file (required: Node's trusted CAs would let
 *   anyone with a public certificate pass), any host name.
 * - `verify-full`: as `verify-ca`, and the certificate must name the host connected to.
 * `allow` and `prefer` are refused: they fall back to plain text, which node-postgres cannot do,
 * and reading them as `require` would fail against a server without TLS. node-postgres's own
 * reading differs (`require` checks everything against Node's CAs only), hence this one place.
 * The application name is the role's unless the URL or PGAPPNAME names one.
 */
export function postgresConnection(
  databaseUrl: string,
  role: DatabaseRole,
  extras: ConnectionExtras = {},
  env: NodeJS.ProcessEnv = process.env,
): pg.ClientConfig {
  // Checked before parsing: the parser's error would carry the URL, password included.
  if (!URL.canParse(databaseUrl)) throw new Error('DATABASE_URL is not a URL (postgres://user:password@host:5432/database)');
  const url = new URL(databaseUrl);
  const parameter = (name: string, envName: string): string | undefined => url.searchParams.get(name) ?? (env[envName] || undefined);
  const mode = sslMode(url.searchParams, env);
  const caFile = parameter('sslrootcert', 'PGSSLROOTCERT');
  const certFile = parameter('sslcert', 'PGSSLCERT');
  const keyFile = parameter('sslkey', 'PGSSLKEY');
  for (const name of TLS_PARAMETERS) url.searchParams.delete(name);
  return {
    connectionString: url.toString(),
    ssl: mode === 'disable' ? false : tlsOptions(mode, { caFile, certFile, keyFile }),
    application_name: env.PGAPPNAME || `svc-postal-${role}`,
    ...(extras.lockTimeoutMs === undefined ? {} : { lock_timeout: extras.lockTimeoutMs }),
    ...(extras.statementTimeoutMs === undefined ? {} : { statement_timeout: extras.statementTimeoutMs }),
  };
}

function sslMode(parameters: URLSearchParams, env: NodeJS.ProcessEnv): SslMode {
  const legacy = parameters.get('ssl');
  const mode =
    parameters.get('sslmode') ??
    // node-postgres's own switch, kept for URLs written for it: ssl=true checked everything.
    (legacy === 'true' || legacy === '1' ? 'verify-full' : legacy === 'false' || legacy === '0' ? 'disable' : undefined) ??
    (env.PGSSLMODE || 'disable');
  if (mode === 'no-verify') return 'require';
  if (!(SSL_MODES as readonly string[]).includes(mode))
    throw new Error(`sslmode=${mode} is not supported: use ${SSL_MODES.join(', ')} (allow and prefer fall back to plain text, which this driver cannot do)`);
  return mode as SslMode;
}

function tlsOptions(mode: Exclude<SslMode, 'disable'>, files: { caFile?: string; certFile?: string; keyFile?: string }): ConnectionOptions {
  const options: ConnectionOptions = {};
  if (mode === 'verify-ca' && !files.caFile) throw new Error('sslmode=verify-ca needs the CA file: sslrootcert in DATABASE_URL or PGSSLROOTCERT');
  if (files.caFile) options.ca = readPemFile(files.caFile, 'sslrootcert / PGSSLROOTCERT', CERTIFICATE, 'a CA certificate');
  if (files.certFile) options.cert = readPemFile(files.certFile, 'sslcert / PGSSLCERT', CERTIFICATE, 'a certificate');
  if (files.keyFile) options.key = readPemFile(files.keyFile, 'sslkey / PGSSLKEY', PRIVATE_KEY, 'a private key');
  // libpq: with a root certificate, require checks the chain as verify-ca does.
  const effective = mode === 'require' && files.caFile ? 'verify-ca' : mode;
  if (effective === 'require') options.rejectUnauthorized = false;
  // The chain is checked, the name is not: providers' certificates rarely name the IP address
  // a private network reaches them by.
  if (effective === 'verify-ca') options.checkServerIdentity = () => undefined;
  return options;
}
