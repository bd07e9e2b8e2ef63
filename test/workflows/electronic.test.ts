import { expect } from 'chai';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import type { Mailing, MailingElectronic } from '../../domain/mailings/mailing.js';
import type { Fallback, MailingStatus, Mode } from '../../domain/mailings/states.js';
import { advanceUpdate, cancelUpdate, electronicHintSignal, REFUSED_CONFLICT, REFUSED_INVALID } from '../../workflows/contract.js';
import { mailing } from '../../workflows/mailing.js';
import { MailingDouble, mailingInput, stepByStep, WorkflowTestBench } from './support.js';

const DAY = 24 * 3600_000;

/**
 * The electronic channel's paths of the mailing workflow (issue 54), alone: the real workflow on
 * the time-skipping test server, its activities the in-memory double of test/workflows/support.ts
 * with a scripted provider. Sandbox advances, live sending (retries, a refusal), the provider
 * followed by polling and by its callback's hint, and the paper fallback with its hold.
 */
describe('the mailing workflow: the electronic channel (mocked activities, time-skipping server)', function () {
  this.timeout(90_000);
  const bench = new WorkflowTestBench();
  before(async function () {
    this.timeout(180_000);
    await bench.start();
  });
  after(() => bench.stop());

  const electronic = (fallback: Fallback): MailingElectronic => ({
    recipientKind: 'professional',
    consent: null,
    fallback,
    fallbackUsed: false,
    providerReference: null,
  });
  const doubleOf = (mode: Mode, test: boolean, fallback: Fallback, extra = {}) =>
    new MailingDouble(
      mailingInput(mode, test, { electronic: { fallback }, ...extra }),
      {},
      { channel: 'electronic', electronic: electronic(fallback), lastStep: 3 },
    );
  const start = (double: MailingDouble, taskQueue: string): Promise<WorkflowHandle<typeof mailing>> =>
    bench.env.client.workflow.start(mailing, { taskQueue, workflowId: `mailing-${double.input.shipmentId}`, args: [double.input] });
  const types = (double: MailingDouble) => double.events.map((e) => (e.proof ? `${e.type}:${e.proof}` : e.type));
  const advance = (handle: WorkflowHandle, body: object) => handle.executeUpdate(advanceUpdate, { args: [body] });

  async function refusalOf(work: Promise<unknown>): Promise<string | undefined> {
    try {
      await work;
      return undefined;
    } catch (error) {
      expect(error).to.be.instanceOf(WorkflowUpdateFailedError);
      return ((error as WorkflowUpdateFailedError).cause as ApplicationFailure).type ?? undefined;
    }
  }

  /** A provider that moves a sent letter one step along sent → notified → `end` at each question. */
  const towards =
    (end: MailingStatus) =>
    (current: MailingStatus): MailingStatus | undefined =>
      current === 'sent' ? 'notified' : current === 'notified' ? end : undefined;

  describe('sandbox (test mailings: advance)', () => {
    it('{} moves sent → notified → accepted, each with its event, the deposit and acceptance proofs; the mailing is final at step 3', async () => {
      const double = doubleOf('ar', true, 'none');
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        expect(await advance(handle, {})).to.include({ status: 'sent', step: 1 });
        expect(await advance(handle, {})).to.include({ status: 'notified', step: 2 });
        expect(await advance(handle, {})).to.include({ status: 'accepted', step: 3 });
        expect(((await handle.result()) as Mailing).status).to.equal('accepted');
        expect(types(double)).to.deep.equal([
          'mailing.created',
          'mailing.sent',
          'mailing.proof_available:deposit',
          'mailing.notified',
          'mailing.accepted',
          'mailing.proof_available:acceptance',
        ]);
        expect(double.calls).not.to.include('sendElectronicLetter');
        expect(double.holds).to.deep.equal(['refund']);
      });
    });

    for (const [end, proof] of [
      ['refused', 'refusal'],
      ['unclaimed', 'negligence'],
      ['bounced', undefined],
    ] as const) {
      it(`{ status: "${end}" } without a fallback ends at step 3${proof ? ` with the ${proof} proof` : ', no proof'}, final`, async () => {
        const double = doubleOf('registered', true, 'none');
        await bench.run(double, async (queue) => {
          const handle = await start(double, queue);
          await advance(handle, { step: 1 });
          expect(await advance(handle, { status: end })).to.include({ status: end, step: 3, lastStep: 3 });
          // Final: the workflow completes (the API answers a later advance 409 from the projection).
          await handle.result();
          expect(double.moves).to.deep.equal(['sent', end]);
          expect(types(double).slice(-2)).to.deep.equal(
            proof ? [`mailing.${end}`, `mailing.proof_available:${proof}`] : ['mailing.proof_available:deposit', `mailing.${end}`],
          );
          expect(double.holds).to.deep.equal([]);
        });
      });
    }

    it('with fallback paper, refused moves on to the paper path: lastStep 8 (ar), printed 4 … ar_signed 8 with the paper proofs; the hold becomes the charge', async () => {
      const double = doubleOf('ar', true, 'paper');
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        await advance(handle, { step: 2 });
        const refused = await advance(handle, { status: 'refused' });
        expect(refused).to.include({ status: 'refused', step: 3, lastStep: 8 });
        expect(refused.electronic).to.include({ fallbackUsed: true });
        // The electronic path is over; the paper one takes {} and { step }, returned and error.
        expect(await refusalOf(advance(handle, { status: 'accepted' }))).to.equal(REFUSED_CONFLICT);
        expect(await refusalOf(advance(handle, { step: 9 }))).to.equal(REFUSED_INVALID);
        expect(await advance(handle, {})).to.include({ status: 'printed', step: 4 });
        expect(await advance(handle, { step: 8 })).to.include({ status: 'ar_signed', step: 8 });
        expect(((await handle.result()) as Mailing).status).to.equal('ar_signed');
        expect(double.moves).to.deep.equal(['sent', 'notified', 'refused', 'printed', 'posted', 'in_transit', 'delivered', 'ar_signed']);
        expect(double.proofs).to.deep.equal(['deposit', 'refusal', 'filing', 'delivery']);
        expect(double.holds).to.deep.equal(['charge']);
      });
    });

    it('with fallback paper, unclaimed then { status: "returned" } once posted ends at lastStep 7 (registered) with the return proof', async () => {
      const double = doubleOf('registered', true, 'paper');
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        await advance(handle, { status: 'unclaimed' });
        expect(await refusalOf(advance(handle, { status: 'returned' }))).to.equal(REFUSED_CONFLICT);
        await advance(handle, { step: 5 });
        expect(await advance(handle, { status: 'returned' })).to.include({ status: 'returned', step: 7, lastStep: 7 });
        await handle.result();
        expect(double.moves).to.deep.equal(['unclaimed', 'printed', 'posted', 'returned']);
        expect(double.proofs).to.deep.equal(['negligence', 'filing', 'return']);
      });
    });

    it('with fallback paper, an error before the letter is posted refunds the hold; { status: "returned" } and { step: 4 } are refused on the electronic path', async () => {
      const double = doubleOf('registered', true, 'paper');
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        await advance(handle, {});
        expect(await refusalOf(advance(handle, { status: 'returned' }))).to.equal(REFUSED_CONFLICT);
        expect(await refusalOf(advance(handle, { step: 4 }))).to.equal(REFUSED_INVALID);
        expect(await advance(handle, { status: 'error' })).to.include({ status: 'error', step: 3 });
        await handle.result();
        expect(double.holds).to.deep.equal(['refund']);
      });
    });

    it('a paid test mailing is canceled as a paper one: refunded (both debits, by the projection)', async () => {
      const double = doubleOf('ar', true, 'paper');
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        expect(await handle.executeUpdate(cancelUpdate, { args: [null] })).to.include({ status: 'canceled' });
        await handle.result();
        expect(double.refunded).to.equal(true);
      });
    });
  });

  describe('live (the provider)', () => {
    it('sent once after the maintenance answers, followed to accepted: the provider proofs, the hold refunded', async () => {
      const double = doubleOf('ar', false, 'paper');
      double.provider = { sending: (n) => (n < 3 ? 'unavailable' : 'sent'), reports: towards('accepted') };
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        const result = (await handle.result()) as Mailing;
        expect(result).to.include({ status: 'accepted', step: 3 });
        expect(double.sendingAttempts).to.equal(3);
        expect(double.calls.filter((c) => c === 'fileWithOperator')).to.deep.equal([]);
        expect(double.moves).to.deep.equal(['sent', 'notified', 'accepted']);
        expect(double.calls.filter((c) => c.startsWith('publish'))).to.deep.equal(['publishElectronicProof:deposit', 'publishElectronicProof:acceptance']);
        expect(double.holds).to.deep.equal(['refund']);
      });
    });

    it('a letter the provider refuses for good ends in error after one attempt, refunded', async () => {
      const double = doubleOf('registered', false, 'none');
      double.provider = { sending: () => 'rejected' };
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        expect(((await handle.result()) as Mailing).status).to.equal('error');
        expect(double.sendingAttempts).to.equal(1);
        expect(double.refunded).to.equal(true);
        expect(double.events.find((e) => e.type === 'mailing.error')?.details?.reason).to.include('refuses the letter');
      });
    });

    it("refused with fallback paper: the same letter is filed with the operator and followed to delivered at step 7; both paths' proofs", async () => {
      const double = new MailingDouble(
        mailingInput('registered', false, { electronic: { fallback: 'paper' } }),
        { reports: stepByStep('registered') },
        { channel: 'electronic', electronic: electronic('paper'), lastStep: 3 },
      );
      double.provider = { reports: towards('refused') };
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        const result = (await handle.result()) as Mailing;
        expect(result).to.include({ status: 'delivered', step: 7, lastStep: 7 });
        expect(double.moves).to.deep.equal(['sent', 'notified', 'refused', 'printed', 'posted', 'in_transit', 'delivered']);
        expect(double.calls.filter((c) => c === 'fileWithOperator')).to.have.length(1);
        expect(double.calls.filter((c) => c.startsWith('publish'))).to.deep.equal([
          'publishElectronicProof:deposit',
          'publishElectronicProof:refusal',
          'publishProof:filing',
          'publishProof:delivery',
        ]);
        expect(double.holds).to.deep.equal(['charge']);
      });
    });

    it('refused with fallback paper, the operator refusing the paper letter for good: error at step 3, mailing.error with its reason, the hold refunded', async () => {
      const double = new MailingDouble(
        mailingInput('registered', false, { electronic: { fallback: 'paper' } }),
        { filing: () => 'rejected' },
        { channel: 'electronic', electronic: electronic('paper'), lastStep: 3 },
      );
      double.provider = { reports: towards('refused') };
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        const result = (await handle.result()) as Mailing;
        expect(result).to.include({ status: 'error' });
        expect(double.moves).to.deep.equal(['sent', 'notified', 'refused', 'error']);
        const ended = double.events.find((e) => e.type === 'mailing.error');
        expect(ended?.details?.reason).to.match(/^The postal operator refused the paper fallback letter: .*ADDRESS_LINE_6_WRONG_FORMAT/);
        expect(double.holds).to.deep.equal(['refund']);
      });
    });

    it('bounced without a fallback ends at step 3 after sent (no notice), the deposit its only proof', async () => {
      const double = doubleOf('ar', false, 'none');
      double.provider = { reports: (current) => (current === 'sent' ? 'bounced' : undefined) };
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        expect(((await handle.result()) as Mailing).status).to.equal('bounced');
        expect(double.moves).to.deep.equal(['sent', 'bounced']);
        expect(double.proofs).to.deep.equal(['deposit']);
      });
    });

    it('a provider silent past the tracking limit ends the letter in error (the hold refunded)', async () => {
      // Asked once a day (each question is an activity the skipping server waits for), for three days and a
      // half: the deadline never falls on the instant a question is retried, which the test server can
      // mishandle (a cancel meeting the retry).
      const double = doubleOf('registered', false, 'paper', { trackingSilenceLimitMs: 3.5 * DAY, operatorPollMs: DAY });
      double.provider = { reports: () => undefined };
      await bench.run(double, async (queue) => {
        const handle = await start(double, queue);
        expect(((await bench.env.skipping(() => handle.result())) as Mailing).status).to.equal('error');
        expect(double.moves).to.deep.equal(['sent', 'error']);
        expect(double.holds).to.deep.equal(['refund']);
      });
    });
  });

  // The hint cancels the question waiting for its retry: the time-skipping server refuses that
  // cancel now and then ("ACTIVITY_UNKNOWN", then the run never gets another task), a real server
  // does not. Nothing here needs time skipped.
  describe('live, on a real Temporal server (the dev server)', () => {
    const real = new WorkflowTestBench('dev');
    before(async function () {
      this.timeout(180_000);
      await real.start();
    });
    after(() => real.stop());

    it("a callback's hint reads the state again at once, long before the next poll", async () => {
      const double = doubleOf('registered', false, 'none', { operatorPollMs: 10 * DAY, trackingSilenceLimitMs: 40 * DAY });
      let decided = false;
      double.provider = { reports: (current) => (current === 'sent' ? 'notified' : decided ? 'accepted' : undefined) };
      await real.run(double, async (queue) => {
        const handle = await real.env.client.workflow.start(mailing, {
          taskQueue: queue,
          workflowId: `mailing-${double.input.shipmentId}`,
          args: [double.input],
        });
        for (let i = 0; i < 100 && !double.moves.includes('notified'); i++) await new Promise((r) => setTimeout(r, 50));
        expect(double.moves).to.deep.equal(['sent', 'notified']);
        decided = true;
        await handle.signal(electronicHintSignal);
        // Only the hint can make it ask again before ten days.
        expect(((await handle.result()) as Mailing).status).to.equal('accepted');
        const { startTime, closeTime } = await handle.describe();
        expect(closeTime!.getTime() - startTime.getTime()).to.be.below(DAY);
      });
    });
  });
});
