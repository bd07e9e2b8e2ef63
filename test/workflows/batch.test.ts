import { expect } from 'chai';
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
 * mailings chunk by chunk, one activity per chunk (which starts each mailing's own workflow, as
 * startBatchMailings does), continues as new every few chunks and every few counts, and completes
 * the batch once when every mailing is final. Batches started before BATCH_STARTS_PATCH (children)
 * are replayed from recorded histories (test/e2e/replay.test.ts).
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

  /** The mocked startBatchMailings: the chunk after `after` of `sorted`, each started once on `taskQueue` (already started is done). */
  function chunkStarter(sorted: MailingWorkflowInput[], taskQueue: () => string, asked: (string | null)[], already: string[] = []) {
    return async (_batchId: string, after: string | null, limit: number): Promise<{ started: number; last: string | null }> => {
      asked.push(after);
      const chunk = sorted.filter((input) => after === null || input.shipmentId > after).slice(0, limit);
      for (const input of chunk) {
        try {
          await bench.env.client.workflow.start('mailing', { ...mailingStartOptions({ input, reference: 'ref' }), taskQueue: taskQueue() });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
          already.push(input.shipmentId);
        }
      }
      return { started: chunk.length, last: chunk.at(-1)?.shipmentId ?? null };
    };
  }

  it('starts 10 mailings by chunks of 3, two chunks a run, then counts until all are final, continued as new throughout', async () => {
    const doubles = Array.from({ length: 10 }, () => new MailingDouble(mailingInput('simple', true)));
    const sorted = doubles.map((d) => d.input).sort((a, b) => (a.shipmentId < b.shipmentId ? -1 : 1));
    const asked: (string | null)[] = [];
    let queue = '';
    let counts = 0;
    let completed = 0;
    bench.batch = {
      startBatchMailings: chunkStarter(sorted, () => queue, asked),
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
      chunksPerRun: 2,
      countsPerRun: 2,
    };
    await bench.runMany(doubles, async (taskQueue) => {
      queue = taskQueue;
      const handle = await bench.env.client.workflow.start(mailingBatch, { taskQueue, workflowId: batchWorkflowId(batchId), args: [input] });
      // The hour between counts is skipped.
      await bench.env.skipping(() => handle.result());
      // Chunks asked after the last one started: 3 + 3 (run 1), 3 + 1 (run 2, the last chunk is short).
      expect(asked).to.deep.equal([null, sorted[2]!.shipmentId, sorted[5]!.shipmentId, sorted[8]!.shipmentId]);
      const history = await runs(handle, handle.firstExecutionRunId);
      const scheduled = (events: temporal.api.history.v1.IHistoryEvent[], name: string) =>
        events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === name).length;
      // Run 1 and 2 start the mailings, one activity per chunk; runs 3, 4 and 5 count (2, 2, then the 5th count is final).
      expect(history.map((events) => scheduled(events, 'startBatchMailings'))).to.deep.equal([2, 2, 0, 0, 0]);
      // No mailing is the batch's child any more, and the runs that start mailings carry the patch's marker.
      expect(history.flat().filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).to.have.length(0);
      const patchOf = (e: temporal.api.history.v1.IHistoryEvent): string | undefined => {
        // The SDK's core records { id, deprecated } as JSON under "patch-data".
        const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
        return e.markerRecordedEventAttributes?.markerName === 'core_patch' && data
          ? (JSON.parse(Buffer.from(data).toString()) as { id: string }).id
          : undefined;
      };
      const patchMarkers = history.map((events) => events.filter((e) => patchOf(e) === BATCH_STARTS_PATCH).length);
      expect(patchMarkers).to.deep.equal([1, 1, 0, 0, 0]);
      expect(history.slice(0, -1).every((events) => events.at(-1)!.workflowExecutionContinuedAsNewEventAttributes)).to.equal(true);
      expect(counts).to.equal(5);
      expect(completed).to.equal(1);
      // Each mailing ran under its own workflow id, once, and names its batch in its details.
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

  it('a chunk whose activity failed after some starts is asked again from the same mailing, none started twice', async () => {
    const doubles = Array.from({ length: 4 }, () => new MailingDouble(mailingInput('simple', true)));
    const sorted = doubles.map((d) => d.input).sort((a, b) => (a.shipmentId < b.shipmentId ? -1 : 1));
    const asked: (string | null)[] = [];
    const already: string[] = [];
    let queue = '';
    const starter = chunkStarter(sorted, () => queue, asked, already);
    let attempts = 0;
    bench.batch = {
      async startBatchMailings(batchId: string, after: string | null, limit: number) {
        attempts += 1;
        // The first attempt starts the first two mailings, then its worker is lost.
        if (attempts === 1) {
          await starter(batchId, after, 2);
          throw new Error('worker lost mid-chunk');
        }
        return starter(batchId, after, limit);
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
      // Asked again from the same place; the two started before the loss were found started, not started again.
      expect(asked).to.deep.equal([null, null]);
      expect(already).to.deep.equal(sorted.slice(0, 2).map((i) => i.shipmentId));
      for (const double of doubles) {
        const mailing = await bench.env.client.workflow.getHandle(mailingWorkflowId(double.input.shipmentId)).describe();
        expect(mailing.status.name).to.be.oneOf(['RUNNING', 'COMPLETED']);
        expect(double.calls).to.include('announceCommittedShipment');
      }
    });
  });
});
