import { expect } from 'chai';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import {
  answerAnUnknownStatus,
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
import { pythonSdkTools } from '../../scripts/local/python-sdk-venv.js';
import { outputOf } from '../support/samples.js';

describe('Python SDK (sdk/python) against a running stack', function () {
  this.timeout(120_000);
  let python: string;
  let scene: SdkScene;

  before(function () {
    // The first run on a machine installs the pinned venv from PyPI.
    this.timeout(600_000);
    python = pythonSdkTools((line) => process.stderr.write(line + '\n')).python;
  });
  beforeEach(async () => (scene = await startSdkScene()));
  afterEach(() => scene.stop());

  /** One step of test/support/sdk_python_scenario.py, its input on stdin, its JSON answer on stdout. */
  async function step(name: string, input: unknown): Promise<any> {
    const out = await outputOf(python, [join(projectRoot, 'test', 'support', 'sdk_python_scenario.py'), name], {
      env: {
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONPATH: join(projectRoot, 'sdk', 'python'),
        SDK_BASE_URL: scene.proxy.url,
        SDK_API_KEY: scene.account.testKey,
      },
      stdin: JSON.stringify(input),
      timeoutMs: 120_000,
    });
    return JSON.parse(out);
  }
  const body = (extra: Record<string, unknown> = {}) => ({ mode: 'simple', letter: freeLetter, sender, recipient, ...extra });

  it('creates a test mailing through an injected 503 (one Idempotency-Key, one mailing), advances it and verifies its webhooks', async () => {
    injectOne503OnCreate(scene.proxy);
    const created = await step('create', { body: body() });
    expect(created).to.include({ status: 'paid', test: true });
    await expectOneMailingThroughTheInjected503(scene);

    const posted = await step('advance', { id: created.id, step: 2 });
    expect(posted).to.include({ id: created.id, status: 'posted', step: 2 });
    expect(await step('cancel', { id: created.id })).to.include({ error: 'ApiError', status: 409, code: 'conflict' });
    expectOneCancelAttempt(scene.proxy);

    const webhooks = await webhooksUpToPosted(scene.receiver, created.id);
    const checks = await step('verify', {
      secrets: ['whsec_rotatedAwayLongAgo', scene.secret],
      webhooks: webhooks.map((w) => ({ raw: w.raw, signature: w.headers['service-signature'] })),
    });
    expect(checks).to.have.length(3);
    for (const [i, check] of checks.entries()) {
      expect(check, webhooks[i]!.body.type).to.deep.equal({
        valid: true,
        otherSecret: false,
        tampered: false,
        tooOld: false,
        justInTime: true,
        parsed: { type: webhooks[i]!.body.type, mailingId: created.id },
      });
    }
  });

  it('retries a dropped connection, a 429 and a 409 idempotency_in_progress under one Idempotency-Key (sync and asyncio)', async () => {
    injectEveryRetriedFailureOnCreate(scene.proxy);
    expect(await step('create', { body: body() })).to.include({ status: 'paid' });
    expectEveryRetriedFailureThenOneKey(scene.proxy);
    scene.proxy.requests.length = 0;
    injectEveryRetriedFailureOnCreate(scene.proxy);
    expect(await step('create-async', { body: body() })).to.include({ status: 'paid' });
    expectEveryRetriedFailureThenOneKey(scene.proxy);
  });

  it('pages through a list with the iterator, passing each nextCursor on (sync and asyncio clients)', async () => {
    const ids: string[] = [];
    for (const reference of ['py-page-1', 'py-page-2', 'py-page-3']) ids.push((await step('create', { body: body({ reference }) })).id);
    for (const reference of ['py-page-4', 'py-page-5']) ids.push((await step('create-async', { body: body({ reference }) })).id);
    expect(await step('list', { limit: 2 })).to.deep.equal([...ids].reverse());
    expect(scene.proxy.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/mailings?')).length, 'pages of 2, 2 and 1').to.equal(3);
    const keys = scene.proxy.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size, 'each POST its own key').to.equal(5);
  });

  it('raises typed errors with code, message, details and request id, and keeps a status added after its document', async () => {
    const missing = await step('get', { id: randomUUID() });
    expect(missing).to.include({ error: 'ApiError', status: 404, code: 'not_found' });
    expect(missing.message).to.be.a('string').with.length.above(0);
    expect(missing.requestId).to.be.a('string').with.length.above(0);

    const invalid = await step('post-invalid', { body: body({ reference: 'x'.repeat(31) }) });
    expect(invalid).to.include({ status: 400, code: 'invalid_request' });
    expect(invalid.details.some((d: any) => d.field === 'reference')).to.equal(true);

    const created = await step('create', { body: body() });
    answerAnUnknownStatus(scene.proxy);
    expect(await step('get', { id: created.id })).to.deep.equal({ status: UNKNOWN_STATUS, statusType: 'str' });
  });

  it('gives up after its bounded attempts and says why', async () => {
    for (let i = 0; i < 5; i++) injectOne503OnCreate(scene.proxy);
    expect(await step('create-bounded', { body: body(), maxAttempts: 3 })).to.include({ status: 503, code: 'service_unavailable', requestId: 'proxy-503' });
    const posts = scene.proxy.requests.filter((r) => r.method === 'POST');
    expect(posts).to.have.length(3);
    expect(new Set(posts.map((p) => p.headers['idempotency-key'])).size).to.equal(1);
  });
});
