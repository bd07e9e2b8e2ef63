import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { ApplicationFailure, IllegalStateError } from '@temporalio/common';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Activities } from '../../activities/index.js';
import type { CompanyProfile } from '../../domain/lookups/results.js';
import { COMPANIES_QUEUE, productionCheckWorkflowId } from '../../workflows/contract.js';
import { productionAccessCheck } from '../../workflows/production-access.js';
import { startTimeSkipping, type TimeSkippingEnv } from '../support/time-skipping-server.js';

type CheckActivities = Pick<Activities, 'companyProfile' | 'completeProductionCheck'>;

const LA_POSTE = { siret: '35600000000048', company: { name: 'LA POSTE' } } as unknown as CompanyProfile;

/**
 * The later directory check of a production request alone: the real workflow on the time-skipping
 * server, the directory and the record as doubles. Days of retries are skipped.
 */
describe('the production access check alone (mocked activities, time-skipping server)', function () {
  this.timeout(60_000);
  let env: TimeSkippingEnv;
  let connection: NativeConnection;
  const workers: Worker[] = [];
  const running: Promise<void>[] = [];
  /** What the directory double answers on each call (from the first); past the end, the last. */
  let answers: ('down' | 'refused' | CompanyProfile | null)[] = [];
  let lookups = 0;
  let recorded: (CompanyProfile | null)[] = [];

  const activities: CheckActivities = {
    async companyProfile() {
      const answer = answers[Math.min(lookups++, answers.length - 1)];
      if (answer === 'down') throw ApplicationFailure.retryable('the directory answered 503', 'PartnerFailure');
      if (answer === 'refused') throw ApplicationFailure.nonRetryable('the directory refused the request', 'PartnerRefused');
      return answer ?? null;
    },
    async completeProductionCheck(_requestId: string, profile: CompanyProfile | null) {
      recorded.push(profile);
      return profile ? 'opened' : 'refused';
    },
  };

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
    for (const taskQueue of ['production-check-tests', COMPANIES_QUEUE]) {
      const worker = await Worker.create({ connection, namespace: env.namespace, taskQueue, workflowBundle: bundle, activities });
      workers.push(worker);
      running.push(worker.run());
    }
  });
  after(async () => {
    for (const worker of workers) worker.shutdown();
    await Promise.allSettled(running);
    await connection?.close();
    await env?.stop();
  });
  beforeEach(() => {
    lookups = 0;
    recorded = [];
  });

  const check = (requestId: string) =>
    env.skipping(() =>
      env.client.workflow.execute(productionAccessCheck, {
        taskQueue: 'production-check-tests',
        workflowId: productionCheckWorkflowId(requestId),
        args: [requestId, '35600000000048'],
      }),
    );

  it('asks the directory again until it answers, then records its verdict once', async () => {
    answers = ['down', 'down', 'down', LA_POSTE];
    expect(await check('r1')).to.equal('opened');
    expect(lookups).to.equal(4);
    expect(recorded).to.deep.equal([LA_POSTE]);
  });

  it('an unknown SIRET (null) is a verdict too, recorded at the first answer', async () => {
    answers = [null];
    expect(await check('r2')).to.equal('refused');
    expect(recorded).to.deep.equal([null]);
  });

  it('gives up after three days of a directory down, leaving the request to an operator (nothing recorded)', async () => {
    answers = ['down'];
    expect(await check('r3')).to.equal('unchecked');
    expect(recorded).to.deep.equal([]);
    // 5 s, 10 s, 20 s… then every 30 minutes for three days.
    expect(lookups).to.be.within(140, 160);
  });

  it('a request the directory refuses is not asked again', async () => {
    answers = ['refused'];
    expect(await check('r4')).to.equal('unchecked');
    expect(lookups).to.equal(1);
  });
});
