import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IllegalStateError } from '@temporalio/common';
import proto from '@temporalio/proto';
import { WorkflowFailedError } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Activities } from '../../activities/index.js';
import { ProviderRejectedError, ProviderUnavailableError } from '../../activities/lre/electronic-provider.js';
import type { ElectronicSender, SenderAccount } from '../../domain/mailings/electronic.js';
import { senderIdentityRead, senderIdentityRequest } from '../../workflows/sender-identity.js';
import { startTimeSkipping, type TimeSkippingEnv } from '../support/time-skipping-server.js';

type SenderActivities = Pick<Activities, 'requestSenderIdentityCheck' | 'readSenderIdentity'>;

const SENDER: ElectronicSender = {
  accountId: '00000000-0000-4000-8000-000000000054',
  email: 'claire@martin.example',
  firstName: 'Claire',
  lastName: 'Martin',
  company: 'Gestion Martin SARL',
  siret: '55210055400013',
  address: { line: '12 rue de la Paix', postcode: '75002', city: 'Paris', country: 'FR' },
};

/**
 * The sender identity's short workflows alone: the real bundle on the time-skipping server, the
 * provider's calls as doubles that throw the provider layer's own errors (their names are the
 * failures' types the workflow reads).
 */
describe('the sender identity workflows alone (provider doubles, time-skipping server)', function () {
  this.timeout(60_000);
  let env: TimeSkippingEnv;
  let connection: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;
  /** What the provider double does on each call (from the first); past the end, the last. */
  let script: ('unavailable' | 'unknown' | 'rejected' | SenderAccount)[] = [];
  let calls = 0;

  const answer = async (): Promise<SenderAccount> => {
    const next = script[Math.min(calls++, script.length - 1)]!;
    if (next === 'unavailable') throw new ProviderUnavailableError('AR24 GET /user/: maintenance');
    if (next === 'unknown') throw new Error('AR24 POST /user/identity: HTTP 502');
    if (next === 'rejected') throw new ProviderRejectedError('AR24 POST /user/: missing_company_siret: company_siret is required');
    return next;
  };
  const activities: SenderActivities = { requestSenderIdentityCheck: answer, readSenderIdentity: answer };

  before(async function () {
    this.timeout(180_000);
    try {
      Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });
    } catch (error) {
      if (!(error instanceof IllegalStateError)) throw error;
    }
    const workflowsPath = fileURLToPath(new URL('../../workflows/index.js', import.meta.url));
    const [started, bundle] = await Promise.all([startTimeSkipping(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    env = started;
    connection = await NativeConnection.connect({ address: env.address });
    worker = await Worker.create({ connection, namespace: env.namespace, taskQueue: 'sender-identity-tests', workflowBundle: bundle, activities });
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await connection?.close();
    await env?.stop();
  });
  beforeEach(() => {
    calls = 0;
  });

  const run = (workflow: typeof senderIdentityRequest, id: string) =>
    env.skipping(() => env.client.workflow.execute(workflow, { taskQueue: 'sender-identity-tests', workflowId: id, args: [SENDER] }));

  it('asks again after the maintenance answer and a 5xx, then answers the account', async () => {
    script = ['unavailable', 'unknown', { providerUserId: '1042', identity: 'requested' }];
    expect(await run(senderIdentityRequest, 'request-retried')).to.deep.equal({ kind: 'done', account: { providerUserId: '1042', identity: 'requested' } });
    expect(calls).to.equal(3);
  });

  it('answers a refusal for good as a refusal, with its reason, asked once', async () => {
    script = ['rejected'];
    const refused = await run(senderIdentityRequest, 'request-refused');
    expect(refused).to.deep.equal({ kind: 'refused', reason: 'AR24 POST /user/: missing_company_siret: company_siret is required' });
    expect(calls).to.equal(1);
    // Recorded for the replay test when asked (test/fixtures/histories/README.md).
    if (process.env.RECORD_HISTORIES) {
      mkdirSync(process.env.RECORD_HISTORIES, { recursive: true });
      const history = await env.client.workflow.getHandle('request-refused').fetchHistory();
      writeFileSync(join(process.env.RECORD_HISTORIES, 'senderIdentityRequest-refused.binpb'), proto.temporal.api.history.v1.History.encode(history).finish());
    }
  });

  it('fails after four attempts of a provider that cannot be reached (the page says to retry)', async () => {
    script = ['unavailable'];
    let failure: unknown;
    try {
      await run(senderIdentityRead, 'read-unreachable');
    } catch (error) {
      failure = error;
    }
    expect(failure).to.be.instanceOf(WorkflowFailedError);
    expect(calls).to.equal(4);
  });

  it('reads the sender as the provider sees it', async () => {
    script = [{ providerUserId: '1042', identity: 'verified' }];
    expect(await run(senderIdentityRead, 'read-verified')).to.deep.equal({ kind: 'done', account: { providerUserId: '1042', identity: 'verified' } });
  });
});
