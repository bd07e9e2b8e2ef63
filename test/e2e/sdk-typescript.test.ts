import { expect } from 'chai';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import {
  answerAnUnknownStatus,
  buildTypeScriptSdk,
  expectEveryRetriedFailureThenOneKey,
  expectOneCancelAttempt,
  expectOneMailingThroughTheInjected503,
  injectEveryRetriedFailureOnCreate,
  injectOne503OnCreate,
  startSdkScene,
  UNKNOWN_STATUS,
  webhooksUpToPosted,
  type SdkScene,
} from '../support/sdk-scene.js';
import { projectRoot } from '../../lib/paths.js';

describe('TypeScript SDK (sdk/typescript) against a running stack', function () {
  this.timeout(120_000);
  // The built package, loaded as a user would; typed loosely: the root build leaves sdk/ out.
  let sdk: any;
  let scene: SdkScene;
  let client: any;

  before(async () => {
    buildTypeScriptSdk();
    sdk = await import(pathToFileURL(join(projectRoot, 'sdk', 'typescript', 'dist', 'index.js')).href);
  });
  beforeEach(async () => {
    scene = await startSdkScene();
    client = sdk.createClient({ apiKey: scene.account.testKey, baseUrl: scene.proxy.url, baseDelayMs: 50 });
  });
  afterEach(() => scene.stop());

  it('creates a test mailing through an injected 503 (one Idempotency-Key, one mailing), advances it and verifies its webhooks', async () => {
    injectOne503OnCreate(scene.proxy);
    const { data: created, response } = await sdk.createMailing({ client, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
    expect(response.status).to.equal(201);
    expect(created).to.include({ status: 'paid', test: true });
    await expectOneMailingThroughTheInjected503(scene);

    const { data: posted } = await sdk.advanceTestMailing({ client, path: { id: created.id }, body: { step: 2 } });
    expect(posted).to.include({ id: created.id, status: 'posted', step: 2 });
    const tooLate = await sdk.cancelMailing({ client, path: { id: created.id } }).catch((error: unknown) => error);
    expect(tooLate).to.be.instanceOf(sdk.ApiError).and.include({ status: 409, code: 'conflict' });
    expectOneCancelAttempt(scene.proxy);

    const webhooks = await webhooksUpToPosted(scene.receiver, created.id);
    const secrets = ['whsec_rotatedAwayLongAgo', scene.secret];
    for (const webhook of webhooks) {
      const signature = webhook.headers['service-signature'];
      expect(sdk.verifyWebhookSignature({ rawBody: webhook.raw, signature, secrets }), webhook.body.type).to.equal(true);
      expect(sdk.verifyWebhookSignature({ rawBody: webhook.raw, signature, secrets: 'whsec_someoneElse' })).to.equal(false);
      expect(sdk.verifyWebhookSignature({ rawBody: webhook.raw + ' ', signature, secrets })).to.equal(false);
      const t = Number(/t=(\d+)/.exec(signature!)![1]);
      expect(sdk.verifyWebhookSignature({ rawBody: webhook.raw, signature, secrets, now: (t + 301) * 1000 }), 'older than 5 minutes').to.equal(false);
      expect(sdk.verifyWebhookSignature({ rawBody: webhook.raw, signature, secrets, now: (t + 299) * 1000 })).to.equal(true);
      expect(sdk.parseWebhook({ rawBody: Buffer.from(webhook.raw), signature, secrets }).data.mailing.id).to.equal(created.id);
      expect(() => sdk.parseWebhook({ rawBody: webhook.raw, signature: 't=1,v1=00', secrets })).to.throw(sdk.WebhookSignatureError);
    }
  });

  it('retries a dropped connection, a 429 and a 409 idempotency_in_progress under one Idempotency-Key', async () => {
    injectEveryRetriedFailureOnCreate(scene.proxy);
    const { data: created } = await sdk.createMailing({ client, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
    expect(created.status).to.equal('paid');
    expectEveryRetriedFailureThenOneKey(scene.proxy);
  });

  it('pages through a list with the iterator, passing each nextCursor on', async () => {
    const references = ['ts-page-1', 'ts-page-2', 'ts-page-3', 'ts-page-4', 'ts-page-5'];
    const ids: string[] = [];
    for (const reference of references)
      ids.push((await sdk.createMailing({ client, body: { mode: 'simple', letter: freeLetter, sender, recipient, reference } })).data.id);
    const listed: string[] = [];
    for await (const mailing of sdk.paginate((cursor: string | undefined) => sdk.listMailings({ client, query: { cursor, limit: 2 } })))
      listed.push(mailing.id);
    expect(listed).to.deep.equal([...ids].reverse());
    expect(scene.proxy.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/mailings?')).length, 'pages of 2, 2 and 1').to.equal(3);
    // Every POST got its own key.
    const keys = scene.proxy.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).to.equal(references.length);
  });

  it('throws typed errors with code, message, details and request id, and keeps a status added after its document', async () => {
    const missing = await sdk.getMailing({ client, path: { id: randomUUID() } }).catch((error: unknown) => error);
    expect(missing).to.be.instanceOf(sdk.ApiError);
    expect(missing).to.include({ status: 404, code: 'not_found' });
    expect(missing.message).to.be.a('string').with.length.above(0);
    expect(missing.requestId).to.be.a('string').with.length.above(0);

    const invalid = await sdk
      .createMailing({ client, body: { mode: 'simple', letter: freeLetter, sender: { ...sender, postcode: undefined }, recipient } })
      .catch((e: unknown) => e);
    expect(invalid).to.include({ status: 400, code: 'invalid_request' });
    expect(invalid.details)
      .to.be.an('array')
      .that.satisfies((details: any[]) => details.some((d) => d.field === 'sender.postcode'));

    const { data: created } = await sdk.createMailing({ client, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
    answerAnUnknownStatus(scene.proxy);
    const { data: fetched } = await sdk.getMailing({ client, path: { id: created.id } });
    expect(fetched.status).to.equal(UNKNOWN_STATUS);
  });

  it('gives up after its bounded attempts and says why', async () => {
    for (let i = 0; i < 5; i++) injectOne503OnCreate(scene.proxy);
    const limited = sdk.createClient({ apiKey: scene.account.testKey, baseUrl: scene.proxy.url, maxAttempts: 3, maxDelayMs: 10 });
    const error = await sdk.createMailing({ client: limited, body: { mode: 'simple', letter: freeLetter, sender, recipient } }).catch((e: unknown) => e);
    expect(error).to.include({ status: 503, code: 'service_unavailable', requestId: 'proxy-503' });
    const posts = scene.proxy.requests.filter((r) => r.method === 'POST');
    expect(posts).to.have.length(3);
    expect(new Set(posts.map((p) => p.headers['idempotency-key'])).size).to.equal(1);
  });
});
