import { expect } from 'chai';
import { call, createAccount, eventually, IsolatedServices } from '../support/api.js';
import { stack } from '../support/stack.js';
import { mailingWorkflowId } from '../../workflows/contract.js';

/** More letters in transit than the worker has activity slots. */
const SLOTS = 2;
const LETTERS = 5;

describe('letters in transit hold no worker slot', function () {
  this.timeout(90_000);
  const services = new IsolatedServices({
    TEMPORAL_TASK_QUEUE: 'tracking-slots',
    WORKER_ACTIVITY_SLOTS: String(SLOTS),
    // The operator says nothing for an hour: every letter waits in transit meanwhile.
    OPERATOR_STEP_DELAY: '1h',
    OPERATOR_POLL_INTERVAL: '200ms',
    OPERATOR_FAIL_FIRST_FILINGS: '0',
    LOG_LEVEL: 'warn',
  });
  before(async () => {
    await services.start();
    services.startWorker();
  });
  after(() => services.stop());

  it(`files ${LETTERS} letters one after another with ${SLOTS} slots, while those before wait for the operator`, async () => {
    const account = await createAccount({ balanceCents: 100_000 });
    const ids: string[] = [];
    const printed = async (): Promise<number> => Number((await stack().db('shipments').whereIn('id', ids).andWhere('step', '>=', 1).count({ n: '*' }))[0]!.n);
    for (let i = 0; i < LETTERS; i++) {
      const res = await services.mail(account.liveKey, 'registered');
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      ids.push(res.body.id);
      // Each one is filed although every letter before it is still in transit.
      expect(await eventually(printed, (n) => n === ids.length, 20_000, 100)).to.equal(ids.length);
    }
    const mailing = await call('GET', `/v1/mailings/${ids[0]}`, { key: account.liveKey, baseUrl: services.api.url });
    expect(mailing.body.status).to.equal('printed');
    // Meanwhile the operator is asked again and again, one short activity attempt at a time, on
    // the tracking task queue: what the Temporal UI shows among the pending activities.
    const described = await stack().temporal.client.workflow.getHandle(mailingWorkflowId(ids[0]!)).describe();
    const pending = described.raw.pendingActivities ?? [];
    expect(pending.map((a) => a.activityType?.name)).to.deep.equal(['checkOperatorStatus']);
    expect(pending[0]!.attempt).to.be.above(1);
  });
});
