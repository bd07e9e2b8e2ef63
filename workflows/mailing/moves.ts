import { ParentClosePolicy, patched, startChild, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { ELECTRONIC_LAST_STEP, FALLBACK_ENDS, lastStepOf, proofOfMove, type MailingStatus } from '../../domain/mailings/states.js';
import type { ProofWithEvent, StepRecord } from '../../domain/mailings/projection.js';
import type { ElectronicProofKind } from '../../domain/mailings/electronic.js';
import { mailingEventKey, type DeliveryTarget, type EventType } from '../../domain/webhooks/event-types.js';
import { deliverySearchAttributes, deliverySummary, deliveryWorkflowId, MAILING_STATUS } from '../contract.js';
import { answer, webhookDelivery } from '../webhook-delivery.js';
import { creation, DELIVERING, delivering, electronicProofs, PRINTING, printing, PROOFS_TOGETHER, projection, PROVIDER_PROOFS } from './activities.js';
import type { AttemptResult } from '../../activities/webhooks.js';
import { MOVES_TOGETHER_PATCH, type MailingRun } from './run.js';

type EventExtra = { proof?: { kind: string }; endpointsCreatedBy?: string; details?: { reason: string } };

/** The event announcing `type` at `atStep` (or a proof): its id derives from these, see recordWebhookEvent. */
function eventOf(run: MailingRun, type: EventType, atStep: number, extra: EventExtra = {}) {
  const { input } = run;
  return {
    eventKey: mailingEventKey(input.shipmentId, type, extra.proof?.kind ?? atStep),
    type,
    accountId: input.accountId,
    livemode: !input.test,
    created: new Date().toISOString(),
    ...extra,
  };
}

/**
 * A delivery whose first attempt failed goes on in a workflow of its own, findable in the UI by
 * account, endpoint, event and status (`retrying` from its start), which outlives the mailing.
 */
async function startRetries(run: MailingRun, target: DeliveryTarget, result: AttemptResult | undefined): Promise<void> {
  try {
    await startChild(webhookDelivery, {
      workflowId: deliveryWorkflowId(target.deliveryId),
      args: [
        { deliveryId: target.deliveryId, retryDelaysMs: run.input.webhookRetryDelaysMs, firstAttemptFailed: { answer: result ? answer(result) : 'no answer' } },
      ],
      staticSummary: deliverySummary(target, run.input.shipmentId),
      typedSearchAttributes: deliverySearchAttributes(target, 'retrying'),
      // Retries go on for a day after the mailing itself has finished; the mailing never waits
      // for a delivery's result (an abandoned delivery fails, which it ignores).
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    // An event sent again (after a Reset) may find its delivery still under way: it goes on.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/**
 * Sends an event to its endpoints: the first attempts, all at once, in one activity of this
 * workflow (most deliveries end there: no workflow per delivery, a few Temporal actions per event
 * whatever the number of endpoints); each delivery that failed then starts its retry schedule.
 * The mailing goes on meanwhile, and ends only once they are done (run.deliveries).
 */
function startDeliveries(run: MailingRun, deliveries: DeliveryTarget[]): void {
  if (deliveries.length === 0) return;
  const sending = async (): Promise<void> => {
    let results: AttemptResult[] | undefined;
    try {
      results = await delivering.deliverWebhooks.executeWithOptions({ ...DELIVERING, summary: `${deliveries[0]!.eventType} webhooks` }, [
        deliveries,
        new Date().toISOString(),
      ]);
    } catch {
      // Not attempted as far as we know: each one goes on to its retry schedule.
    }
    for (const [i, target] of deliveries.entries()) {
      const result = results?.[i];
      if (!result?.delivered && !result?.canceled) await startRetries(run, target, result);
    }
  };
  run.deliveries.push(sending());
}

/**
 * A new mailing: starts the deliveries of its `mailing.created`. The API recorded the event with the
 * mailing and passed it in the input (nothing to wait for: the first task schedules the first
 * attempts); otherwise the workflow waits for its record (the creation protocol's retries) and
 * records the event in the same local activity (or finds it recorded).
 */
export async function announceRecord(run: MailingRun): Promise<void> {
  const { created } = run.input;
  // A run an operator reset (a new run of the same execution) reads the projection instead: the
  // mailing may have moved on since its input was written.
  const { runId, originalExecutionRunId } = workflowInfo();
  const announced =
    created && runId === originalExecutionRunId
      ? { shipment: created.mailing, deliveries: created.deliveries }
      : await creation.announceCommittedShipment(run.input.shipmentId, eventOf(run, 'mailing.created', run.step));
  run.latest = announced.shipment;
  startDeliveries(run, announced.deliveries);
}

/** Records an event about the mailing as it is (no move) and starts its deliveries. */
export async function announce(run: MailingRun, type: EventType, shipment: Mailing, extra: EventExtra = {}): Promise<void> {
  const deliveries = await projection.createWebhookDeliveries({ ...eventOf(run, type, run.step, extra), mailing: shipment });
  startDeliveries(run, deliveries);
}

/**
 * One move: the step and its event in one local activity (one statement), then the search
 * attribute, then the deliveries, then any proof the new status makes available (printed and
 * announced by one activity). `showStatus` false skips the search attribute of a step that the
 * next move of the same batch passes; `details` go with the event (mailing.error's reason).
 */
export async function moveTo(
  run: MailingRun,
  next: MailingStatus,
  nextStep: number,
  showStatus = true,
  extra: { lastStep?: number; details?: { reason: string } } = {},
): Promise<void> {
  const type = `mailing.${next}` as EventType;
  const record: StepRecord = {
    shipmentId: run.input.shipmentId,
    step: nextStep,
    status: next,
    at: new Date().toISOString(),
    ...electronicMove(run, next, nextStep),
    ...(extra.lastStep !== undefined ? { lastStep: extra.lastStep } : {}),
  };
  const recorded = await projection.recordMove(record, eventOf(run, type, nextStep, extra.details ? { details: extra.details } : {}));
  run.latest = recorded.shipment;
  run.status = next;
  run.step = nextStep;
  if (record.fallbackUsed) run.fallbackUsed = true;
  if (showStatus) upsertSearchAttributes([{ key: MAILING_STATUS, value: next }]);
  startDeliveries(run, recorded.deliveries);
  const proof = proofOfMove(run.track, next, nextStep);
  if (proof) {
    // The activity records the proof's event too: no local activity after it.
    const event = eventOf(run, 'mailing.proof_available', nextStep, { proof: { kind: proof } });
    // A live electronic letter's proofs are the provider's own; the sandbox's and the postal ones are printed.
    const fromProvider = !!run.electronic && !run.input.test && nextStep <= ELECTRONIC_LAST_STEP;
    const proved = fromProvider
      ? await electronicProofs.publishElectronicProof.executeWithOptions({ ...PROVIDER_PROOFS, summary: `${proof} proof` }, [
          run.input.shipmentId,
          proof as ElectronicProofKind,
          event,
        ])
      : await printing.publishProof.executeWithOptions({ ...PRINTING, summary: `${proof} proof` }, [run.input.shipmentId, proof, event]);
    run.latest = proved.shipment;
    startDeliveries(run, proved.deliveries);
  }
}

/**
 * Moves along several steps at once (an operator's report, a sandbox advance): a paper mailing's
 * steps are recorded by one local activity, each with its event as before, the search attribute
 * set once to where they end, then their proofs printed by one activity; events keep their
 * order among moves and among proofs (the proofs come after the moves: receivers read `step` and
 * `status`, SPEC's webhooks). An electronic mailing's moves, which settle holds and start its
 * fallback step by step, and histories from before the patch, go one move at a time.
 */
export async function moveAlong(run: MailingRun, moves: [MailingStatus, number][]): Promise<void> {
  if (moves.length < 2 || run.electronic || !patched(MOVES_TOGETHER_PATCH)) {
    for (const [i, [next, nextStep]] of moves.entries()) await moveTo(run, next, nextStep, i === moves.length - 1);
    return;
  }
  const { shipmentId } = run.input;
  const now = Date.now();
  const at = new Date(now).toISOString();
  // The events of one activation share its time: a millisecond apart, so that what lists them by
  // time (the deliveries of the developer space, the events table) keeps their order: the moves', then the proofs'.
  let order = 0;
  const ordered = <E extends { created: string }>(event: E): E => ({ ...event, created: new Date(now + order++).toISOString() });
  const recorded = await projection.recordMoves(
    moves.map(([status, step]) => ({ record: { shipmentId, step, status, at }, event: ordered(eventOf(run, `mailing.${status}` as EventType, step)) })),
  );
  const [status, step] = moves.at(-1)!;
  run.latest = recorded.at(-1)!.shipment;
  run.status = status;
  run.step = step;
  upsertSearchAttributes([{ key: MAILING_STATUS, value: status }]);
  for (const { deliveries } of recorded) startDeliveries(run, deliveries);
  const proofs = moves.flatMap(([status, step]): ProofWithEvent[] => {
    const kind = proofOfMove(run.track, status, step);
    return kind ? [{ kind, event: ordered(eventOf(run, 'mailing.proof_available', step, { proof: { kind } })) }] : [];
  });
  if (proofs.length === 0) return;
  const proved = await printing.publishProofs.executeWithOptions({ ...PROOFS_TOGETHER, summary: `${proofs.map((p) => p.kind).join(' and ')} proofs` }, [
    shipmentId,
    proofs,
  ]);
  run.latest = proved.at(-1)!.shipment;
  for (const { deliveries } of proved) startDeliveries(run, deliveries);
}

/**
 * What an electronic mailing's move also writes (docs/billing.md): an end that starts the paper
 * fallback makes the last step the paper path's; the fallback letter printed (filed with the
 * operator) makes the hold its charge; accepted, or an error before any letter was posted, refunds
 * the hold. Nothing for paper mailings (their record is as before).
 */
function electronicMove(run: MailingRun, next: MailingStatus, nextStep: number): Pick<StepRecord, 'lastStep' | 'fallbackUsed' | 'hold'> {
  if (!run.electronic) return {};
  if (!run.fallbackUsed) {
    if (nextStep !== ELECTRONIC_LAST_STEP) return {};
    if (FALLBACK_ENDS.has(next) && run.electronic.fallback === 'paper')
      return { lastStep: lastStepOf({ ...run.track, fallbackUsed: true }), fallbackUsed: true };
    return next === 'accepted' || next === 'error' ? { hold: 'refund' } : {};
  }
  if (next === 'printed') return { hold: 'charge' };
  // The fallback's letter never filed (its step still the electronic end's): nothing was posted.
  return next === 'error' && run.step === ELECTRONIC_LAST_STEP ? { hold: 'refund' } : {};
}

/** A paid mailing that ended off its path (its projection already written): say so everywhere, with why when known. */
export async function endedAs(run: MailingRun, ending: 'canceled' | 'error', details?: { reason: string }): Promise<void> {
  run.status = ending;
  run.step = run.last;
  run.latest = await projection.shipmentSnapshot(run.input.shipmentId);
  upsertSearchAttributes([{ key: MAILING_STATUS, value: ending }]);
  await announce(run, `mailing.${ending}`, run.latest, details ? { details } : {});
}

/** Ends a paid mailing in `error`, refunded; nothing happens when it already moved on. */
export async function failPaid(run: MailingRun, details?: { reason: string }): Promise<void> {
  if (await projection.failShipment(run.endOfPaid())) await endedAs(run, 'error', details);
}
