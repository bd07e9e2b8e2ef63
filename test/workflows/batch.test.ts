import { expect } from 'chai';
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { BatchWorkflowInput } from '../../domain/batches/workflow-input.js';
import type { MailingWorkflowInput } from '../../domain/mailings/workflow-input.js';
import { batchWorkflowId, mailingStartOptions, mailingWorkflowId } from '../../workflows/contract.js';
import { BATCH_STARTS_PATCH, mailingBatch } from '../../workflows/batch.js';
import { MailingDouble, mailingInput, WorkflowTestBench } from './support.js';

const HOUR = 3600_000;

/**
 * The batch workflow alone, on the time-skipping server with mocked activities: it starts its
 * mailings in one activity (which starts each mailing's own workflow, as startAllBatchMailings
 * does, and resumes from its last heartbeat when retried), continues as new every few counts, and
 * completes the batch once when every mailing is final. Batches started before BATCH_STARTS_PATCH
 * (children) are replayed from recorded histories (test/e2e/replay.test.ts).
 */
describe('the batch workflow (mocked activities, time-skipping server)', function () {
  this.timeout(60_000);
  const bench = new WorkflowTestBench();
  before(async function () {
    this.timeout(180_000);
    await bench.start();
  });
  after(() => bench.stop());

  /** The runs of a workflow, first to last: each run's history events. */
  async function runs(handle: WorkflowHandle, firstRunId: string): Promise<temporal.api.history.v1.IHistoryEvent[][]> {
    const found: temporal.api.history.v1.IHistoryEvent[][] = [];
    for (let runId: string | undefined = firstRunId; runId;) {
      const events: temporal.api.history.v1.IHistoryEvent[] = (await bench.env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events!;
      found.push(events);
      runId = events.at(-1)!.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }
    return found;
  }

  /**
   * The mocked startAllBatchMailings: every mailing of `sorted` after `after` (or after the last
   * attempt's heartbeat), each started once on `taskQueue` (already started is done), a heartbeat
   * after each start naming it; `stopAfter` starts: the attempt fails (its worker lost).
   */
  function allStarter(sorted: MailingWorkflowInput[], taskQueue: () => string, asked: unknown[][], already: string[] = [], stopAfter = Infinity) {
    return async (_batchId: string, after: string | null, chunkSize: number): Promise<number> => {
      const resumeFrom = (Context.current().info.heartbeatDetails as string | null | undefined) ?? after;
      asked.push([after, chunkSize, resumeFrom]);
      let started = 0;
      for (const input of sorted.filter((i) => resumeFrom === null || i.shipmentId > resumeFrom)) {
        if (started === stopAfter) {
          // Long enough for the heartbeat to reach the server before the loss.
          await new Promise((resolve) => setTimeout(resolve, 200));
          throw new Error('worker lost mid-batch');
        }
        try {
          await bench.env.client.workflow.start('mailing', { ...mailingStartOptions({ input, reference: 'ref' }), taskQueue: taskQueue() });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
          already.push(input.shipmentId);
        }
        started += 1;
        Context.current().heartbeat(input.shipmentId);
      }
      return started;
    };
  }

  it('starts 10 mailings in one activity, then counts until all are final, continued as new every two counts', async () => {
    const doubles = Array.from({ length: 10 }, () => new MailingDouble(mailingInput('simple', true)));
    const sorted = doubles.map((d) => d.input).sort((a, b) => (a.shipmentId < b.shipmentId ? -1 : 1));
    const asked: unknown[][] = [];
    let queue = '';
    let counts = 0;
    let completed = 0;
    bench.batch = {
      startAllBatchMailings: allStarter(sorted, () => queue, asked),
      async batchIsFinal() {
        counts += 1;
        return counts >= 5;
      },
      async completeBatch() {
        completed += 1;
        return [];
      },
    };
    const batchId = crypto.randomUUID();
    const input: BatchWorkflowInput = {
      batchId,
      accountId: crypto.randomUUID(),
      test: true,
      pollMs: HOUR,
      webhookRetryDelaysMs: [1000],
      chunkSize: 3,
      countsPerRun: 2,
    };
    await bench.runMany(doubles, async (taskQueue) => {
      queue = taskQueue;
      const handle = await bench.env.client.workflow.start(mailingBatch, { taskQueue, workflowId: batchWorkflowId(batchId), args: [input] });
      // The hour between counts is skipped.
      await bench.env.skipping(() => handle.result());
      // Asked once, from the first mailing, to read 3 at a time.
      expect(asked).to.deep.equal([[null, 3, null]]);
      const history = await runs(handle, handle.firstExecutionRunId);
      const scheduled = (events: temporal.api.history.v1.IHistoryEvent[], name: string) =>
        events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === name).length;
      // Run 1 starts every mailing and counts twice; runs 2 and 3 count (2, then the 5th count is final).
      expect(history.map((events) => scheduled(events, 'startAllBatchMailings'))).to.deep.equal([1, 0, 0]);
      expect(history.map((events) => scheduled(events, 'batchIsFinal'))).to.deep.equal([2, 2, 1]);
      // No mailing is the batch's child, and the run that starts them carries the patch's marker.
      expect(history.flat().filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).to.have.length(0);
      const patchOf = (e: temporal.api.history.v1.IHistoryEvent): string | undefined => {
        // The SDK's core records { id, deprecated } as JSON under "patch-data".
        const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
        return e.markerRecordedEventAttributes?.markerName === 'core_patch' && data
          ? (JSON.parse(Buffer.from(data).toString()) as { id: string }).id
          : undefined;
      };
      expect(history.map((events) => events.filter((e) => patchOf(e) === BATCH_STARTS_PATCH).length)).to.deep.equal([1, 0, 0]);
      expect(history.slice(0, -1).every((events) => events.at(-1)!.workflowExecutionContinuedAsNewEventAttributes)).to.equal(true);
      expect(counts).to.equal(5);
      expect(completed).to.equal(1);
      // Each mailing ran under its own workflow id, once.
      for (const double of doubles) {
        const mailing = await bench.env.client.workflow.getHandle(mailingWorkflowId(double.input.shipmentId)).describe();
        expect(mailing.parentExecution).to.equal(undefined);
        expect(mailing.status.name).to.be.oneOf(['RUNNING', 'COMPLETED']);
        expect(double.calls).to.include('announceCommittedShipment');
      }
      // Waits are timers of pollMs, not a tight poll: one per count that found the batch unfinished.
      const timers = history.flat().filter((e) => e.timerStartedEventAttributes);
      expect(timers).to.have.length(4);
    });
  });

  it('an attempt lost after some starts is retried from its last heartbeat, none started twice', async () => {
    const doubles = Array.from({ length: 4 }, () => new MailingDouble(mailingInput('simple', true)));
    const sorted = doubles.map((d) => d.input).sort((a, b) => (a.shipmentId < b.shipmentId ? -1 : 1));
    const asked: unknown[][] = [];
    const already: string[] = [];
    let queue = '';
    let attempts = 0;
    bench.batch = {
      startAllBatchMailings(batchId: string, after: string | null, chunkSize: number) {
        attempts += 1;
        // The first attempt starts the first two mailings, then its worker is lost.
        return allStarter(sorted, () => queue, asked, already, attempts === 1 ? 2 : Infinity)(batchId, after, chunkSize);
      },
      batchIsFinal: async () => true,
      completeBatch: async () => [],
    };
    await bench.runMany(doubles, async (taskQueue) => {
      queue = taskQueue;
      const batchId = crypto.randomUUID();
      const accountId = doubles[0]!.input.accountId;
      const input: BatchWorkflowInput = { batchId, accountId, test: true, pollMs: HOUR, webhookRetryDelaysMs: [1000], chunkSize: 10 };
      await bench.env.skipping(() => bench.env.client.workflow.execute(mailingBatch, { taskQueue, workflowId: batchWorkflowId(batchId), args: [input] }));
      // The retry is given the last heartbeat of the lost attempt and resumes after it: nothing started twice.
      expect(asked).to.deep.equal([
        [null, 10, null],
        [null, 10, sorted[1]!.shipmentId],
      ]);
      expect(already).to.deep.equal([]);
      for (const double of doubles) {
        const mailing = await bench.env.client.workflow.getHandle(mailingWorkflowId(double.input.shipmentId)).describe();
        expect(mailing.status.name).to.be.oneOf(['RUNNING', 'COMPLETED']);
        expect(double.calls).to.include('announceCommittedShipment');
      }
    });
  });
});
