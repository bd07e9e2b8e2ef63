import { expect } from 'chai';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { call, createAccount, eventually, type TestAccount, startedMailingWorkflow } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { startTimeSkipping, startTimeSkippingServices, type TimeSkippingEnv, type TimeSkippingServices } from '../support/time-skipping.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { pingEndpoint } from '../../domain/webhooks/events.js';
import { domainDeps } from '../../temporal/domain-deps.js';
import {
  ACCOUNT_ID,
  DELIVERY_STATUS,
  deliveryWorkflowId,
  WEBHOOK_ABANDONED,
  WEBHOOK_ENDPOINT_ID,
  WEBHOOK_EVENT_ID,
  WEBHOOK_EVENT_TYPE,
} from '../../workflows/contract.js';

const MINUTE = 60_000;
/** Filing attempts the simulated operator refuses, per mailing: about two hours of retries. */
const REFUSED_FILINGS = 20;

/**
 * The production schedules (webhook retries 1 min → 24 h, filing retries up to every 10 min), not
 * the suite's compressed ones, run by our real worker and API on Temporal's time-skipping test
 * server: days of workflow time in seconds. Times asserted are workflow times, never wall-clock
 * durations.
 */
describe('the real schedules, on a time-skipping Temporal test server', function () {
  this.timeout(180_000);
  let env: TimeSkippingEnv;
  let services: TimeSkippingServices;
  let receiver: WebhookReceiver;
  let account: TestAccount;

  before(async () => {
    env = await startTimeSkipping();
    // The simulated operator keeps the wall clock, which does not skip: once it takes a letter, it
    // reports the end of its path at once (step delay 0), so that workflow time alone is tested.
    services = await startTimeSkippingServices(env, { OPERATOR_FAIL_FIRST_FILINGS: String(REFUSED_FILINGS), OPERATOR_STEP_DELAY: '0' });
  });
  after(async () => {
    await services?.stop();
    await env?.stop();
  });
  beforeEach(async () => {
    account = await createAccount({ balanceCents: 10_000 });
    receiver = await new WebhookReceiver().start();
  });
  afterEach(async () => receiver.stop());

  const endpoint = (env: 'test' | 'live', events: string[]) =>
    createWebhookEndpoint(services.db, services.config, { accountId: account.id, url: receiver.url, env, events });
  const mail = (key: string, mode: string) =>
    call('POST', '/v1/mailings', { key, body: { mode, letter: freeLetter, sender, recipient }, baseUrl: services.api.url });

  /** The account's one delivery, once recorded. */
  async function theDelivery(): Promise<{ id: string }> {
    for (;;) {
      const row = await services.db('webhook_deliveries').where({ account_id: account.id }).first('id');
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Minutes of workflow time from the first attempt to each attempt, as recorded by the attempts. */
  async function attemptMinutes(deliveryId: string): Promise<number[]> {
    const row = await services.db('webhook_deliveries').where({ id: deliveryId }).first('attempted_at');
    const times = (row.attempted_at as Date[]).map((at) => at.getTime());
    return times.map((at) => Math.round((at - times[0]!) / MINUTE));
  }

  it('a delivery to a receiver that always fails is tried at 0, 1 min, 6 min, 36 min, 2 h 36, 8 h 36, 20 h 36 and 44 h 36, then abandoned as a failure', async () => {
    const { id: endpointId } = await endpoint('test', ['mailing.created']);
    receiver.respond = () => ({ status: 500 });
    const created = await mail(account.testKey, 'registered');
    expect(created.status).to.equal(201);
    const { id: deliveryId } = await theDelivery();
    // The first attempt is made at once by the mailing itself (time is not skipped yet); it failed,
    // so the delivery's retry workflow starts.
    await receiver.until((received) => received.length === 1);
    const delivery = env.client.workflow.getHandle(deliveryWorkflowId(deliveryId));
    for (
      let tries = 0;
      !(await delivery.describe().then(
        () => true,
        () => false,
      ));
      tries++
    ) {
      if (tries > 100) expect.fail('the retry workflow of the failed delivery did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const failure = await env
      .skipping(() => delivery.result())
      .then(
        () => expect.fail('an abandoned delivery must not end as a success'),
        (error: unknown) => error,
      );
    expect(failure).to.be.instanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).to.be.instanceOf(ApplicationFailure);
    expect(((failure as WorkflowFailedError).cause as ApplicationFailure).type).to.equal(WEBHOOK_ABANDONED);
    expect((failure as WorkflowFailedError).cause!.message).to.equal('Abandoned after 8 attempts; the last one got HTTP 500.');

    expect(await attemptMinutes(deliveryId)).to.deep.equal([0, 1, 6, 36, 2 * 60 + 36, 8 * 60 + 36, 20 * 60 + 36, 44 * 60 + 36]);
    const row = await services.db('webhook_deliveries').where({ id: deliveryId }).first();
    expect(row).to.include({ status: 'abandoned', attempts: 8, last_http_status: 500 });
    expect(receiver.received).to.have.length(8);
    expect(new Set(receiver.received.map((r) => r.headers['service-delivery']))).to.deep.equal(new Set([deliveryId]));

    // Found in the Temporal UI by account, endpoint and event; its status says abandoned.
    const described = await delivery.describe();
    expect(described.status.name).to.equal('FAILED');
    const attributes = described.typedSearchAttributes;
    expect(attributes.get(ACCOUNT_ID)).to.equal(account.id);
    expect(attributes.get(WEBHOOK_ENDPOINT_ID)).to.equal(endpointId);
    expect(attributes.get(WEBHOOK_EVENT_ID)).to.equal(receiver.received[0]!.body.id);
    expect(attributes.get(WEBHOOK_EVENT_TYPE)).to.equal('mailing.created');
    expect(attributes.get(DELIVERY_STATUS)).to.equal('abandoned');

    // The mailing that started it (still open: a test mailing waits to be advanced) ignores the
    // failure of its child and goes on.
    const mailing = await (await startedMailingWorkflow(created.body.id, env.client)).describe();
    expect(mailing.status.name).to.equal('RUNNING');
    const advanced = await call('POST', `/v1/test/mailings/${created.body.id}/advance`, { key: account.testKey, body: {}, baseUrl: services.api.url });
    expect(advanced.status).to.equal(200);
    expect(advanced.body.status).to.equal('printed');
  });

  it('a ping answered at the fourth attempt is delivered 36 min after the first, and says so', async () => {
    const { id: endpointId } = await endpoint('live', []);
    receiver.respond = () => ({ status: receiver.received.length < 4 ? 503 : 200 });
    const row = await services.db('webhook_endpoints').where({ id: endpointId }).first();
    const { deliveryId } = await pingEndpoint(domainDeps(services.db, services.config, env.client), row);
    const delivery = env.client.workflow.getHandle(deliveryWorkflowId(deliveryId));
    // Before time moves: what an operator reads on the workflow's page.
    const details = async (): Promise<string> => (await delivery.query<{ currentDetails: string }>('__temporal_workflow_metadata')).currentDetails;
    expect(await eventually(details, (text) => text !== 'attempt 1/8 under way', 5000)).to.equal('attempt 1/8 failed (HTTP 503), next in 1 min');

    expect(await env.skipping(() => delivery.result())).to.deep.equal({ delivered: true, attempts: 4 });
    expect(await attemptMinutes(deliveryId)).to.deep.equal([0, 1, 6, 36]);
    expect(await services.db('webhook_deliveries').where({ id: deliveryId }).first()).to.include({ status: 'delivered', attempts: 4, last_http_status: 200 });
    const attributes = (await delivery.describe()).typedSearchAttributes;
    expect(attributes.get(DELIVERY_STATUS)).to.equal('delivered');
    expect(attributes.get(WEBHOOK_EVENT_TYPE)).to.equal('ping');
    expect(attributes.get(WEBHOOK_ENDPOINT_ID)).to.equal(endpointId);
  });

  it('a live letter the operator refuses for about two hours is filed at the 21st attempt, then goes all the way', async () => {
    const created = await mail(account.liveKey, 'registered');
    expect(created.status).to.equal(201);
    const mailingId = created.body.id as string;
    const mailing = await startedMailingWorkflow(mailingId, env.client);

    const final = await env.skipping(() => mailing.result());
    expect(final).to.include({ id: mailingId, status: 'delivered' });

    const filing = await services.db('operator_filings').where({ shipment_id: mailingId }).first();
    expect(filing.attempts).to.equal(REFUSED_FILINGS + 1);
    expect(filing.filed_at).to.be.instanceOf(Date);
    // Retries every 2 s, doubling up to every 10 min: 9 waits of 2 s to 512 s, then 11 of 10 min.
    const backoff = (2 + 4 + 8 + 16 + 32 + 64 + 128 + 256 + 512 + 11 * 600) * 1000;
    const events = await services.db('shipment_events').where({ shipment_id: mailingId }).orderBy('step');
    expect(events.map((e) => e.status)).to.deep.equal(['paid', 'printed', 'posted', 'in_transit', 'delivered']);
    const paid = new Date(events[0]!.at).getTime();
    const printed = new Date(events[1]!.at).getTime();
    expect(printed - paid).to.be.at.least(backoff);
    const shipment = await services.db('shipments').where({ id: mailingId }).first();
    expect(shipment.status).to.equal('delivered');
  });
});
