import { expect } from 'chai';
import { createAccount } from '../support/api.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { startTimeSkipping, startTimeSkippingServices, type TimeSkippingEnv, type TimeSkippingServices } from '../support/time-skipping.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { pingEndpoint } from '../../domain/webhooks/events.js';
import { domainDeps } from '../../workflows/client.js';
import { deliveryWorkflowId } from '../../workflows/contract.js';

describe('the real schedules, on a time-skipping Temporal test server', function () {
  this.timeout(120_000);
  let env: TimeSkippingEnv;
  let services: TimeSkippingServices;
  let receiver: WebhookReceiver;

  before(async () => {
    env = await startTimeSkipping();
    services = await startTimeSkippingServices(env);
  });
  after(async () => {
    await services?.stop();
    await env?.stop();
  });
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(async () => receiver.stop());

  it('a ping to a receiver that always fails is tried 8 times over 44 h 36 min of workflow time', async () => {
    const account = await createAccount();
    receiver.respond = () => ({ status: 500 });
    const { id } = await createWebhookEndpoint(services.db, services.config, { accountId: account.id, url: receiver.url, env: 'test', events: [] });
    const deps = domainDeps(services.db, services.config, env.client);
    const endpoint = await services.db('webhook_endpoints').where({ id }).first();
    const t0 = await env.now();
    const { deliveryId } = await pingEndpoint(deps, endpoint);
    const result = await env.skipping(() => env.client.workflow.getHandle(deliveryWorkflowId(deliveryId)).result());
    const t1 = await env.now();
    expect(result).to.deep.equal({ delivered: false, attempts: 8 });
    expect(receiver.received.length).to.equal(8);
    // 1 min + 5 min + 30 min + 2 h + 6 h + 12 h + 24 h between the first and the last attempt.
    expect(t1.getTime() - t0.getTime()).to.be.at.least((44 * 60 + 36) * 60_000);
  });
});
