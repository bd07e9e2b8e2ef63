import { expect } from 'chai';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHmac, randomUUID } from 'node:crypto';
import { boxLetterValues, freeLetter, recipient, sender } from '../support/fixtures.js';
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
import { compileAgainstTheSdk, FIRST_DAY_PROGRAM, NO_CLIENT_PROGRAM } from '../support/sdk-typescript-programs.js';
import { projectRoot } from '../../lib/paths.js';

describe('TypeScript SDK (sdk/typescript) against a running stack', function () {
  this.timeout(120_000);
  // The built package, loaded as a user would; typed loosely: the root build leaves sdk/ out.
  let sdk: any;
  let scene: SdkScene;
  let client: any;

  before(async () => {
    await buildTypeScriptSdk();
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

  it('sends an object query parameter as its fields, as the document says (GET /v1/fuel/stations)', async () => {
    const { data } = await sdk.searchFuelStations({ client, query: { query: { lat: 45.758, lon: 4.835, sort: 'distance', limit: 3 } } });
    expect(data.stations.length).to.be.within(1, 3);
    const [sent] = scene.proxy.requests.filter((r) => r.path.startsWith('/v1/fuel/stations'));
    expect(sent!.path).to.equal('/v1/fuel/stations?lat=45.758&lon=4.835&sort=distance&limit=3');
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

  it("compiles the README's first program under tsc --strict (typed results, open enums, WebhookEvent narrowed) and refuses a call without a client", () => {
    const { status, diagnostics } = compileAgainstTheSdk({ 'first-day.ts': FIRST_DAY_PROGRAM, 'no-client.ts': NO_CLIENT_PROGRAM });
    const errors = diagnostics.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors, diagnostics).to.have.length(1);
    expect(errors[0]).to.match(/^no-client\.ts\(\d+,\d+\): error TS2345/);
    expect(diagnostics).to.include("Property 'client' is missing");
    expect(status).to.equal(2);
  });

  it('works through the bound client: create under our key, get, list by status, advance, cancel, render and verify webhooks', async () => {
    const svc = sdk.createClient({ apiKey: scene.account.testKey, baseUrl: scene.proxy.url, baseDelayMs: 50, webhookSecrets: ['whsec_old', scene.secret] });
    const body = { mode: 'simple', letter: freeLetter, sender, recipient };
    const key = randomUUID();
    const created = await svc.mailings.create(body, { idempotencyKey: key });
    expect(created).to.include({ status: 'paid', test: true });
    expect((await svc.mailings.create(body, { idempotencyKey: key })).id, 'the same key replays the first answer').to.equal(created.id);
    const keys = scene.proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/mailings').map((r) => r.headers['idempotency-key']);
    expect(keys).to.deep.equal([key, key]);
    expect(await svc.mailings.get(created.id)).to.include({ id: created.id, status: 'paid' });

    const stillPaid = [(await svc.mailings.create(body)).id, (await svc.mailings.create(body)).id];
    expect(await svc.mailings.advance(created.id, { step: 2 })).to.include({ id: created.id, status: 'posted' });
    const listed: string[] = [];
    for await (const mailing of svc.mailings.list({ status: 'paid', limit: 1 })) listed.push(mailing.id);
    expect(listed).to.deep.equal([...stillPaid].reverse());

    const tooLate = await svc.mailings.cancel(created.id).catch((error: unknown) => error);
    expect(tooLate).to.be.instanceOf(sdk.ApiError).and.include({ status: 409, code: 'conflict' });
    expect(await svc.mailings.cancel(stillPaid[0])).to.include({ id: stillPaid[0], status: 'canceled' });
    const missing = await svc.mailings.get(randomUUID()).catch((error: unknown) => error);
    expect(missing).to.be.instanceOf(sdk.ApiError).and.include({ status: 404, code: 'not_found' });

    const letter = await svc.letters.render('resiliation-box-internet', { provider: 'bouygues-telecom', fields: boxLetterValues });
    expect(letter.text).to.include('FB-0987654321');
    expect(letter.missingFields).to.deep.equal([]);

    for (const webhook of await webhooksUpToPosted(scene.receiver, created.id)) {
      const event = svc.webhooks.verify({ rawBody: webhook.raw, signature: webhook.headers['service-signature'] });
      expect(event.type).to.equal(webhook.body.type);
      expect(event.data.mailing.id).to.equal(created.id);
    }
  });

  it('verifies a webhook of a type added after the SDK as its unknown arm, and refuses a foreign signature', () => {
    const svc = sdk.createClient({ apiKey: scene.account.testKey, baseUrl: scene.proxy.url, webhookSecrets: scene.secret });
    const sent = { id: randomUUID(), type: 'mailing.held_at_customs', created: new Date().toISOString(), livemode: false, data: { customs: 'Roissy' } };
    const rawBody = JSON.stringify(sent);
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', scene.secret).update(`${t}.${rawBody}`).digest('hex')}`;
    expect(svc.webhooks.verify({ rawBody, signature })).to.deep.equal({ ...sent, type: 'unknown', receivedType: 'mailing.held_at_customs' });
    expect(() => svc.webhooks.verify({ rawBody, signature, secrets: 'whsec_someoneElse' })).to.throw(sdk.WebhookSignatureError);
  });
});
