import { expect } from 'chai';
import { balanceOf, call, createAccount, eventually, startedMailingWorkflow, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { resumeUnattendedMailings } from '../../domain/mailings/reconcile.js';
import { domainDeps } from '../../temporal/domain-deps.js';
import { parisDate } from '../../lib/paris-time.js';

/** The Paris day `days` after today in Paris, as YYYY-MM-DD. */
function parisDayIn(days: number): string {
  const [y, m, d] = parisDate().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the mailing's workflow has done so far: its timers and the activities it scheduled. */
async function workflowSteps(mailingId: string): Promise<{ timers: number; activities: string[] }> {
  const events = (await (await startedMailingWorkflow(mailingId)).fetchHistory()).events!;
  return {
    timers: events.filter((e) => e.timerStartedEventAttributes).length,
    activities: events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter((n): n is string => !!n),
  };
}

/**
 * A send date (`sendAt`, issue 28 §2) end to end: validated before anything is charged, shown in
 * the mailing and its webhooks, the live letter waits paid (not filed) and is canceled free, the
 * reconciler resumes a waiting mailing without filing it, and `advance` skips a test mailing's wait.
 */
describe('mailings with a send date (sendAt)', function () {
  this.timeout(90_000);
  let account: TestAccount;
  let receiver: WebhookReceiver;
  before(async () => {
    account = await createAccount({ balanceCents: 5000 });
    receiver = await new WebhookReceiver().start();
    for (const env of ['test', 'live'] as const)
      await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env, events: [] });
  });
  after(() => receiver.stop());

  const post = (key: string, extra: Record<string, unknown>) =>
    call('POST', '/v1/mailings', { key, body: { mode: 'simple', letter: freeLetter, sender, recipient, ...extra } });

  it('refuses a date in the past or more than 180 days ahead (422 naming sendAt) and a wrong format (400), charging nothing', async () => {
    const before = await balanceOf(account.id);
    for (const sendAt of [parisDayIn(-1), parisDayIn(181), '2027-02-30']) {
      const res = await post(account.liveKey, { sendAt });
      expect(res.status, `${sendAt}: ${JSON.stringify(res.body)}`).to.equal(422);
      expect(res.body.error.code).to.equal('unprocessable');
      expect(res.body.error.details[0].field).to.equal('sendAt');
      expect(res.body.error.message).to.include(sendAt);
    }
    for (const sendAt of ['2026/12/01', '01-12-2026', '2026-12-01T00:00:00Z', 20261201]) {
      const res = await post(account.liveKey, { sendAt });
      expect(res.status, `${sendAt}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.error.details[0].field).to.equal('sendAt');
    }
    expect(await balanceOf(account.id)).to.equal(before);
    // The bounds themselves are accepted: today is filed at once, 180 days ahead waits (and stays open).
    const today = await post(account.liveKey, { sendAt: parisDayIn(0) });
    const farthest = await post(account.liveKey, { sendAt: parisDayIn(180) });
    expect([today.status, farthest.status]).to.deep.equal([201, 201]);
    expect(await balanceOf(account.id)).to.equal(before - today.body.amountCents - farthest.body.amountCents);
    await eventually(
      () => stack().db('operator_filings').where({ shipment_id: today.body.id }).count({ n: '*' }),
      (rows) => rows[0]!.n === '1',
      20_000,
      100,
    );
    await eventually(
      () => workflowSteps(farthest.body.id),
      (steps) => steps.timers > 0,
      10_000,
      100,
    );
    expect((await workflowSteps(farthest.body.id)).activities).not.to.include('fileWithOperator');
  });

  it('a live mailing with a send date is paid at once, stays paid (not filed), shows sendAt everywhere, and is canceled free', async () => {
    const before = await balanceOf(account.id);
    const sendAt = parisDayIn(3);
    const res = await post(account.liveKey, { sendAt, reference: 'SEND-AT-1' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.id as string;
    expect(res.body).to.include({ status: 'paid', step: 0, sendAt });
    const price = res.body.amountCents as number;
    expect(price).to.be.above(0);
    expect(await balanceOf(account.id)).to.equal(before - price);

    const [hook] = (await receiver.until((r) => r.some((w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === id))).filter(
      (w) => w.body.type === 'mailing.created' && w.body.data.mailing.id === id,
    );
    expect(hook!.body.data.mailing.sendAt).to.equal(sendAt);
    expect((await call('GET', `/v1/mailings/${id}`, { key: account.liveKey })).body.sendAt).to.equal(sendAt);
    const listed = await call('GET', '/v1/mailings?reference=SEND-AT-1', { key: account.liveKey });
    expect(listed.body.data.map((s: { sendAt: string }) => s.sendAt)).to.deep.equal([sendAt]);

    // Waiting on its timer: a live letter without a date is filed within a second or two here.
    const waiting = await eventually(
      () => workflowSteps(id),
      (steps) => steps.timers > 0,
      10_000,
      100,
    );
    await pause(2000);
    expect((await workflowSteps(id)).activities).not.to.include('fileWithOperator');
    expect(waiting.activities).not.to.include('fileWithOperator');
    expect((await call('GET', `/v1/mailings/${id}`, { key: account.liveKey })).body).to.include({ status: 'paid', step: 0 });
    expect(await stack().db('operator_filings').where({ shipment_id: id }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);

    const canceled = await call('POST', `/v1/mailings/${id}/cancel`, { key: account.liveKey });
    expect(canceled.status, JSON.stringify(canceled.body)).to.equal(200);
    expect(canceled.body).to.include({ status: 'canceled', sendAt });
    expect(await balanceOf(account.id)).to.equal(before);
    await receiver.until((r) => r.some((w) => w.body.type === 'mailing.canceled' && w.body.data.mailing.id === id));
    // The wait ended with the cancellation: the run is over, its timer canceled, nothing filed.
    expect(await (await startedMailingWorkflow(id)).result()).to.include({ status: 'canceled' });
    expect((await workflowSteps(id)).activities).not.to.include('fileWithOperator');
  });

  it('the reconciler resumes a waiting mailing whose workflow was lost: it waits again for its date (not filed, not refunded)', async () => {
    const before = await balanceOf(account.id);
    const sendAt = parisDayIn(10);
    const res = await post(account.liveKey, { sendAt });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.id as string;
    await eventually(
      () => workflowSteps(id),
      (steps) => steps.timers > 0,
      10_000,
      100,
    );
    const lost = await startedMailingWorkflow(id);
    await lost.terminate('test: the workflow is lost');
    // Older than the reconciler's grace, and 8 days old: past the stale-paid limit had it no date.
    await stack()
      .db('shipments')
      .where({ id })
      .update({ created_at: stack().db.raw(`now() - interval '8 days'`) });
    const { db, config, temporal } = stack();
    const { resumed } = await resumeUnattendedMailings(domainDeps(db, config, temporal.client), { accountId: account.id });
    expect(resumed).to.deep.equal([id]);
    const again = await eventually(
      async () => (await stack().temporal.client.workflow.getHandle(lost.workflowId).fetchHistory()).events!,
      (events) => events.some((e) => e.timerStartedEventAttributes),
      10_000,
      100,
    );
    const [input] = again[0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
    expect(JSON.parse(Buffer.from(input!.data!).toString())).to.include({ sendAt, resumed: true });
    await pause(1500);
    expect((await call('GET', `/v1/mailings/${id}`, { key: account.liveKey })).body).to.include({ status: 'paid', sendAt });
    expect(await stack().db('operator_filings').where({ shipment_id: id }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);
    expect((await call('POST', `/v1/mailings/${id}/cancel`, { key: account.liveKey })).body).to.include({ status: 'canceled' });
    expect(await balanceOf(account.id)).to.equal(before);
  });

  it('a test mailing with a send date is advanced at once by advance; without one, sendAt is null', async () => {
    const sendAt = parisDayIn(30);
    const res = await post(account.testKey, { sendAt });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.sendAt).to.equal(sendAt);
    const advanced = await call('POST', `/v1/test/mailings/${res.body.id}/advance`, { key: account.testKey, body: {} });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    expect(advanced.body).to.include({ status: 'printed', step: 1, sendAt });
    await receiver.until((r) => r.some((w) => w.body.type === 'mailing.printed' && w.body.data.mailing.id === res.body.id));

    const plain = await post(account.testKey, {});
    expect(plain.body.sendAt).to.equal(null);
    expect((await call('GET', `/v1/mailings/${plain.body.id}`, { key: account.testKey })).body.sendAt).to.equal(null);
  });
});
