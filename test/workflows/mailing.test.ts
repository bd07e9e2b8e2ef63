import { expect } from 'chai';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { type ApplicationFailure } from '@temporalio/common';
import type { Mailing } from '../../domain/mailings/mailing.js';
import {
  advanceUpdate,
  cancelUpdate,
  DELIVERY_STATUS,
  deliveryWorkflowId,
  MAILING_STATUS,
  REFUSED_CONFLICT,
  REFUSED_INVALID,
} from '../../workflows/contract.js';
import { mailing } from '../../workflows/mailing.js';
import { MailingDouble, mailingInput, stepByStep, webhookAttempts, WorkflowTestBench } from './support.js';

const DAY = 24 * 3600_000;

/**
 * Every path of the mailing workflow, alone: the real workflow code on Temporal's time-skipping
 * test server, its activities a double in memory (test/workflows/support.ts). Long waits (filing
 * backoff, idle and silence limits) are skipped, so each path takes well under a second.
 */
describe('the mailing workflow alone (mocked activities, time-skipping server)', function () {
  this.timeout(30_000);
  // Once in a CI run, the SDK's core panicked in its local-activity timeouts ("receive half not
  // dropped", sdk-core local_activities.rs) and the test then waiting on that local activity timed
  // out. A second attempt runs the same path again with a fresh double and workflow id; a path that
  // is wrong fails both.
  this.retries(1);
  const bench = new WorkflowTestBench();
  before(async function () {
    this.timeout(180_000);
    await bench.start();
  });
  after(() => bench.stop());

  const start = (double: MailingDouble, taskQueue: string): Promise<WorkflowHandle<typeof mailing>> =>
    bench.env.client.workflow.start(mailing, { taskQueue, workflowId: `mailing-${double.input.shipmentId}`, args: [double.input] });

  /** The search attribute operators filter on, as the server holds it. */
  const shownStatus = async (handle: WorkflowHandle): Promise<string | undefined> => (await handle.describe()).typedSearchAttributes.get(MAILING_STATUS);

  /** How many times the workflow set MailingStatus (not counting the SDK's TemporalChangeVersion upsert of a patch). */
  const statusUpserts = async (handle: WorkflowHandle): Promise<number> =>
    (await handle.fetchHistory()).events!.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.[MAILING_STATUS.name])
      .length;

  /** The update's refusal type (REFUSED_CONFLICT or REFUSED_INVALID). */
  async function refusalOf(work: Promise<unknown>): Promise<string | undefined> {
    try {
      await work;
      return undefined;
    } catch (error) {
      expect(error).to.be.instanceOf(WorkflowUpdateFailedError);
      return ((error as WorkflowUpdateFailedError).cause as ApplicationFailure).type ?? undefined;
    }
  }

  const types = (double: MailingDouble) => double.events.map((e) => (e.proof ? `${e.type}:${e.proof}` : e.type));

  it('live simple: filed, then posted as the operator reports, with the filing proof and every event', async () => {
    const double = new MailingDouble(mailingInput('simple', false), { reports: stepByStep('simple') });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      const result = (await handle.result()) as Mailing;
      expect(result.status).to.equal('posted');
      expect(double.moves).to.deep.equal(['printed', 'posted']);
      expect(types(double)).to.deep.equal(['mailing.created', 'mailing.printed', 'mailing.posted', 'mailing.proof_available:filing']);
      expect(await shownStatus(handle)).to.equal('posted');
    });
  });

  it('a new mailing reads its record and records mailing.created in one call; a proof is printed and announced by one activity', async () => {
    const double = new MailingDouble(mailingInput('simple', false), { reports: stepByStep('simple') });
    double.endpoints = ['we_one'];
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await handle.result();
      // No local activity of its own for the creation's event or the proof's.
      expect(double.calls.filter((c) => c.startsWith('createWebhookDeliveries') || c === 'committedShipment')).to.deep.equal([]);
      expect(double.calls[0]).to.equal('announceCommittedShipment');
      expect(double.calls).to.include('publishProof:filing');
      const events = (await handle.fetchHistory()).events!;
      const markers = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
      // The record with its event, then printed and posted, which the filing heard, together (one recordMoves).
      expect(markers).to.have.length(2);
      // The first workflow task: that one local activity, then the creation's first attempts scheduled.
      const firstTask = events.slice(0, events.findIndex((e) => e.workflowTaskCompletedEventAttributes) + 3);
      expect(firstTask.filter((e) => e.markerRecordedEventAttributes)).to.have.length(1);
      expect(firstTask.find((e) => e.activityTaskScheduledEventAttributes)?.activityTaskScheduledEventAttributes?.activityType?.name).to.equal(
        'deliverWebhooks',
      );
      expect(types(double)).to.deep.equal(['mailing.created', 'mailing.printed', 'mailing.posted', 'mailing.proof_available:filing']);
    });
  });

  it('a mailing whose mailing.created the API recorded reads and records nothing in its first task: the first attempts are scheduled at once', async () => {
    const double = new MailingDouble(mailingInput('simple', false), { reports: stepByStep('simple') });
    double.endpoints = ['we_one'];
    const input = double.announcedByApi();
    await bench.run(double, async (queue) => {
      const handle = await bench.env.client.workflow.start(mailing, { taskQueue: queue, workflowId: `mailing-${input.shipmentId}`, args: [input] });
      expect(((await handle.result()) as Mailing).status).to.equal('posted');
      expect(double.calls).not.to.include('announceCommittedShipment');
      expect(double.calls).not.to.include('committedShipment');
      expect(double.calls.filter((c) => c.startsWith('createWebhookDeliveries'))).to.deep.equal([]);
      // Its first attempt made, as the API's deliveries said.
      expect(webhookAttempts.get(input.created!.deliveries[0]!.deliveryId)).to.deep.equal([1]);
      const events = (await handle.fetchHistory()).events!;
      const firstTask = events.slice(0, events.findIndex((e) => e.workflowTaskCompletedEventAttributes) + 3);
      expect(firstTask.filter((e) => e.markerRecordedEventAttributes)).to.have.length(0);
      expect(firstTask.find((e) => e.activityTaskScheduledEventAttributes)?.activityTaskScheduledEventAttributes?.activityType?.name).to.equal(
        'deliverWebhooks',
      );
      // The creation's event once (by the API), then the rest as before.
      expect(types(double)).to.deep.equal(['mailing.created', 'mailing.printed', 'mailing.posted', 'mailing.proof_available:filing']);
      expect(double.moves).to.deep.equal(['printed', 'posted']);
    });
  });

  it('a mailing resumed while paid reads its record, then announces its creation (to the endpoints of its creation time)', async () => {
    const double = new MailingDouble(mailingInput('simple', true, { resumed: true }));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect((await handle.executeUpdate(advanceUpdate, { args: [{ step: 1 }] })).status).to.equal('printed');
      expect(double.calls.slice(0, 2)).to.deep.equal(['committedShipment', 'createWebhookDeliveries:mailing.created']);
      expect(double.calls).not.to.include('announceCommittedShipment');
      await handle.executeUpdate(advanceUpdate, { args: [{ step: 2 }] });
      await handle.result();
    });
  });

  it('live registered: every step to delivered, with the filing and delivery proofs', async () => {
    const double = new MailingDouble(mailingInput('registered', false), { reports: stepByStep('registered') });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('delivered');
      expect(double.moves).to.deep.equal(['printed', 'posted', 'in_transit', 'delivered']);
      expect(double.proofs).to.deep.equal(['filing', 'delivery']);
      expect(await shownStatus(handle)).to.equal('delivered');
    });
  });

  it('live ar: several statuses reported at once are recorded together, each with its event, their proofs after them, and the status shown once per batch', async () => {
    // The operator's first news is already "delivered", then the signed AR.
    const double = new MailingDouble(mailingInput('ar', false), { reports: (current) => (current === 'delivered' ? 'ar_signed' : 'delivered') });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('ar_signed');
      expect(double.moves).to.deep.equal(['printed', 'posted', 'in_transit', 'delivered', 'ar_signed']);
      expect(types(double)).to.deep.equal([
        'mailing.created',
        'mailing.printed',
        'mailing.posted',
        'mailing.in_transit',
        'mailing.delivered',
        'mailing.proof_available:filing',
        'mailing.ar_signed',
        'mailing.proof_available:delivery',
      ]);
      // The filing heard "delivered": printed and the three moves of that report in one local
      // activity, the filing proof by the proofs' activity; then ar_signed alone.
      expect(double.calls.filter((c) => c.startsWith('recordMoves') || c.startsWith('publishProofs'))).to.deep.equal(['recordMoves:4', 'publishProofs:1']);
      // printed…delivered once, then ar_signed.
      expect(await statusUpserts(handle)).to.equal(2);
      expect(await shownStatus(handle)).to.equal('ar_signed');
    });
  });

  it('live ar: reported signed by the filing itself: printed and its four moves are one local activity, both proofs one activity, no tracking question', async () => {
    const double = new MailingDouble(mailingInput('ar', false), { reports: () => 'ar_signed' });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('ar_signed');
      expect(types(double)).to.deep.equal([
        'mailing.created',
        'mailing.printed',
        'mailing.posted',
        'mailing.in_transit',
        'mailing.delivered',
        'mailing.ar_signed',
        'mailing.proof_available:filing',
        'mailing.proof_available:delivery',
      ]);
      expect(double.calls.filter((c) => c.startsWith('recordMoves') || c.startsWith('publishProofs'))).to.deep.equal(['recordMoves:5', 'publishProofs:2']);
      const { events } = await handle.fetchHistory();
      const scheduled = events!.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
      expect(scheduled).to.deep.equal(['fileWithOperator', 'publishProofs']);
      expect(await statusUpserts(handle)).to.equal(1);
      expect(events!.filter((e) => e.workflowTaskCompletedEventAttributes)).to.have.length(3);
    });
  });

  it('live: a filing that heard nothing past printed goes straight to the polls (no single question first)', async () => {
    // Nothing at the filing; the first poll hears "posted", then the letter goes on step by step.
    let polls = 0;
    const double = new MailingDouble(mailingInput('simple', false, { operatorPollMs: 1_000 }), {
      reports: (current) => (current === 'printed' ? (++polls > 1 ? 'posted' : undefined) : undefined),
    });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('posted');
      expect(double.moves).to.deep.equal(['printed', 'posted']);
      const { events } = await handle.fetchHistory();
      const questions = events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'checkOperatorStatus');
      // One poll schedule (its retries are not events), raced with the silence deadline's timer.
      expect(questions).to.have.length(1);
      expect(questions[0]!.activityTaskScheduledEventAttributes!.retryPolicy!.maximumAttempts ?? 0).to.equal(0);
      expect(events!.filter((e) => e.timerStartedEventAttributes)).to.have.length(1);
    });
  });

  it('live: a filing answered by an activity worker of before ("filed" alone) is followed as before: printed alone, then a single question first', async () => {
    const double = new MailingDouble(mailingInput('ar', false), { reports: () => 'ar_signed', newsWithFiling: false });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('ar_signed');
      expect(double.calls.filter((c) => c.startsWith('recordMove') || c.startsWith('publishProofs'))).to.deep.equal([
        'recordMove:printed',
        'recordMoves:4',
        'recordMove:posted',
        'recordMove:in_transit',
        'recordMove:delivered',
        'recordMove:ar_signed',
        'publishProofs:2',
      ]);
      const { events } = await handle.fetchHistory();
      const scheduled = events!.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
      expect(scheduled).to.deep.equal(['fileWithOperator', 'checkOperatorStatus', 'publishProofs']);
      expect(await statusUpserts(handle)).to.equal(2);
    });
  });

  it('a returned letter ends returned, with the return proof', async () => {
    const double = new MailingDouble(mailingInput('registered', false), { reports: (current) => (current === 'printed' ? 'posted' : 'returned') });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('returned');
      expect(double.moves).to.deep.equal(['printed', 'posted', 'returned']);
      expect(double.proofs).to.deep.equal(['filing', 'return']);
      expect(await shownStatus(handle)).to.equal('returned');
    });
  });

  it('returns handled digitally: a posted simple letter is watched for its return and ends returned at step 3, with its reason and the return proof', async () => {
    const double = new MailingDouble(mailingInput('simple', false, { returnedMail: 'digital' }), {
      reports: (current) => (current === 'printed' ? 'posted' : 'returned'),
    });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      const result = (await handle.result()) as Mailing;
      expect(result).to.include({ status: 'returned', step: 3, lastStep: 3 });
      expect(double.moves).to.deep.equal(['printed', 'posted', 'returned']);
      expect(double.proofs).to.deep.equal(['filing', 'return']);
      expect(double.calls).to.include('checkOperatorStatus:return');
      const returned = double.events.find((e) => e.type === 'mailing.returned');
      expect(returned?.details?.reason).to.include('N10');
      expect(await shownStatus(handle)).to.equal('returned');
      const patches = (await handle.fetchHistory())
        .events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
        .map((e) => (JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!.data!).toString()) as { id: string }).id);
      expect(
        patches.filter((id) => id === 'digital-returns'),
        'the digital-returns patch marker',
      ).to.have.length(1);
    });
  });

  it('returns handled digitally: a letter not reported back within its window (3.5 days here, skipped) stays posted', async () => {
    // Asked once a day (each question is an activity the skipping server waits for), for three days and a
    // half: the deadline never falls on the instant a question is retried, which the test server can
    // mishandle (a cancel meeting the retry).
    const double = new MailingDouble(mailingInput('simple', false, { returnedMail: 'digital', returnWindowMs: 3.5 * DAY, operatorPollMs: DAY }), {
      reports: stepByStep('simple'),
    });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      const result = (await bench.env.skipping(() => handle.result())) as Mailing;
      expect(result).to.include({ status: 'posted', step: 2 });
      expect(double.moves).to.deep.equal(['printed', 'posted']);
    });
  });

  it('returns handled digitally: reported back before it was seen posted, it moves to posted (filing proof) first, then returned at step 3', async () => {
    const double = new MailingDouble(mailingInput('simple', false, { returnedMail: 'digital' }), { reports: () => 'returned' });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect((await handle.result()) as Mailing).to.include({ status: 'returned', step: 3, lastStep: 3 });
      expect(double.moves).to.deep.equal(['printed', 'posted', 'returned']);
      expect(double.proofs).to.deep.equal(['filing', 'return']);
    });
  });

  it('returns handled digitally, test letter: once posted only { status: returned } moves it, to step 3', async () => {
    const double = new MailingDouble(mailingInput('simple', true, { returnedMail: 'digital' }));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await handle.executeUpdate(advanceUpdate, { args: [{ step: 2 }] });
      expect(await refusalOf(handle.executeUpdate(advanceUpdate, { args: [{}] }))).to.equal(REFUSED_CONFLICT);
      const returned = (await handle.executeUpdate(advanceUpdate, { args: [{ status: 'returned' }] })) as Mailing;
      expect(returned).to.include({ status: 'returned', step: 3, lastStep: 3 });
      expect(((await handle.result()) as Mailing).status).to.equal('returned');
      expect(double.proofs).to.deep.equal(['filing', 'return']);
    });
  });

  it('filing retried: an operator that does not answer twice is asked again on the filing schedule, then the letter goes on', async () => {
    const double = new MailingDouble(mailingInput('simple', false), {
      filing: (attempt) => (attempt <= 2 ? 'unavailable' : 'filed'),
      reports: stepByStep('simple'),
    });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      // 2 s then 4 s of backoff: skipped.
      const result = (await bench.env.skipping(() => handle.result())) as Mailing;
      expect(result.status).to.equal('posted');
      expect(double.filingAttempts).to.equal(3);
      expect(double.refunded).to.equal(false);
    });
  });

  it('a letter the operator refuses for good ends in error after one attempt, refunded, with the reason in mailing.error', async () => {
    const double = new MailingDouble(mailingInput('ar', false), { filing: () => 'rejected' });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('error');
      expect(double.filingAttempts).to.equal(1);
      expect(double.refunded).to.equal(true);
      const ended = double.events.find((e) => e.type === 'mailing.error');
      expect(ended?.details?.reason).to.match(/ADDRESS_LINE_6_WRONG_FORMAT/);
      expect(await shownStatus(handle)).to.equal('error');
    });
  });

  it('cancel while filing is retried: canceled, refunded, no more filing attempts', async () => {
    const double = new MailingDouble(mailingInput('registered', false), { filing: () => 'unavailable' });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      while (double.filingAttempts < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      const canceled = await handle.executeUpdate(cancelUpdate, { args: [null] });
      expect(canceled.status).to.equal('canceled');
      expect(((await bench.env.skipping(() => handle.result())) as Mailing).status).to.equal('canceled');
      expect(double.refunded).to.equal(true);
      expect(double.filingAttempts).to.equal(1);
      expect(types(double)).to.deep.equal(['mailing.created', 'mailing.canceled']);
    });
  });

  it('cancel once filed is refused (conflict) and the letter goes on', async () => {
    let newsAfterCancel = false;
    const double = new MailingDouble(mailingInput('simple', false), { reports: (current) => (newsAfterCancel ? stepByStep('simple')!(current) : undefined) });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      while (!double.moves.includes('printed')) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await refusalOf(handle.executeUpdate(cancelUpdate, { args: [null] }))).to.equal(REFUSED_CONFLICT);
      newsAfterCancel = true;
      expect(((await handle.result()) as Mailing).status).to.equal('posted');
      expect(double.refunded).to.equal(false);
    });
  });

  it('test mailing: advance by one step, by several at once (one status upsert), then returned; refusals never enter the history', async () => {
    const double = new MailingDouble(mailingInput('ar', true));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(await refusalOf(handle.executeUpdate(advanceUpdate, { args: [{ status: 'returned' }] }))).to.equal(REFUSED_CONFLICT);
      expect(await refusalOf(handle.executeUpdate(advanceUpdate, { args: [{ step: 99 }] }))).to.equal(REFUSED_INVALID);
      expect((await handle.executeUpdate(advanceUpdate, { args: [{}] })).status).to.equal('printed');
      const upsertsBefore = await statusUpserts(handle);
      expect((await handle.executeUpdate(advanceUpdate, { args: [{ step: 3 }] })).status).to.equal('in_transit');
      expect(await statusUpserts(handle)).to.equal(upsertsBefore + 1);
      expect((await handle.executeUpdate(advanceUpdate, { args: [{ status: 'returned' }] })).status).to.equal('returned');
      expect(((await handle.result()) as Mailing).status).to.equal('returned');
      expect(double.moves).to.deep.equal(['printed', 'posted', 'in_transit', 'returned']);
      expect(double.calls).not.to.include('fileWithOperator');
      const updates = (await handle.fetchHistory()).events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
      expect(updates).to.have.length(3);
    });
  });

  it('test mailing: advanced to error by hand', async () => {
    const double = new MailingDouble(mailingInput('simple', true));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await handle.executeUpdate(advanceUpdate, { args: [{}] });
      expect((await handle.executeUpdate(advanceUpdate, { args: [{ status: 'error' }] })).status).to.equal('error');
      expect(((await handle.result()) as Mailing).status).to.equal('error');
      expect(double.refunded).to.equal(false);
    });
  });

  it('a test mailing nobody advances ends in error at its idle limit (30 days, skipped), refunded while paid', async () => {
    const double = new MailingDouble(mailingInput('registered', true));
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      const before = await bench.env.now();
      const result = (await bench.env.skipping(() => handle.result())) as Mailing;
      expect(result.status).to.equal('error');
      expect((await bench.env.now()).getTime() - before.getTime()).to.be.at.least(30 * DAY);
      expect(double.calls).to.include('failShipment');
      expect(double.refunded).to.equal(true);
    });
  });

  it('a filed letter the operator never reports on ends in error at the silence limit', async () => {
    // Asked once a day (each question is an activity the skipping server waits for), for three days and a
    // half: the deadline never falls on the instant a question is retried, which the test server can
    // mishandle (a cancel meeting the retry).
    const double = new MailingDouble(mailingInput('registered', false, { trackingSilenceLimitMs: 3.5 * DAY, operatorPollMs: DAY }), {
      reports: () => undefined,
    });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      const result = (await bench.env.skipping(() => handle.result())) as Mailing;
      expect(result.status).to.equal('error');
      expect(double.moves).to.deep.equal(['printed', 'error']);
      // Filed: not refunded by the workflow (the letter left).
      expect(double.refunded).to.equal(false);
    });
  });

  it('waits for a record that comes late (the API answered before it committed)', async () => {
    const double = new MailingDouble(mailingInput('simple', true));
    double.recordDelay = 3;
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect((await handle.executeUpdate(advanceUpdate, { args: [{ step: 2 }] })).status).to.equal('posted');
      expect(double.calls.filter((c) => c === 'announceCommittedShipment')).to.have.length(4);
      expect(double.calls).not.to.include('abandonShipment');
      expect(((await handle.result()) as Mailing).status).to.equal('posted');
    });
  });

  it('resumed past payment by the reconciler: follows the operator from where the projection is, files nothing, announces no creation', async () => {
    const double = new MailingDouble(
      mailingInput('registered', false, { resumed: true }),
      { reports: stepByStep('registered') },
      { status: 'posted', step: 2 },
    );
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('delivered');
      expect(double.moves).to.deep.equal(['in_transit', 'delivered']);
      expect(double.calls).not.to.include('fileWithOperator');
      expect(types(double)).not.to.include('mailing.created');
    });
  });

  it('resumed long after payment and never filed: not posted late, refunded', async () => {
    const double = new MailingDouble(mailingInput('simple', false, { resumed: true }), {}, { createdAt: new Date(Date.now() - 8 * DAY).toISOString() });
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      expect(((await handle.result()) as Mailing).status).to.equal('error');
      expect(double.refunded).to.equal(true);
      expect(double.calls).not.to.include('fileWithOperator');
    });
  });

  /** The delivery children the mailing started. */
  const childIds = async (handle: WorkflowHandle): Promise<string[]> =>
    (await handle.fetchHistory())
      .events!.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)
      .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId!);
  const deliveryId = (double: MailingDouble, event: string, endpoint: string): string =>
    `${double.input.shipmentId}/${event}/${endpoint}`.replace(/[^a-z0-9-]/gi, '-');

  it("makes each event's first attempts itself, one activity for all endpoints: no workflow per delivery when they succeed", async () => {
    const double = new MailingDouble(mailingInput('simple', true));
    double.endpoints = ['endpoint-a', 'endpoint-b'];
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await handle.executeUpdate(advanceUpdate, { args: [{ step: 2 }] });
      await handle.result();
      expect(await childIds(handle)).to.deep.equal([]);
      // mailing.created, mailing.printed, mailing.posted and the filing proof: one activity each, to both endpoints.
      const history = (await handle.fetchHistory()).events!;
      const attempts = history.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverWebhooks');
      expect(attempts).to.have.length(4);
      expect(webhookAttempts.get(deliveryId(double, 'mailing.created/0', 'endpoint-b'))).to.deep.equal([1]);
    });
  });

  it('a failed first attempt starts one retry workflow, already retrying, which begins at attempt 2 and outlives the mailing', async () => {
    const double = new MailingDouble(mailingInput('simple', true));
    double.endpoints = ['endpoint-ok', 'endpoint-failing'];
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await handle.executeUpdate(advanceUpdate, { args: [{}] });
      await handle.executeUpdate(cancelUpdate, { args: [null] }).catch(() => undefined);
      // The second event's delivery starts after its first attempt failed: on a loaded machine,
      // a moment after the cancel returns.
      let ids = await childIds(handle);
      for (let i = 0; i < 50 && ids.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ids = await childIds(handle);
      }
      // Only the failing endpoint's deliveries, one per event (created, printed, …).
      expect(ids.length).to.be.at.least(2);
      expect(ids.every((id) => id.includes('endpoint-failing'))).to.equal(true);
      expect(ids[0]).to.equal(deliveryWorkflowId(deliveryId(double, 'mailing.created/0', 'endpoint-failing')));
      const child = bench.env.client.workflow.getHandle(ids[0]!);
      expect((await child.describe()).typedSearchAttributes.get(DELIVERY_STATUS)).to.be.oneOf(['retrying', 'delivered']);
      expect(await child.result()).to.deep.equal({ delivered: true, attempts: 2 });
      expect(webhookAttempts.get(deliveryId(double, 'mailing.created/0', 'endpoint-failing'))).to.deep.equal([1, 2]);
      const upserts = (await child.fetchHistory()).events!.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes);
      expect(upserts, 'retrying is set at start; only the end is upserted').to.have.length(1);
    });
  });

  it('first attempts that fail on our side (the activity itself fails) still go on to their retry schedule', async () => {
    const double = new MailingDouble(mailingInput('simple', true));
    double.endpoints = ['endpoint-throwing'];
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      const created = deliveryWorkflowId(deliveryId(double, 'mailing.created/0', 'endpoint-throwing'));
      for (let i = 0; i < 50 && !(await childIds(handle)).includes(created); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await childIds(handle)).to.include(created);
      expect(await bench.env.client.workflow.getHandle(created).result()).to.deep.equal({ delivered: true, attempts: 2 });
    });
  });

  it('does not end before its last events have been attempted', async () => {
    const double = new MailingDouble(mailingInput('simple', true));
    double.endpoints = ['endpoint-failing'];
    await bench.run(double, async (queue) => {
      const handle = await start(double, queue);
      await handle.executeUpdate(advanceUpdate, { args: [{ step: 2 }] });
      await handle.result();
      const ids = await childIds(handle);
      // The last events (mailing.posted and its proof) had their first attempt and their retry started before the end.
      expect(ids).to.include(deliveryWorkflowId(deliveryId(double, 'mailing.posted/2', 'endpoint-failing')));
      const history = (await handle.fetchHistory()).events!;
      const lastAttempt = history
        .map((e, i) => (e.activityTaskCompletedEventAttributes || e.activityTaskFailedEventAttributes ? i : -1))
        .reduce((a, b) => Math.max(a, b));
      const completed = history.findIndex((e) => e.workflowExecutionCompletedEventAttributes);
      expect(lastAttempt).to.be.below(completed);
    });
  });
});
