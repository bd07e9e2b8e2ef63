/**
 * The WorkflowRunner the domain calls (domain/deps.ts), on a Temporal client. Workflows are started
 * by function, updates executed by definition, and failures told apart by type or gRPC status,
 * never by message text.
 */
import {
  type Client,
  Connection,
  isGrpcServiceError,
  ServiceError,
  WorkflowFailedError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import type { Deps, MailingStart, RunOptions, ShortWorkflows, WorkflowName, WorkflowResult, WorkflowRunner } from '../domain/deps.js';
import { Conflict, serviceUnavailable, Unprocessable } from '../domain/errors.js';
import { LATER_START_RETRIES_MS, START_DEADLINE_MS } from '../domain/mailings/creation-protocol.js';
import type { Shipment } from '../domain/mailings/shipment.js';
import type { MailingWorkflowInput } from '../domain/mailings/workflow-input.js';
import * as workflows from '../workflows/index.js';
import {
  ACCOUNT_ID,
  advanceUpdate,
  cancelUpdate,
  checkoutEventSignal,
  batchWorkflowId,
  deliverySearchAttributes,
  mailingSearchAttributes,
  deliverySummary,
  deliveryWorkflowId,
  productionCheckWorkflowId,
  interactiveQueue,
  MAILING_TEST,
  mailingSummary,
  mailingWorkflowId,
  REFUSED_INVALID,
  topUpWorkflowId,
} from '../workflows/contract.js';

/** The short workflows the domain runs, checked against the worker's own at compile time. */
const shortWorkflows: ShortWorkflows = workflows;

const unreachable = (): Error => serviceUnavailable('The workflow service is unreachable; nothing was done. Please retry.');

/** gRPC status NOT_FOUND: what a workflow that has ended (or never existed) answers to updates. */
const GRPC_NOT_FOUND = 5;

function isEnded(error: unknown): boolean {
  if (error instanceof WorkflowNotFoundError) return true;
  const cause = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(cause) && cause.code === GRPC_NOT_FOUND;
}

/**
 * `fn` under a deadline for its Temporal calls. The client keeps deadlines in an AsyncLocalStorage,
 * and once one is used, Node 20 runs async hooks on every promise of the process (a cheap request
 * then costs about a tenth more, whether or not it calls Temporal). It is switched off again
 * whenever no call is in flight, so reads and lists do not pay for the mailings being started.
 */
function deadlineScope(client: Client): <T>(ms: number, fn: () => Promise<T>) => Promise<T> {
  let inFlight = 0;
  return async (ms, fn) => {
    inFlight += 1;
    try {
      return await client.connection.withDeadline(Date.now() + ms, fn);
    } finally {
      inFlight -= 1;
      if (inFlight === 0 && client.connection instanceof Connection) client.connection.callContextStorage.disable();
    }
  };
}

/** How long an update may take before the API answers 503 (a retry with the same Idempotency-Key is the same update). */
const UPDATE_DEADLINE_MS = 15_000;

/** An update's refusal in the domain's words: by the ApplicationFailure's type; never an unbounded wait. */
async function update(withDeadline: ReturnType<typeof deadlineScope>, run: () => Promise<Shipment>): Promise<Shipment> {
  try {
    return await withDeadline(UPDATE_DEADLINE_MS, run);
  } catch (error) {
    if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError)
      throw serviceUnavailable('The mailing did not answer in time; retry with the same Idempotency-Key.');
    if (error instanceof WorkflowUpdateFailedError) {
      const cause = error.cause;
      const message = cause?.message ?? 'The mailing cannot make this move.';
      if (cause instanceof ApplicationFailure && cause.type === REFUSED_INVALID) throw new Unprocessable(message);
      throw new Conflict(message);
    }
    if (isEnded(error)) throw new Conflict('This mailing has reached its final state.');
    throw serviceUnavailable('The mailing service is unreachable; please retry.');
  }
}

/** TaskQueueKind NORMAL and TaskQueueType WORKFLOW of Temporal's API. */
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/** How long a health probe of Temporal may take. */
const PROBE_DEADLINE_MS = 2000;

type ProtoTimestamp = { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined;

function timestampMs(ts: ProtoTimestamp): number | undefined {
  if (!ts?.seconds) return undefined;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : ts.seconds.toNumber();
  return seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

/** Starts answered before they land, at most: beyond, the API starts first (back-pressure). */
const MAX_PENDING_STARTS = 256;
/**
 * Of those, how many are sent to Temporal at once. A few suffice to keep up (a start takes a few
 * milliseconds), and more only add contention on the server: with 32 at once, the dev server's
 * starts slowed so much that the answers waited longer than when they waited for their start.
 */
const CONCURRENT_LATER_STARTS = 8;

/** gRPC's ConnectivityState.READY. */
const CHANNEL_READY = 2;

/**
 * Whether the client's gRPC channel is connected now, read without any call. The Connection keeps
 * its grpc-js client out of its typed surface; anything unexpected reads as "not connected", which
 * only means the API starts workflows before answering.
 */
function channelReady(connection: unknown): boolean {
  try {
    const grpcClient = (connection as unknown as { client?: { getChannel(): { getConnectivityState(connect: boolean): number } } }).client;
    return grpcClient?.getChannel().getConnectivityState(false) === CHANNEL_READY;
  } catch {
    return false;
  }
}

/** The WorkflowRunner of the domain, on a Temporal client. */
export function temporalWorkflows(client: Client, config: Config): WorkflowRunner {
  const mailingHandle = (shipmentId: string): WorkflowHandle<typeof workflows.mailing> => client.workflow.getHandle(mailingWorkflowId(shipmentId));
  /** Starts of answered mailings, waiting for one of the CONCURRENT_LATER_STARTS senders. */
  const laterStarts: MailingStart[] = [];
  let sending = 0;
  const withDeadline = deadlineScope(client);

  const startMailing = async (input: MailingWorkflowInput, reference: string, options: { restart?: boolean } = {}): Promise<void> => {
    await withDeadline(START_DEADLINE_MS, () =>
      client.workflow.start(workflows.mailing, {
        taskQueue: config.taskQueue,
        workflowId: mailingWorkflowId(input.shipmentId),
        // A mailing runs once; only the reconciler starts a closed one again.
        workflowIdReusePolicy: options.restart ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [input],
        staticSummary: mailingSummary(input, reference),
        staticDetails: `Shipment ${input.shipmentId} of account ${input.accountId}`,
        typedSearchAttributes: mailingSearchAttributes(input, reference),
      }),
    );
  };

  /** Started, or started already (by the answer's own start, or another process): either way running or run. */
  const ensureStarted = async ({ input, reference }: MailingStart): Promise<void> => {
    try {
      await startMailing(input, reference);
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };

  /** An update to a mailing; one whose workflow is not there yet (answered before its start) is started, then updated. */
  const updateMailing = (start: MailingStart, run: (handle: WorkflowHandle<typeof workflows.mailing>) => Promise<Shipment>): Promise<Shipment> =>
    update(withDeadline, async () => {
      const handle = mailingHandle(start.input.shipmentId);
      try {
        return await run(handle);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        await ensureStarted(start);
        return run(handle);
      }
    });

  /** One sender: takes the waiting starts one by one, each tried a few times; the reconciler takes what still fails. */
  const sendLaterStarts = async (): Promise<void> => {
    sending += 1;
    try {
      for (let start = laterStarts.shift(); start; start = laterStarts.shift()) {
        for (let attempt = 0; ; attempt++) {
          try {
            await ensureStarted(start);
            break;
          } catch (error) {
            const wait = LATER_START_RETRIES_MS[attempt];
            if (wait === undefined) {
              logger.error(
                { err: error, shipmentId: start.input.shipmentId },
                'mailing recorded but its workflow could not start; the reconciler will start it',
              );
              break;
            }
            await sleep(wait);
          }
        }
      }
    } finally {
      sending -= 1;
    }
  };

  return {
    async run<N extends WorkflowName>(name: N, args: Parameters<ShortWorkflows[N]>, options: RunOptions): Promise<WorkflowResult<N>> {
      try {
        // Started by function. Callers are checked against the workflow's own signature (the
        // WorkflowRunner type); TypeScript cannot follow a generic index into the options here.
        return (await client.workflow.execute(shortWorkflows[name], {
          taskQueue: interactiveQueue(config.taskQueue),
          workflowId: `${options.idPrefix}-${randomUUID()}`,
          workflowExecutionTimeout: options.timeout ?? '60s',
          args: args as never,
        })) as WorkflowResult<N>;
      } catch (error) {
        if (error instanceof WorkflowFailedError)
          throw options.failure?.() ?? new Error(`The ${name} workflow failed: ${error.cause?.message ?? error.message}`);
        throw unreachable();
      }
    },

    startMailing: (input, reference) => startMailing(input, reference),

    async restartMailing(input, reference) {
      try {
        await startMailing(input, reference, { restart: true });
        return true;
      } catch (error) {
        // Started meanwhile by someone else: attended after all.
        if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw error;
      }
    },

    readyToStartLater: () => laterStarts.length + sending < MAX_PENDING_STARTS && channelReady(client.connection),

    startMailingLater(start) {
      laterStarts.push(start);
      if (sending < CONCURRENT_LATER_STARTS) void sendLaterStarts();
    },

    async isMailingRunning(shipmentId) {
      try {
        return (await mailingHandle(shipmentId).describe()).status.name === 'RUNNING';
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },

    async endMailing(shipmentId, reason) {
      await mailingHandle(shipmentId).terminate(reason);
    },

    advanceMailing: (start, advance, updateId) => updateMailing(start, (handle) => handle.executeUpdate(advanceUpdate, { args: [advance], updateId })),
    cancelMailing: (start, updateId) => updateMailing(start, (handle) => handle.executeUpdate(cancelUpdate, { args: [null], updateId })),

    async lastWorkerPoll() {
      // One read of the task queue's poller list: no workflow, no history, nothing retained.
      const { pollers } = await withDeadline(PROBE_DEADLINE_MS, () =>
        client.workflowService.describeTaskQueue({
          namespace: client.options.namespace,
          taskQueue: { name: config.taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
          taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
        }),
      );
      const times = (pollers ?? []).map((poller) => timestampMs(poller.lastAccessTime)).filter((ms): ms is number => ms !== undefined);
      return times.length ? new Date(Math.max(...times)) : null;
    },

    async startBatch(input) {
      try {
        await withDeadline(START_DEADLINE_MS, () =>
          client.workflow.start(workflows.mailingBatch, {
            taskQueue: config.taskQueue,
            workflowId: batchWorkflowId(input.batchId),
            // A batch runs once: its mailings are started by id, whoever starts the batch.
            workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
            args: [input],
            staticSummary: `mailing batch · ${input.test ? 'test' : 'live'}`,
            staticDetails: `Batch ${input.batchId} of account ${input.accountId}`,
            typedSearchAttributes: [
              { key: ACCOUNT_ID, value: input.accountId },
              { key: MAILING_TEST, value: input.test },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw error;
      }
    },

    async startDelivery(target) {
      try {
        await client.workflow.start(workflows.webhookDelivery, {
          taskQueue: config.taskQueue,
          workflowId: deliveryWorkflowId(target.deliveryId),
          args: [{ deliveryId: target.deliveryId, retryDelaysMs: config.webhookRetryDelaysMs }],
          staticSummary: deliverySummary(target),
          typedSearchAttributes: deliverySearchAttributes(target),
        });
      } catch {
        throw unreachable();
      }
    },

    async startProductionCheck(requestId, siret) {
      try {
        await withDeadline(START_DEADLINE_MS, () =>
          client.workflow.start(workflows.productionAccessCheck, {
            taskQueue: config.taskQueue,
            workflowId: productionCheckWorkflowId(requestId),
            args: [requestId, siret],
            staticSummary: `production access check ${siret}`,
            staticDetails: `request ${requestId}: the directory could not be reached when it was made`,
          }),
        );
      } catch {
        throw unreachable();
      }
    },

    async signalTopUp(input, event) {
      try {
        await withDeadline(START_DEADLINE_MS, () =>
          client.workflow.signalWithStart(workflows.topUp, {
            taskQueue: config.taskQueue,
            workflowId: topUpWorkflowId(input.sessionId),
            args: [input],
            signal: checkoutEventSignal,
            signalArgs: [event],
            staticSummary: `top-up ${input.topUpId}`,
            staticDetails: `Stripe Checkout session ${input.sessionId}`,
          }),
        );
      } catch {
        throw unreachable();
      }
    },
  };
}

/** The domain's dependencies on a database, a configuration and a Temporal client. */
export function domainDeps(db: Deps['db'], config: Config, client: Client): Deps {
  return { db, config, workflows: temporalWorkflows(client, config) };
}
