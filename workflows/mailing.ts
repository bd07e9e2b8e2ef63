import {
  ApplicationFailure,
  condition,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  uuid4,
  allHandlersFinished,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { Shipment } from '../domain/mailings/shipment.js';
import { isFinal, PATHS, proofAt, type ShipmentStatus } from '../domain/mailings/states.js';
import type { EventType } from '../domain/webhooks/event-types.js';
import {
  advanceUpdate,
  cancelUpdate,
  deliveryWorkflowId,
  MAILING_STATUS,
  REFUSED_CONFLICT,
  REFUSED_INVALID,
  type MailingWorkflowInput,
  type TestAdvance,
} from './contract.js';
import { webhookDelivery } from './webhook-delivery.js';

// Short database writes run as local activities: no task-queue round trip between the steps of a
// move, which keeps webhook latency low; they are idempotent, like every activity here.
const projection = proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', retry: { initialInterval: '1s', maximumInterval: '1m' } });
// A proof prints in about a second: a short timeout, so a lost worker's attempt is retried soon.
// The API records the mailing right after the start (usually within milliseconds, so the first
// retries come quickly), in at most four statements of at most 5 s (api/mailings/create.ts):
// about 35 s without the record (25 attempts) means it never will be.
const creation = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '50ms', backoffCoefficient: 1.5, maximumInterval: '2s', maximumAttempts: 25 },
});
const printing = proxyActivities<Activities>({ startToCloseTimeout: '20s', retry: { initialInterval: '1s', maximumInterval: '1m' } });
// Filing is retried for as long as the operator does not confirm: the shipment stays `paid`.
const filing = proxyActivities<Activities>({ startToCloseTimeout: '1m', retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' } });
const tracking = proxyActivities<Activities>({ startToCloseTimeout: '30d', heartbeatTimeout: '30s', retry: { initialInterval: '5s', maximumInterval: '10m' } });

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

  async function emit(type: EventType, shipment: Shipment, extra: { proof?: { kind: string }; endpointsCreatedBy?: string } = {}): Promise<void> {
    const deliveryIds = await projection.createWebhookEvent({
      eventId: uuid4(),
      type,
      accountId: input.accountId,
      livemode: !input.test,
      created: new Date().toISOString(),
      mailing: shipment,
      ...extra,
    });
    for (const deliveryId of deliveryIds) {
      await startChild(webhookDelivery, {
        workflowId: deliveryWorkflowId(deliveryId),
        args: [{ deliveryId, retryDelaysMs: input.webhookRetryDelaysMs }],
        // Retries go on for a day after the mailing itself has finished.
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
  }

  async function moveTo(next: ShipmentStatus, nextStep: number): Promise<void> {
    latest = await projection.recordShipmentStep({ shipmentId: input.shipmentId, step: nextStep, status: next, at: new Date().toISOString() });
    status = next;
    step = nextStep;
    upsertSearchAttributes([{ key: MAILING_STATUS, value: next }]);
    await emit(`mailing.${next}` as EventType, latest);
    const proof = proofAt(input.mode, next);
    if (proof) {
      latest = await printing.generateProof(input.shipmentId, proof);
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

  setHandler(
    advanceUpdate,
    (request) =>
      exclusively(async () => {
        if (isFinal(input.mode, status))
          throw ApplicationFailure.create({ type: REFUSED_CONFLICT, message: `This mailing is final (${status}).`, nonRetryable: true });
        if (request.status) {
          await moveTo(request.status, last);
        } else {
          const target = request.step ?? step + 1;
          if (target > last)
            throw ApplicationFailure.create({ type: REFUSED_INVALID, message: `A ${input.mode} mailing has steps 0 to ${last}.`, nonRetryable: true });
          if (target <= step)
            throw ApplicationFailure.create({
              type: REFUSED_CONFLICT,
              message: `Step ${target} is not ahead of the current step ${step}.`,
              nonRetryable: true,
            });
          for (let s = step + 1; s <= target; s++) await moveTo(path[s]!, s);
        }
        return latest;
      }),
    {
      validator: (_request: TestAdvance) => {
        if (!input.test)
          throw ApplicationFailure.create({ type: REFUSED_CONFLICT, message: 'Only test mailings can be advanced by hand.', nonRetryable: true });
      },
    },
  );

  setHandler(cancelUpdate, () =>
    exclusively(async () => {
      if (status !== 'paid' || filed)
        throw ApplicationFailure.create({
          type: REFUSED_CONFLICT,
          message: `Only a paid mailing can be canceled; this one is ${filed ? 'filed' : status}.`,
          nonRetryable: true,
        });
      const at = new Date().toISOString();
      if (!(await projection.cancelShipment({ shipmentId: input.shipmentId, step: last, at }))) {
        throw ApplicationFailure.create({ type: REFUSED_CONFLICT, message: 'The letter has already been filed with the postal operator.', nonRetryable: true });
      }
      status = 'canceled';
      step = last;
      latest = await projection.shipmentSnapshot(input.shipmentId);
      upsertSearchAttributes([{ key: MAILING_STATUS, value: 'canceled' }]);
      await emit('mailing.canceled', latest);
      return latest;
    }),
  );

  try {
    latest = await creation.committedShipment(input.shipmentId);
  } catch {
    return null; // the mailing was never recorded (its recording failed or rolled back): nothing to do
  }
  // Only the endpoints declared when the mailing was created hear of its creation.
  await emit('mailing.created', latest, { endpointsCreatedBy: latest.createdAt });
  busy = false;

  if (!input.test) {
    const outcome = await exclusively(async () => {
      if (status === 'canceled') return 'canceled';
      const result = await filing.fileWithOperator(input.shipmentId);
      if (result === 'filed') {
        filed = true;
        await moveTo('printed', 1);
      }
      return result;
    });
    while (outcome === 'filed' && !isFinal(input.mode, status)) {
      const next = await tracking.awaitOperatorStatus(input.shipmentId, input.mode, status);
      await exclusively(() => moveTo(next, next === 'returned' || next === 'error' ? last : path.indexOf(next as (typeof path)[number])));
    }
  }
  await condition(() => isFinal(input.mode, status));
  await condition(allHandlersFinished);
  return latest;
}
