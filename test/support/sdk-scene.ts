import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { createAccount, type TestAccount } from './api.js';
import { stack } from './stack.js';
import { WebhookReceiver, type ReceivedWebhook } from './webhook-receiver.js';
import { FaultProxy } from './fault-proxy.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { projectRoot } from '../../lib/paths.js';

/** What an SDK test works with: an account with a test webhook endpoint, its receiver and secret, and the proxy the SDK is pointed at. */
export interface SdkScene {
  account: TestAccount;
  receiver: WebhookReceiver;
  secret: string;
  proxy: FaultProxy;
  stop(): Promise<void>;
}

export async function startSdkScene(): Promise<SdkScene> {
  const account = await createAccount({ balanceCents: 10_000 });
  const receiver = await new WebhookReceiver().start();
  const { secret } = await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env: 'test', events: [] });
  const proxy = await new FaultProxy(stack().api.url).start();
  return {
    account,
    receiver,
    secret,
    proxy,
    stop: async () => {
      await proxy.stop();
      await receiver.stop();
    },
  };
}

/** The mailing's webhooks up to `posted` (created, printed, posted), once all arrived. */
export async function webhooksUpToPosted(receiver: WebhookReceiver, mailingId: string): Promise<ReceivedWebhook[]> {
  const types = ['mailing.created', 'mailing.printed', 'mailing.posted'];
  const ofMailing = (received: ReceivedWebhook[]) => received.filter((r) => r.body.data?.mailing?.id === mailingId && types.includes(r.body.type));
  return ofMailing(await receiver.until((received) => types.every((type) => ofMailing(received).some((r) => r.body.type === type))));
}

/** The POST /v1/mailings the proxy saw: the injected 503 then the retry, under one Idempotency-Key, and one mailing in the database. */
export async function expectOneMailingThroughTheInjected503(scene: SdkScene): Promise<void> {
  const posts = scene.proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/mailings');
  expect(posts.map((p) => [p.status, p.injected])).to.deep.equal([
    [503, true],
    [201, false],
  ]);
  const keys = posts.map((p) => p.headers['idempotency-key']);
  expect(keys[0])
    .to.be.a('string')
    .and.match(/^[0-9a-f-]{36}$/);
  expect(keys[1]).to.equal(keys[0]);
  const [{ count }] = await stack().db('shipments').where({ account_id: scene.account.id }).count<{ count: string }[]>('* as count');
  expect(Number(count)).to.equal(1);
}

/** Arms the proxy: the next POST /v1/mailings is refused once with 503 and `Retry-After: 1`. */
export function injectOne503OnCreate(proxy: FaultProxy): void {
  proxy.failures.push({ method: 'POST', path: /^\/v1\/mailings$/, retryAfterSeconds: 1 });
}

/**
 * Arms the proxy with each other kind of retried failure before the next POST /v1/mailings passes:
 * a dropped connection, 429 with `Retry-After: 0`, 409 `idempotency_in_progress` without it.
 */
export function injectEveryRetriedFailureOnCreate(proxy: FaultProxy): void {
  const path = /^\/v1\/mailings$/;
  proxy.failures.push(
    { method: 'POST', path, drop: true },
    { method: 'POST', path, status: 429, code: 'rate_limited', retryAfterSeconds: 0 },
    { method: 'POST', path, status: 409, code: 'idempotency_in_progress' },
  );
}

/** The POSTs of the last create: the three injected failures, then 201, all under one Idempotency-Key. */
export function expectEveryRetriedFailureThenOneKey(proxy: FaultProxy): void {
  const posts = proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/mailings');
  expect(posts.map((p) => p.status)).to.deep.equal([0, 429, 409, 201]);
  expect(new Set(posts.map((p) => p.headers['idempotency-key'])).size).to.equal(1);
}

/** A 409 `conflict` (cancelling a posted mailing) is final: one attempt. */
export function expectOneCancelAttempt(proxy: FaultProxy): void {
  expect(proxy.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')).map((r) => r.status)).to.deep.equal([409]);
}

/** Makes the proxy answer GET /v1/mailings/{id} with a status this document does not know. */
export const UNKNOWN_STATUS = 'held_at_customs';
export function answerAnUnknownStatus(proxy: FaultProxy): void {
  proxy.rewrite = (method, path, body) => (method === 'GET' && /^\/v1\/mailings\/[0-9a-f-]{36}$/.test(path) ? { ...body, status: UNKNOWN_STATUS } : body);
}

/** What the SDK's build is made from: its sources and its tsconfig, hashed. */
function sdkSourceHash(): string {
  const root = join(projectRoot, 'sdk', 'typescript');
  const files = [
    join(root, 'tsconfig.json'),
    ...readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort(),
  ];
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
}

/**
 * Builds sdk/typescript to its own dist with the repository's TypeScript, once for its sources:
 * test files running in parallel each ask for it, and a build writing the dist while another
 * file imports it breaks that import. A lock folder makes one build at a time, and a build whose
 * sources have not changed since the last is skipped.
 */
export async function buildTypeScriptSdk(): Promise<void> {
  const dist = join(projectRoot, 'sdk', 'typescript', 'dist');
  const lock = join(projectRoot, 'sdk', 'typescript', '.build-lock');
  // Beside the dist, not in it: `npm pack` ships the dist.
  const marker = join(projectRoot, 'sdk', 'typescript', '.build-source-hash');
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than a build can take is a crashed run's: taken over.
      if (waited > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    const hash = sdkSourceHash();
    if (existsSync(join(dist, 'index.js')) && existsSync(marker) && readFileSync(marker, 'utf8') === hash) return;
    const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', join(projectRoot, 'sdk', 'typescript', 'tsconfig.json')], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`sdk/typescript does not build:\n${result.stdout}${result.stderr}`);
    writeFileSync(marker, hash);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
