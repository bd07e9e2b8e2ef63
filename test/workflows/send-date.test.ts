import { expect } from 'chai';
import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { filingInstantMs } from '../../domain/mailings/send-date-filing-time.js';
import { parisDate } from '../../lib/paris-time.js';
import { replayHistories } from '../../worker/replay.js';
import { advanceUpdate, cancelUpdate } from '../../workflows/contract.js';
import { mailing } from '../../workflows/mailing.js';
import { MailingDouble, mailingInput, stepByStep, WorkflowTestBench } from './support.js';

const DAY = 24 * 3600_000;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await pause(20);
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const eventMs = (e: temporal.api.history.v1.IHistoryEvent): number => Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);

const parisClock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' });

/**
 * A mailing with a send date (`sendAt`), alone on the time-skipping server with mocked activities:
 * it waits on one timer until 00:00 Paris that day, a cancellation ends the wait at once, an
 * advance skips it, and a new worker replaying its history mid-wait goes on unchanged.
 */
describe('the mailing workflow with a send date (mocked activities, time-skipping server)', function () {
  // Fresh workers bundle the workflow code (a replay mid-wait and at the end): slow on a loaded machine.
  this.timeout(120_000);
  const bench = new WorkflowTestBench();
  before(async function () {
    this.timeout(180_000);
    await bench.start();
  });
  after(() => bench.stop());

  const start = (double: MailingDouble, taskQueue: string): Promise<WorkflowHandle<typeof mailing>> =>
    bench.env.client.workflow.start(mailing, { taskQueue, workflowId: `mailing-${double.input.shipmentId}`, args: [double.input] });

  const history = async (handle: WorkflowHandle) => (await handle.fetchHistory()).events!;

  /** A send date `days` days after the server's clock, and when it is filed. */
  async function sendDate(days: number): Promise<{ sendAt: string; fileAt: number; now: number }> {
    const now = (await bench.env.now()).getTime();
    const sendAt = parisDate(now + days * DAY);
    return { sendAt, fileAt: filingInstantMs(sendAt), now };
  }

  /** Waits until the run sleeps on its timer (the clock is locked meanwhile: it cannot fire). */
  async function timerStarted(handle: WorkflowHandle): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if ((await history(handle)).some((e) => e.timerStartedEventAttributes)) return;
      await pause(50);
    }
    throw new Error('the run never started its timer');
  }

  const announced = (double: MailingDouble) => until(() => double.events.some((e) => e.type === 'mailing.created'), 'mailing.created');

  it('live: stays paid on one timer (no polling) until 00:00 Paris on its date, then files and goes on', async () => {
    const { sendAt, fileAt, now } = await sendDate(10);
    const double = new MailingDouble(mailingInput('simple', false, { sendAt }), { reports: stepByStep('simple') });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await announced(double);
      await timerStarted(handle);
      const waiting = await history(handle);
      const timers = waiting.filter((e) => e.timerStartedEventAttributes);
      expect(timers).to.have.length(1);
      const timeoutMs = Number(timers[0]!.timerStartedEventAttributes!.startToFireTimeout!.seconds) * 1000;
      expect(timeoutMs).to.be.within(fileAt - now - 60_000, fileAt - now);
      await pause(200);
      expect(double.calls).not.to.include('fileWithOperator');
      expect(double.shipment.status).to.equal('paid');

      const result = (await bench.env.skipping(() => handle.result())) as Mailing;
      expect(result.status).to.equal('posted');
      const done = await history(handle);
      const filing = done.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fileWithOperator')!;
      expect(eventMs(filing)).to.be.at.least(fileAt);
      expect(eventMs(filing) - fileAt).to.be.below(60_000);
      expect(parisClock.format(fileAt)).to.equal('00:00');
      // The filing heard "posted" (the double's operator is one step ahead): the letter went on at once.
      expect(double.moves).to.deep.equal(['printed', 'posted']);
      expect(double.refunded).to.equal(false);
    });
  });

  it('live: a cancellation during the wait ends it at once, refunded, never filed', async () => {
    const { sendAt } = await sendDate(30);
    const double = new MailingDouble(mailingInput('registered', false, { sendAt }));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await announced(double);
      const before = (await bench.env.now()).getTime();
      const canceled = await handle.executeUpdate(cancelUpdate, { args: [null] });
      expect(canceled.status).to.equal('canceled');
      // Not skipping: the run ends without the timer firing.
      expect(((await handle.result()) as Mailing).status).to.equal('canceled');
      expect((await bench.env.now()).getTime() - before).to.be.below(DAY);
      expect(double.refunded).to.equal(true);
      expect(double.calls).not.to.include('fileWithOperator');
      const events = await history(handle);
      expect(events.some((e) => e.timerCanceledEventAttributes)).to.equal(true);
      expect(events.some((e) => e.timerFiredEventAttributes)).to.equal(false);
    });
  });

  it('a deploy during the wait changes nothing: the history replays on a fresh worker mid-wait and at the end', async () => {
    const { sendAt, fileAt } = await sendDate(5);
    const double = new MailingDouble(mailingInput('simple', false, { sendAt }), { reports: stepByStep('simple') });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await announced(double);
      await timerStarted(handle);
      const midWait = await handle.fetchHistory();
      expect(midWait.events!.some((e) => e.timerStartedEventAttributes)).to.equal(true);
      const [mid] = await replayHistories([{ workflowId: handle.workflowId, history: midWait }]);
      expect(mid!.error, String(mid!.error)).to.equal(undefined);

      const result = (await bench.env.skipping(() => handle.result())) as Mailing;
      expect(result.status).to.equal('posted');
      const [end] = await replayHistories([{ workflowId: handle.workflowId, history: await handle.fetchHistory() }]);
      expect(end!.error, String(end!.error)).to.equal(undefined);
      const filing = (await history(handle)).find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fileWithOperator')!;
      expect(eventMs(filing)).to.be.at.least(fileAt);
    });
  });

  it('resumed by the reconciler 8 days after payment while its date is ahead: not refunded as stale, waits, then files', async () => {
    const { sendAt, fileAt } = await sendDate(20);
    const createdAt = new Date((await bench.env.now()).getTime() - 8 * DAY).toISOString();
    const double = new MailingDouble(mailingInput('simple', false, { sendAt, resumed: true }), { reports: stepByStep('simple') }, { createdAt });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await bench.env.skipping(() => handle.result())) as Mailing).status).to.equal('posted');
      expect(double.refunded).to.equal(false);
      const filing = (await history(handle)).find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fileWithOperator')!;
      expect(eventMs(filing)).to.be.at.least(fileAt);
    });
  });

  it('test mailing: an advance skips the wait at once', async () => {
    const { sendAt } = await sendDate(90);
    const double = new MailingDouble(mailingInput('simple', true, { sendAt }));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await announced(double);
      const before = (await bench.env.now()).getTime();
      expect((await handle.executeUpdate(advanceUpdate, { args: [{}] })).status).to.equal('printed');
      expect((await handle.executeUpdate(advanceUpdate, { args: [{}] })).status).to.equal('posted');
      expect(((await handle.result()) as Mailing).status).to.equal('posted');
      expect((await bench.env.now()).getTime() - before).to.be.below(DAY);
      expect(double.calls).not.to.include('fileWithOperator');
    });
  });

  it('test mailing nobody advances: its 30-day idle limit counts from its send date, not from its creation', async () => {
    const { sendAt, fileAt } = await sendDate(60);
    const double = new MailingDouble(mailingInput('registered', true, { sendAt }));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      const result = (await bench.env.skipping(() => handle.result())) as Mailing;
      expect(result.status).to.equal('error');
      // When it failed, from its history (the server's clock may have skipped on since).
      const ended = (await history(handle)).find((e) => e.workflowExecutionCompletedEventAttributes)!;
      expect(eventMs(ended)).to.be.at.least(fileAt + 30 * DAY);
      expect(double.refunded).to.equal(true);
    });
  });
});
