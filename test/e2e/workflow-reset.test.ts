import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { call, createAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { mailingWorkflowId } from '../../workflows/contract.js';

/** EventType WORKFLOW_TASK_COMPLETED of Temporal's history. */
const WORKFLOW_TASK_COMPLETED = 7;
/** ResetReapplyType NONE: the updates and signals after the reset point are not applied again. */
const RESET_REAPPLY_TYPE_NONE = 2;

describe('an operator resets a mailing workflow', function () {
  this.timeout(60_000);

  it('resumes from the projection: what was announced keeps its id, nothing is announced twice', async () => {
    const account = await createAccount();
    const receiver = await new WebhookReceiver().start();
    try {
      await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env: 'test', events: [] });
      const { body: shipment } = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
      await receiver.until((r) => r.some((w) => w.body.type === 'mailing.created'));
      const adv = await call('POST', `/v1/test/mailings/${shipment.id}/advance`, { key: account.testKey, body: {} });
      expect(adv.status, JSON.stringify(adv.body)).to.equal(200);
      await receiver.until((r) => r.some((w) => w.body.type === 'mailing.printed'));
      const before = (await stack().db('webhook_events').where({ shipment_id: shipment.id }).select('id', 'type')).map((e) => `${e.type} ${e.id}`).sort();

      // Reset to the end of the first workflow task, without re-applying the updates that came
      // after it: the new run reads the projection (printed) and goes on from there.
      const { client } = stack().temporal;
      const handle = client.workflow.getHandle(mailingWorkflowId(shipment.id));
      const history = await handle.fetchHistory();
      const firstTask = history.events!.find((e) => e.eventType === WORKFLOW_TASK_COMPLETED)!;
      const { runId } = await handle.describe();
      await client.workflowService.resetWorkflowExecution({
        namespace: stack().config.temporalNamespace,
        workflowExecution: { workflowId: mailingWorkflowId(shipment.id), runId },
        reason: 'test: operator reset',
        workflowTaskFinishEventId: firstTask.eventId,
        requestId: randomUUID(),
        resetReapplyType: RESET_REAPPLY_TYPE_NONE,
      });
      const again = await call('POST', `/v1/test/mailings/${shipment.id}/advance`, { key: account.testKey, body: {} });
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body).to.deep.include({ status: 'posted', step: 2 });
      await receiver.until((r) => r.some((w) => w.body.type === 'mailing.posted'));

      // What was announced before keeps its id, and nothing is announced twice.
      const after = (await stack().db('webhook_events').where({ shipment_id: shipment.id }).select('id', 'type')).map((e) => `${e.type} ${e.id}`).sort();
      expect(after).to.include.members(before);
      expect(after.map((e) => e.split(' ')[0])).to.deep.equal(['mailing.created', 'mailing.posted', 'mailing.printed', 'mailing.proof_available']);
      // Every request the receiver got carries one of those ids, each id once per delivery.
      const ids = new Set(after.map((e) => e.split(' ')[1]));
      for (const webhook of receiver.received) expect(ids.has(webhook.body.id), webhook.body.type).to.equal(true);
      expect(new Set(receiver.received.map((w) => w.body.id)).size).to.equal(receiver.received.length);
    } finally {
      await receiver.stop();
    }
  });
});
