/**
 * The client side of the workflows (not bundled into the worker): connecting to Temporal,
 * registering the search attributes, and the typed WorkflowRunner the domain calls. Workflows are
 * started by function, updates executed by definition, and failures told apart by type or gRPC
 * status, never by message text.
 */
import {
  Client,
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
import type { WorkflowResultType } from '@temporalio/common';
import type { Deps, MailingStart, RunOptions, WorkflowName, WorkflowRunner, Workflows } from '../domain/deps.js';
import { Conflict, serviceUnavailable, Unprocessable } from '../domain/errors.js';
import type { Shipment } from '../domain/mailings/shipment.js';
import * as workflows from './index.js';
import {
  ACCOUNT_ID,
  advanceUpdate,
  cancelUpdate,
  deliverySearchAttributes,
  deliverySummary,
  deliveryWorkflowId,
  interactiveQueue,
  MAILING_MODE,
  MAILING_REFERENCE,
  MAILING_STATUS,
  MAILING_TEST,
  mailingSummary,
  mailingWorkflowId,
  REFUSED_INVALID,
  SEARCH_ATTRIBUTES,
  checkoutEventSignal,
  topUpWorkflowId,
  type MailingWorkflowInput,
} from './contract.js';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
}

/**
 * gRPC's reconnection backoff grows to 120 s by default: after a long outage of the Temporal
 * server, a client would keep failing for tens of seconds once the server is back (39 s were
 * measured after a 77 s outage). Capped at one second, a client is back within a second; a failed
 * attempt to a local server costs next to nothing.
 */
export const TEMPORAL_CHANNEL_ARGS = {
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 1000,
};

export async function connectTemporal(address: string, namespace: string): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: '5s', channelArgs: TEMPORAL_CHANNEL_ARGS });
  return { connection, client: new Client({ connection, namespace }) };
}

/**
 * A client that connects on first use: the API starts and serves what needs no workflow (reads
 * come from Postgres) even while Temporal is down; calls that need it answer 503.
 */
export function lazyTemporal(address: string, namespace: string): TemporalHandle {
  const connection = Connection.lazy({ address, connectTimeout: '5s', channelArgs: TEMPORAL_CHANNEL_ARGS });
  return { connection, client: new Client({ connection, namespace }) };
}

/** Waits until a freshly started server answers. */
export async function waitForTemporal(address: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: '2s' });
      await connection.workflowService.getSystemInfo({});
      await connection.close();
      return;
    } catch (error) {
      lastError = error;
      await sleep(250);
    }
  }
  throw new Error(`Temporal at ${address} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}

/** Each search attribute type as the CLI names it and as the operator service numbers it. */
const ATTRIBUTE_TYPES: Record<string, { cli: string; indexed: number }> = { KEYWORD: { cli: 'Keyword', indexed: 2 }, BOOL: { cli: 'Bool', indexed: 5 } };

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function devServerSearchAttributeFlags(): string[] {
  return SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=${ATTRIBUTE_TYPES[key.type]!.cli}`]);
}

/** Our search attributes, by name, with their types as the operator service numbers them. */
export function searchAttributeTypes(keys = SEARCH_ATTRIBUTES): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [key.name, ATTRIBUTE_TYPES[key.type]!.indexed]));
}

/** Registers our search attributes on a server that lacks them (the dev server gets them at start). */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys({ ...existing.customAttributes, ...existing.systemAttributes }));
  const missing = SEARCH_ATTRIBUTES.filter((key) => !known.has(key.name));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: searchAttributeTypes(missing),
  });
  logger.info({ added: missing.map((key) => key.name) }, 'registered Temporal search attributes');
}

/** How long a mailing's start may take before the API gives up (nothing recorded or charged then). */
const START_DEADLINE_MS = 5000;

const unreachable = (): Error => serviceUnavailable('The workflow service is unreachable; nothing was done. Please retry.');

/** gRPC status NOT_FOUND: what a workflow that has ended (or never existed) answers to updates. */
const GRPC_NOT_FOUND = 5;

function isEnded(error: unknown): boolean {
  if (error instanceof WorkflowNotFoundError) return true;
  const cause = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(cause) && cause.code === GRPC_NOT_FOUND;
}

/** How long an update may take before the API answers 503 (a retry with the same Idempotency-Key is the same update). */
const UPDATE_DEADLINE_MS = 15_000;

/** An update's refusal in the domain's words: by the ApplicationFailure's type; never an unbounded wait. */
async function update(client: Client, run: () => Promise<Shipment>): Promise<Shipment> {
  try {
    return await client.connection.withDeadline(Date.now() + UPDATE_DEADLINE_MS, run);
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
/** Waits between the attempts of a start made after the answer; then the reconciler takes over. */
const LATER_START_RETRIES_MS = [500, 2000, 5000];

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

  const startMailing = async (input: MailingWorkflowInput, reference: string, options: { restart?: boolean } = {}): Promise<void> => {
    await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      client.workflow.start(workflows.mailing, {
        taskQueue: config.taskQueue,
        workflowId: mailingWorkflowId(input.shipmentId),
        // A mailing runs once; only the reconciler starts a closed one again.
        workflowIdReusePolicy: options.restart ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [input],
        staticSummary: mailingSummary(input, reference),
        staticDetails: `Shipment ${input.shipmentId} of account ${input.accountId}`,
        typedSearchAttributes: [
          { key: ACCOUNT_ID, value: input.accountId },
          { key: MAILING_REFERENCE, value: reference },
          { key: MAILING_MODE, value: input.mode },
          { key: MAILING_STATUS, value: 'paid' },
          { key: MAILING_TEST, value: input.test },
        ],
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
    update(client, async () => {
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
    async run<N extends WorkflowName>(name: N, args: Parameters<Workflows[N]>, options: RunOptions): Promise<WorkflowResultType<Workflows[N]>> {
      try {
        // Started by function. Callers are checked against the workflow's own signature (the
        // WorkflowRunner type); TypeScript cannot follow a generic index into the options here.
        return await client.workflow.execute<Workflows[N]>(workflows[name], {
          taskQueue: interactiveQueue(config.taskQueue),
          workflowId: `${options.idPrefix}-${randomUUID()}`,
          workflowExecutionTimeout: options.timeout ?? '60s',
          args: args as never,
        });
      } catch (error) {
        if (error instanceof WorkflowFailedError)
          throw options.failure?.() ?? new Error(`The ${name} workflow failed: ${error.cause?.message ?? error.message}`);
        throw unreachable();
      }
    },

    startMailing,

    readyToStartLater: () => laterStarts.length + sending < MAX_PENDING_STARTS && channelReady(client.connection),

    startMailingLater(start) {
      laterStarts.push(start);
      if (sending < CONCURRENT_LATER_STARTS) void sendLaterStarts();
    },

    async endMailing(shipmentId, reason) {
      await mailingHandle(shipmentId).terminate(reason);
    },

    advanceMailing: (start, advance, updateId) => updateMailing(start, (handle) => handle.executeUpdate(advanceUpdate, { args: [advance], updateId })),
    cancelMailing: (start, updateId) => updateMailing(start, (handle) => handle.executeUpdate(cancelUpdate, { args: [null], updateId })),

    async lastWorkerPoll() {
      // One read of the task queue's poller list: no workflow, no history, nothing retained.
      const { pollers } = await client.connection.withDeadline(Date.now() + PROBE_DEADLINE_MS, () =>
        client.workflowService.describeTaskQueue({
          namespace: client.options.namespace,
          taskQueue: { name: config.taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
          taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
        }),
      );
      const times = (pollers ?? []).map((poller) => timestampMs(poller.lastAccessTime)).filter((ms): ms is number => ms !== undefined);
      return times.length ? new Date(Math.max(...times)) : null;
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

    async signalTopUp(input, event) {
      try {
        await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
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
