import {
  patched,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  condition,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  allHandlersFinished,
  setCurrentDetails,
  sleep,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import type { Shipment } from '../domain/mailings/shipment.js';
import {
  advanceRefusal,
  isFinal,
  movesTo,
  PATHS,
  proofAt,
  type Mode,
  type MoveRefusal,
  type ShipmentStatus,
  type TestAdvance,
} from '../domain/mailings/states.js';
import type { EventType } from '../domain/webhooks/event-types.js';
import {
  advanceUpdate,
  cancelUpdate,
  deliverySearchAttributes,
  deliverySummary,
  deliveryWorkflowId,
  FILING_REJECTED,
  MAILING_STATUS,
  REFUSED_CONFLICT,
  REFUSED_INVALID,
  TEST_MAILING_IDLE_LIMIT_MS,
  TRACKING_SILENCE_LIMIT_MS,
  trackingQueue,
} from './contract.js';
import type { MailingWorkflowInput } from '../domain/mailings/workflow-input.js';
import { RECORD_WAIT } from '../domain/mailings/creation-protocol.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';
import { webhookDelivery } from './webhook-delivery.js';

// Short database writes run as local activities: no task-queue round trip between the steps of a
// move, which keeps webhook latency low; they are idempotent, like every activity here. Their
// attempts are bounded (local ones do not show among the UI's pending activities): past two
// minutes, the same write goes on as a regular activity, visible and retried until it succeeds.
const projection = withFallback(
  proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', scheduleToCloseTimeout: '2m', retry: { initialInterval: '1s', maximumInterval: '30s' } }),
  proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { initialInterval: '5s', maximumInterval: '5m' } }),
);
// The wait for the record: its timings are the creation protocol's (domain/mailings/creation-protocol.ts).
const creation = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: RECORD_WAIT.initialIntervalMs,
    backoffCoefficient: RECORD_WAIT.backoffCoefficient,
    maximumInterval: RECORD_WAIT.maximumIntervalMs,
    maximumAttempts: RECORD_WAIT.maximumAttempts,
  },
});
// A proof prints in about a second: a short timeout, so a lost worker's attempt is retried soon.
const PRINTING: ActivityOptions = { startToCloseTimeout: '20s', retry: { initialInterval: '1s', maximumInterval: '1m' } };
const printing = proxyActivities<Activities>(PRINTING);
// Filing is retried for as long as the operator does not confirm: the shipment stays `paid`.
const FILING: ActivityOptions = { startToCloseTimeout: '1m', retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' } };
const filing = proxyActivities<Activities>(FILING);
// Options are given per call (the poll interval is the mailing's): see operatorNews.
const trackingPolls = proxyActivities<Activities>({ startToCloseTimeout: '30s' });
// Runs started before the tracking polls wait for the operator inside one long activity.
const tracking = proxyActivities<Activities>({ startToCloseTimeout: '30d', heartbeatTimeout: '30s', retry: { initialInterval: '5s', maximumInterval: '10m' } });

/** A paid mailing still unfiled this long after its creation is not posted late: it is refunded. */
const STALE_PAID_LIMIT_MS = 7 * 24 * 3600_000;

const days = (ms: number): string => `${Math.round((ms / 86_400_000) * 10) / 10} days`;

/** Calls `local`'s activity; when its bounded attempts run out, the same one through `regular`. */
function withFallback<A extends object>(local: A, regular: A): A {
  const pick = (side: A, name: string | symbol) => (side as Record<string | symbol, (...args: unknown[]) => Promise<unknown>>)[name]!;
  return new Proxy(local, {
    get:
      (_, name) =>
      async (...args: unknown[]) => {
        try {
          return await pick(local, name)(...args);
        } catch (error) {
          // A refusal of the activity itself (e.g. a missing shipment) is final; time running out is not.
          const refused = error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.nonRetryable;
          if (!(error instanceof ActivityFailure) || refused) throw error;
          return pick(regular, name)(...args);
        }
      },
  });
}

/**
 * One mailing, from payment to its final state. Each move: the Postgres projection first (so the
 * API can read it), then the search attribute, then the events to the account's webhooks, then
 * any proof it makes available. Live shipments are filed with the postal operator and move as it
 * reports; test shipments move only through the `advance` update.
 */
export async function mailing(input: MailingWorkflowInput): Promise<Shipment | null> {
  const path = PATHS[input.mode];
  const last = path.length - 1;
  let status: ShipmentStatus = 'paid';
  let step = 0;
  let latest: Shipment;
  // Handlers are registered before the first await, so an early update is never lost; they wait
  // (busy) until mailing.created has gone out.
  let busy = true;
  let filed = false;

  /** The event announcing `type` at `atStep` (or a proof): its id derives from these, see recordWebhookEvent. */
  function eventOf(type: EventType, atStep: number, extra: { proof?: { kind: string }; endpointsCreatedBy?: string } = {}) {
    return {
      // The event's id derives from what it announces, never from the workflow's random seed: an
      // operator's Reset re-sends the same events with the same ids, so receivers deduplicate.
      eventKey: `${input.shipmentId}/${type}/${extra.proof?.kind ?? atStep}`,
      type,
      accountId: input.accountId,
      livemode: !input.test,
      created: new Date().toISOString(),
      ...extra,
    };
  }

  async function emit(type: EventType, shipment: Shipment, extra: { proof?: { kind: string }; endpointsCreatedBy?: string } = {}): Promise<void> {
    const event = { ...eventOf(type, step, extra), mailing: shipment };
    // Deliveries findable by account, endpoint, event and status in the Temporal UI; mailings of
    // older builds go on recording delivery ids alone (another activity: a worker of the previous
    // build that meets the new one in a history fails its task rather than misread the result).
    const deliveries: (DeliveryTarget | string)[] = patched('delivery-search-attributes')
      ? await projection.createWebhookDeliveries(event)
      : await projection.createWebhookEvent(event);
    await startDeliveries(type, deliveries);
  }

  async function startDeliveries(type: EventType, deliveries: (DeliveryTarget | string)[]): Promise<void> {
    for (const delivery of deliveries) {
      const target = typeof delivery === 'string' ? undefined : delivery;
      const deliveryId = target?.deliveryId ?? (delivery as string);
      try {
        await startChild(webhookDelivery, {
          workflowId: deliveryWorkflowId(deliveryId),
          args: [{ deliveryId, retryDelaysMs: input.webhookRetryDelaysMs }],
          staticSummary: target ? deliverySummary(target, input.shipmentId) : `${type} webhook of shipment ${input.shipmentId}`,
          ...(target ? { typedSearchAttributes: deliverySearchAttributes(target) } : {}),
          // Retries go on for a day after the mailing itself has finished; the mailing never waits
          // for a delivery's result (an abandoned delivery fails, which it ignores).
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
      } catch (error) {
        // An event sent again (after a Reset) may find its delivery still under way: it goes on.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    }
  }

  /** One move; `showStatus` false skips the search attribute of a step that the next move of the same batch passes. */
  async function moveTo(next: ShipmentStatus, nextStep: number, showStatus = true): Promise<void> {
    const type = `mailing.${next}` as EventType;
    const record = { shipmentId: input.shipmentId, step: nextStep, status: next, at: new Date().toISOString() };
    if (patched('step-with-its-event')) {
      // The step and its event in one local activity (one transaction): half the activities per move.
      const recorded = await projection.recordMove(record, eventOf(type, nextStep));
      latest = recorded.shipment;
      status = next;
      step = nextStep;
      if (showStatus) upsertSearchAttributes([{ key: MAILING_STATUS, value: next }]);
      await startDeliveries(type, recorded.deliveries);
    } else {
      latest = await projection.recordShipmentStep(record);
      status = next;
      step = nextStep;
      if (showStatus) upsertSearchAttributes([{ key: MAILING_STATUS, value: next }]);
      await emit(type, latest);
    }
    const proof = proofAt(input.mode, next);
    if (proof) {
      latest = await printing.generateProof.executeWithOptions({ ...PRINTING, summary: `${proof} proof` }, [input.shipmentId, proof]);
      await emit('mailing.proof_available', latest, { proof: { kind: proof } });
    }
  }

  /** Runs one move at a time, whichever handler asks. */
  async function exclusively<T>(work: () => Promise<T>): Promise<T> {
    await condition(() => !busy);
    busy = true;
    try {
      return await work();
    } finally {
      busy = false;
    }
  }

  /** A paid mailing that ended off its path (its projection already written): say so everywhere. */
  async function endedAs(ending: 'canceled' | 'error'): Promise<void> {
    status = ending;
    step = last;
    latest = await projection.shipmentSnapshot(input.shipmentId);
    upsertSearchAttributes([{ key: MAILING_STATUS, value: ending }]);
    await emit(`mailing.${ending}`, latest);
  }

  /** A refusal as the update's failure: its type tells the API 409 from 422. */
  const refuse = (refusal: MoveRefusal): ApplicationFailure =>
    ApplicationFailure.create({ type: refusal.kind === 'invalid' ? REFUSED_INVALID : REFUSED_CONFLICT, message: refusal.message, nonRetryable: true });

  setHandler(
    advanceUpdate,
    (request) =>
      exclusively(async () => {
        // Checked again: another move may have run while this one waited its turn.
        const refusal = advanceRefusal({ mode: input.mode, status, step, test: input.test }, request);
        if (refusal) throw refuse(refusal);
        if (request.status) {
          await moveTo(request.status, last);
        } else {
          const target = request.step ?? step + 1;
          // Several steps at once: the search attribute is set once, to where the batch ends.
          const once = target > step + 1 && patched('one-status-upsert-per-batch');
          for (let s = step + 1; s <= target; s++) await moveTo(path[s]!, s, !once || s === target);
        }
        return latest;
      }),
    {
      // Refused moves are rejected here, so they never enter the workflow's history.
      validator: (request: TestAdvance) => {
        const refusal = advanceRefusal({ mode: input.mode, status, step, test: input.test }, request);
        if (refusal) throw refuse(refusal);
      },
    },
  );

  // Filing runs in its own scope: a cancellation the database accepted stops its retries.
  const filingScope = new CancellationScope();
  // Read through a function: handlers change `status` behind the main path's back.
  const canceled = (): boolean => status === 'canceled';

  // Filing is not one of the exclusive moves: a cancellation never waits behind its retries.
  setHandler(cancelUpdate, () =>
    exclusively(async () => {
      if (status !== 'paid' || filed)
        throw refuse({ kind: 'conflict', message: `Only a paid mailing can be canceled; this one is ${filed ? 'filed' : status}.` });
      const at = new Date().toISOString();
      if (!(await projection.cancelShipment({ shipmentId: input.shipmentId, step: last, at }))) {
        throw refuse({ kind: 'conflict', message: 'The letter has already been handed to the postal operator.' });
      }
      filingScope.cancel();
      await endedAs('canceled');
      return latest;
    }),
  );

  for (;;) {
    try {
      latest = await creation.committedShipment(input.shipmentId);
      break;
    } catch {
      // Histories from before the tombstone simply ended here.
      if (!patched('record-or-tombstone')) return null;
      // The record never came: the tombstone makes a late record fail, so nothing is charged
      // for a mailing without its workflow. If the record won the race, wait for it again.
      if ((await projection.abandonShipment(input.shipmentId)) === 'abandoned') return null;
    }
  }
  if (latest.status === 'paid') {
    if (input.resumed && Date.now() - Date.parse(latest.createdAt) > STALE_PAID_LIMIT_MS) {
      // Resumed by the reconciler long after it was paid: too late to post it; refunded.
      if (await projection.failShipment({ shipmentId: input.shipmentId, step: last, at: new Date().toISOString() })) await endedAs('error');
      return latest;
    }
    // Only the endpoints declared when the mailing was created hear of its creation.
    await emit('mailing.created', latest, { endpointsCreatedBy: latest.createdAt });
  } else {
    // Resumed by the reconciler past payment: it goes on from where the projection is.
    status = latest.status;
    step = latest.step;
    filed = true;
  }
  busy = false;

  if (!input.test) {
    let outcome: 'filed' | 'canceled' | 'rejected' = filed ? 'filed' : 'canceled';
    try {
      if (!filed && !canceled()) {
        setCurrentDetails('Filing with the postal operator: retried while it does not confirm; cancelable until an attempt reaches it.');
        outcome = await filingScope.run(() =>
          filing.fileWithOperator.executeWithOptions({ ...FILING, summary: `file the ${input.mode} letter with the operator` }, [input.shipmentId]),
        );
      }
    } catch (error) {
      if (isCancellation(error) && canceled()) outcome = 'canceled';
      else if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === FILING_REJECTED) outcome = 'rejected';
      else throw error;
    }
    if (outcome === 'rejected') {
      // The letter can never be filed: the mailing ends in error and the customer is refunded.
      await exclusively(async () => {
        if (await projection.failShipment({ shipmentId: input.shipmentId, step: last, at: new Date().toISOString() })) await endedAs('error');
      });
    }
    if (outcome === 'filed' && status === 'paid') {
      await exclusively(async () => {
        filed = true;
        await moveTo('printed', 1);
      });
    }
    while (outcome === 'filed' && !isFinal(input.mode, status)) {
      if (patched('tracking-polls')) {
        const reported = await operatorNews();
        await exclusively(async () => {
          const moves = movesTo(input.mode, status, reported);
          for (const [i, [next, nextStep]] of moves.entries()) await moveTo(next, nextStep, i === moves.length - 1);
        });
      } else {
        const next = await tracking.awaitOperatorStatus(input.shipmentId, input.mode, status);
        await exclusively(() => moveTo(next, next === 'returned' || next === 'error' ? last : path.indexOf(next as (typeof path)[number])));
      }
    }
  } else if (patched('test-mailing-idle-limit')) {
    // A test mailing left alone for 30 days ends in error (a later advance gets 409, like any
    // final mailing): no sandbox execution stays open forever.
    const idleLimitMs = input.testIdleLimitMs ?? TEST_MAILING_IDLE_LIMIT_MS;
    while (!isFinal(input.mode, status)) {
      const at = step;
      setCurrentDetails(`Waiting for a test advance from step ${step} (${status}); ends in error after ${days(idleLimitMs)} without one.`);
      // Re-armed once per advance, not per step of it: one timer for `{ step: 5 }`.
      if (await condition(() => (step !== at && !busy) || isFinal(input.mode, status), idleLimitMs)) continue;
      await exclusively(async () => {
        if (isFinal(input.mode, status)) return;
        if (status === 'paid') {
          if (await projection.failShipment({ shipmentId: input.shipmentId, step: last, at: new Date().toISOString() })) await endedAs('error');
        } else await moveTo('error', last);
      });
    }
  }
  await condition(() => isFinal(input.mode, status));
  await condition(allHandlersFinished);
  return latest;

  /**
   * The operator's next news of the letter, asked on the tracking task queue: each question is a
   * short activity and its retry policy the polling schedule, so a letter in transit for weeks
   * holds no worker slot. Thirty days of silence mean its tracking is lost: `error`.
   */
  async function operatorNews(): Promise<ShipmentStatus> {
    const pollMs = Math.max(100, input.operatorPollMs ?? 60_000);
    const silenceLimitMs = input.trackingSilenceLimitMs ?? TRACKING_SILENCE_LIMIT_MS;
    setCurrentDetails(`Asking the postal operator every ${pollMs} ms for news after ${status}; ${days(silenceLimitMs)} of silence end in error.`);
    const question = {
      taskQueue: trackingQueue(workflowInfo().taskQueue),
      startToCloseTimeout: '30s',
      summary: `tracking after ${status}`,
    };
    const args: [string, Mode, ShipmentStatus] = [input.shipmentId, input.mode, status];
    // Asked once first: when the operator already has news, no deadline timer is needed.
    try {
      return await trackingPolls.checkOperatorStatus.executeWithOptions({ ...question, retry: { maximumAttempts: 1 } }, args);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
    }
    // Then again on the poll interval, raced with the deadline, a timer of the workflow: it counts
    // workflow time whatever the retries do, and whichever ends first cancels the other.
    const questions = new CancellationScope();
    const deadline = new CancellationScope();
    const news = questions.run(() =>
      trackingPolls.checkOperatorStatus.executeWithOptions(
        { ...question, retry: { initialInterval: pollMs, backoffCoefficient: 1, maximumInterval: pollMs } },
        args,
      ),
    );
    const silence = deadline.run(() => sleep(silenceLimitMs));
    const first = await Promise.race([news.then((reported) => ({ reported })), silence.then(() => undefined)]);
    if (first) {
      deadline.cancel();
      await silence.catch(() => undefined);
      return first.reported;
    }
    questions.cancel();
    await news.catch(() => undefined);
    return 'error';
  }
}
