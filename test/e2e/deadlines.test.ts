import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { balanceOf, call, createAccount, eventually, IsolatedServices } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { startTimeSkipping, startTimeSkippingServices, type TimeSkippingEnv, type TimeSkippingServices } from '../support/time-skipping.js';
import { mailingWorkflowId } from '../../workflows/contract.js';

const DAY = 24 * 3600_000;

/** The idle limit of test mailings, as in production. */
const LIMIT = 30 * DAY;

/**
 * The deadlines that keep executions from staying open for ever (issue 13, item 3), in workflow
 * time on Temporal's time-skipping test server: a test mailing nobody advances, a letter the
 * postal operator never reports on.
 */
describe('deadlines of mailings, on a time-skipping Temporal test server', function () {
  this.timeout(180_000);
  let env: TimeSkippingEnv;
  let services: TimeSkippingServices;

  before(async () => {
    env = await startTimeSkipping();
    services = await startTimeSkippingServices(env);
  });
  after(async () => {
    await services?.stop();
    await env?.stop();
  });

  const mail = (key: string, mode: string) =>
    call('POST', '/v1/mailings', { key, body: { mode, letter: freeLetter, sender, recipient }, baseUrl: services.api.url });
  const eventTypes = async (id: string) =>
    (await services.db('webhook_events').where({ shipment_id: id }).orderBy('created_at').select('type')).map((e) => e.type);

  it('a test mailing not advanced for the idle limit ends in error; a later advance gets 409', async () => {
    const account = await createAccount();
    const created = await mail(account.testKey, 'ar');
    expect(created.status).to.equal(201);
    const id = created.body.id as string;
    const moved = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: { step: 2 }, baseUrl: services.api.url });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const handle = env.client.workflow.getHandle(mailingWorkflowId(id));
    const described = await handle.describe();
    const startedAt = (await env.now()).getTime();
    const result = await env.skipping(() => handle.result());
    expect(result).to.deep.include({ status: 'error', step: 5 });
    // The limit after the last advance, not before.
    expect((await env.now()).getTime() - startedAt).to.be.at.least(LIMIT - 60_000);
    expect(described.status.name).to.equal('RUNNING');
    expect(await services.db('shipments').where({ id }).first('status', 'step')).to.deep.equal({ status: 'error', step: 5 });
    expect((await eventTypes(id)).at(-1)).to.equal('mailing.error');
    const late = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: {}, baseUrl: services.api.url });
    expect(late.status).to.equal(409);
    expect(late.body.error.code).to.equal('conflict');
  });
});

/**
 * The same deadlines on the real Temporal dev server, shortened by their knobs: the tracking
 * silence races a timer with activity retries on another task queue, which the time-skipping test
 * server does not order like the real one (it may jump to the timer before the task is taken).
 */
describe('deadlines of mailings, shortened, on the Temporal dev server', function () {
  this.timeout(90_000);
  const services = new IsolatedServices({
    TEMPORAL_TASK_QUEUE: 'deadlines',
    OPERATOR_FAIL_FIRST_FILINGS: '0',
    // Files at once, then says nothing for a thousand days; asked every 200 ms.
    OPERATOR_STEP_DELAY: '1000d',
    OPERATOR_POLL_INTERVAL: '200ms',
    OPERATOR_SILENCE_LIMIT: '4s',
    TEST_MAILING_IDLE_LIMIT: '4s',
    LOG_LEVEL: 'warn',
  });
  before(async () => {
    await services.start();
    services.startWorker();
  });
  after(() => services.stop());

  const mailing = (id: string) => stack().db('shipments').where({ id }).first('status', 'step');
  const reaches = (id: string, status: string) =>
    eventually(
      () => mailing(id),
      (s) => s?.status === status,
      20_000,
      100,
    );

  it('a filed letter the operator says nothing more about ends in error after the silence limit, not refunded (it was handed over)', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const created = await services.mail(account.liveKey, 'registered');
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.id as string;
    const paid = await balanceOf(account.id);
    expect(await reaches(id, 'printed')).to.deep.equal({ status: 'printed', step: 1 });
    const printedAt = Date.now();
    expect(await reaches(id, 'error')).to.deep.equal({ status: 'error', step: 4 });
    expect(Date.now() - printedAt).to.be.at.least(3_000);
    const types = (await stack().db('webhook_events').where({ shipment_id: id }).orderBy('created_at').select('type')).map((e) => e.type);
    expect(types).to.deep.equal(['mailing.created', 'mailing.printed', 'mailing.error']);
    expect(await balanceOf(account.id)).to.equal(paid);
  });

  it('a test mailing advanced within the idle limit goes on: the limit counts from the last advance', async () => {
    const account = await createAccount();
    const id = (await services.mail(account.testKey, 'registered')).body.id as string;
    for (let i = 0; i < 3; i++) {
      await sleep(2_500);
      const moved = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: {}, baseUrl: services.api.url });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    }
    // 7.5 s in all, never 4 s without an advance: still going; then left alone, it ends.
    expect(await mailing(id)).to.deep.equal({ status: 'in_transit', step: 3 });
    expect(await reaches(id, 'error')).to.deep.equal({ status: 'error', step: 4 });
  });
});
