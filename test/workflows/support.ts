import { fileURLToPath } from 'node:url';
import { ApplicationFailure, IllegalStateError } from '@temporalio/common';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Activities } from '../../activities/index.js';
import type { AttemptResult } from '../../activities/webhooks.js';
import type { EndOfPaidMailing, MoveWithEvent, ProofWithEvent, StepRecord } from '../../domain/mailings/projection.js';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { isAhead, lastStep, PATHS, type Mode, type ProofKind, type MailingStatus } from '../../domain/mailings/states.js';
import type { MailingWorkflowInput } from '../../domain/mailings/workflow-input.js';
import { mailingEventKey, type DeliveryTarget } from '../../domain/webhooks/event-types.js';
import type { NewEvent } from '../../domain/webhooks/events.js';
import { deliveriesQueue, ELECTRONIC_REJECTED, FILING_REJECTED, NO_NEWS, printingQueue, trackingQueue } from '../../workflows/contract.js';
import { startTimeSkipping, type TimeSkippingEnv } from '../support/time-skipping-server.js';
import { startDevServerEnv } from '../support/dev-server-env.js';

/**
 * The mailing workflow alone (as temporalio/samples-typescript tests its workflows): the real
 * workflow bundle on Temporal's time-skipping test server, with activities replaced by a double
 * that keeps the mailing in memory and records every call. No Postgres, no browser, no operator.
 */

/** The activities a mailing's workflow and its delivery children call: typed against the real ones. */
export type MailingActivities = Pick<
  Activities,
  | 'committedShipment'
  | 'announceCommittedShipment'
  | 'abandonShipment'
  | 'shipmentSnapshot'
  | 'recordMove'
  | 'recordMoves'
  | 'createWebhookDeliveries'
  | 'publishProof'
  | 'publishProofs'
  | 'fileWithOperator'
  | 'checkOperatorStatus'
  | 'cancelShipment'
  | 'failShipment'
  | 'attemptWebhookDelivery'
  | 'abandonWebhookDelivery'
  | 'deliverWebhooks'
  | 'sendElectronicLetter'
  | 'checkElectronicStatus'
  | 'publishElectronicProof'
>;

/** How the double's electronic provider behaves: each sending attempt's outcome, and what it reports after `current`. */
export interface ProviderScript {
  /** Attempt n (from 1): 'sent', 'unavailable' (maintenance: retried) or 'rejected' (ELECTRONIC_REJECTED). */
  sending?: (attempt: number) => 'sent' | 'unavailable' | 'rejected';
  /** The state the provider reports now for a letter at `current`; undefined: nothing new. */
  reports?: (current: MailingStatus) => MailingStatus | undefined;
}

/** The activities of the batch workflow (workflows/batch.ts). */
export type BatchActivities = Pick<Activities, 'startAllBatchMailings' | 'batchIsFinal' | 'completeBatch'>;

/** Webhook attempts made by the doubles, by delivery id, with their attempt numbers (first attempts: 1). */
export const webhookAttempts = new Map<string, number[]>();

/** How the double's operator behaves: each filing attempt's outcome, and what it reports after `current`. */
export interface OperatorScript {
  /** Attempt n (from 1): 'filed', 'canceled', 'unavailable' (a retryable failure) or 'rejected' (FILING_REJECTED). */
  filing?: (attempt: number) => 'filed' | 'canceled' | 'unavailable' | 'rejected';
  /** The status the operator reports now for a letter at `current`; undefined: nothing new. */
  reports?: (current: MailingStatus) => MailingStatus | undefined;
  /** false: the filing answers 'filed' alone, as an activity worker of before the news read with it. */
  newsWithFiling?: boolean;
}

/** One mailing's world as its activities see it, in memory. */
export class MailingDouble {
  readonly calls: string[] = [];
  readonly moves: MailingStatus[] = [];
  readonly events: { type: string; eventKey?: string; proof?: string; details?: { reason: string } }[] = [];
  readonly proofs: ProofKind[] = [];
  refunded = false;
  filingAttempts = 0;
  /** The electronic provider's behaviour (issue 54), its sending attempts, and each settlement of the paper fallback's hold. */
  provider: ProviderScript = {};
  sendingAttempts = 0;
  readonly holds: ('refund' | 'charge')[] = [];
  /** How many times the record is read (committedShipment, announceCommittedShipment) before it is "committed". */
  recordDelay = 0;
  /** Endpoints each event is delivered to: one delivery child per endpoint. */
  endpoints: string[] = [];
  shipment: Mailing;

  constructor(
    readonly input: MailingWorkflowInput,
    private readonly operator: OperatorScript = {},
    initial: Partial<Mailing> = {},
  ) {
    this.shipment = {
      id: input.shipmentId,
      title: 'Lettre',
      mode: input.mode,
      modeLabel: input.mode,
      status: 'paid',
      statusLabel: 'paid',
      step: 0,
      lastStep: lastStep(input.mode),
      trackingNumber: 'SV00000000000',
      createdAt: new Date().toISOString(),
      events: [],
      orderId: null,
      recipient: [],
      amountCents: input.test ? 0 : 500,
      reference: '',
      test: input.test,
      proofs: [],
      warnings: [],
      sendAt: input.sendAt ?? null,
      batch: null,
      erasedAt: null,
      channel: 'paper',
      electronic: null,
      postage: null,
      returnedMail: null,
      ...initial,
    };
  }

  private snapshot(): Mailing {
    return structuredClone(this.shipment);
  }

  private deliveriesOf(event: Omit<NewEvent, 'mailing'>): DeliveryTarget[] {
    this.events.push({ type: event.type, eventKey: event.eventKey, proof: event.proof?.kind, details: event.details });
    return this.endpoints.map((endpointId) => ({
      deliveryId: `${event.eventKey ?? event.type}/${endpointId}`.replace(/[^a-z0-9-]/gi, '-'),
      accountId: event.accountId,
      endpointId,
      eventId: event.eventKey ?? event.type,
      eventType: event.type,
    }));
  }

  /** What the API passes in the input once it has recorded the mailing's `mailing.created` (domain/mailings/create.ts). */
  announcedByApi(): MailingWorkflowInput {
    const event = {
      eventKey: mailingEventKey(this.input.shipmentId, 'mailing.created', 0),
      type: 'mailing.created' as const,
      accountId: this.input.accountId,
      livemode: !this.input.test,
      created: this.shipment.createdAt,
    };
    return { ...this.input, created: { mailing: this.snapshot(), deliveries: this.deliveriesOf(event) } };
  }

  private end(status: 'canceled' | 'error', input: EndOfPaidMailing): boolean {
    if (this.shipment.status !== 'paid') return this.shipment.status === status;
    this.shipment = { ...this.shipment, status, step: input.step };
    this.refunded = true;
    return true;
  }

  activities(): MailingActivities {
    const track = (name: string): void => void this.calls.push(name);
    const activities: MailingActivities = {
      committedShipment: async () => {
        track('committedShipment');
        if (this.recordDelay-- > 0) throw ApplicationFailure.retryable('not committed yet', 'shipment_not_committed');
        return this.snapshot();
      },
      announceCommittedShipment: async (_mailingId: string, event: Omit<NewEvent, 'mailing' | 'type' | 'endpointsCreatedBy'>) => {
        track('announceCommittedShipment');
        if (this.recordDelay-- > 0) throw ApplicationFailure.retryable('not committed yet', 'shipment_not_committed');
        const deliveries = this.shipment.status === 'paid' ? this.deliveriesOf({ ...event, type: 'mailing.created' }) : [];
        return { shipment: this.snapshot(), deliveries };
      },
      abandonShipment: async () => {
        track('abandonShipment');
        return 'abandoned';
      },
      shipmentSnapshot: async () => {
        track('shipmentSnapshot');
        return this.snapshot();
      },
      recordMove: async (record: StepRecord, event: Omit<NewEvent, 'mailing'>) => {
        track(`recordMove:${record.status}`);
        if (record.step > this.shipment.step || (record.step === this.shipment.step && this.shipment.status !== record.status)) {
          this.shipment = { ...this.shipment, status: record.status, step: record.step };
          this.moves.push(record.status);
          if (record.lastStep !== undefined) this.shipment.lastStep = Math.max(this.shipment.lastStep, record.lastStep);
          if (record.fallbackUsed && this.shipment.electronic) this.shipment.electronic = { ...this.shipment.electronic, fallbackUsed: true };
          if (record.hold) this.holds.push(record.hold);
        }
        return { shipment: this.snapshot(), deliveries: this.deliveriesOf(event) };
      },
      createWebhookDeliveries: async (event: NewEvent) => {
        track(`createWebhookDeliveries:${event.type}`);
        return this.deliveriesOf(event);
      },
      publishProof: async (_mailingId: string, kind: ProofKind, event: Omit<NewEvent, 'mailing'>) => {
        track(`publishProof:${kind}`);
        this.proofs.push(kind);
        return { shipment: this.snapshot(), deliveries: this.deliveriesOf(event) };
      },
      // As the real ones: the single calls in order (each tracked as itself).
      recordMoves: async (moves: MoveWithEvent[]) => {
        track(`recordMoves:${moves.length}`);
        const recorded = [];
        for (const { record, event } of moves) recorded.push(await activities.recordMove(record, event));
        return recorded;
      },
      publishProofs: async (mailingId: string, proofs: ProofWithEvent[]) => {
        track(`publishProofs:${proofs.length}`);
        const published = [];
        for (const { kind, event } of proofs) published.push(await activities.publishProof(mailingId, kind, event));
        return published;
      },
      // As the real one: asked for the news too, it reports what the operator says past `printed`.
      fileWithOperator: async (_mailingId: string, options: { readNews?: boolean } = {}) => {
        track('fileWithOperator');
        const outcome = (this.operator.filing ?? (() => 'filed'))(++this.filingAttempts);
        if (outcome === 'unavailable') throw ApplicationFailure.retryable('the operator does not answer', 'OperatorUnavailableError');
        if (outcome === 'rejected')
          throw ApplicationFailure.nonRetryable('the postal operator refuses the letter: ADDRESS_LINE_6_WRONG_FORMAT', FILING_REJECTED);
        if (outcome === 'canceled' || !options.readNews || this.operator.newsWithFiling === false) return outcome;
        const reported = this.operator.reports?.('printed');
        return { filed: true as const, reported: reported && isAhead(this.input.mode, reported, 'printed') ? reported : null };
      },
      checkOperatorStatus: async (_mailingId: string, mode: Mode, current: MailingStatus, watching?: 'return') => {
        track(watching ? `checkOperatorStatus:${watching}` : 'checkOperatorStatus');
        const reported = this.operator.reports?.(current);
        if (watching === 'return') {
          if (reported === 'returned') return reported;
          throw ApplicationFailure.create({ message: 'no return', type: NO_NEWS, category: 'BENIGN' });
        }
        if (!reported || !isAhead(mode, reported, current)) throw ApplicationFailure.create({ message: 'no news', type: NO_NEWS, category: 'BENIGN' });
        return reported;
      },
      cancelShipment: async (input: EndOfPaidMailing) => {
        track('cancelShipment');
        return this.end('canceled', input);
      },
      failShipment: async (input: EndOfPaidMailing) => {
        track('failShipment');
        return this.end('error', input);
      },
      // Retries (attempt 2 on) always succeed.
      attemptWebhookDelivery: async (deliveryId: string, attempt?: { number: number }): Promise<AttemptResult> => {
        track('attemptWebhookDelivery');
        webhookAttempts.set(deliveryId, [...(webhookAttempts.get(deliveryId) ?? []), attempt?.number ?? 0]);
        return { delivered: true, httpStatus: 200, error: null };
      },
      // First attempts: an endpoint named "…failing…" answers 500; one named "…throwing…" makes the
      // whole activity fail (a lost worker, say).
      deliverWebhooks: async (targets: DeliveryTarget[]): Promise<AttemptResult[]> => {
        track('deliverWebhooks');
        if (targets.some((t) => t.endpointId.includes('throwing'))) throw ApplicationFailure.retryable('worker lost', 'WorkerLost');
        return targets.map((t) => {
          webhookAttempts.set(t.deliveryId, [...(webhookAttempts.get(t.deliveryId) ?? []), 1]);
          return t.endpointId.includes('failing')
            ? { delivered: false, httpStatus: 500, error: 'HTTP 500' }
            : { delivered: true, httpStatus: 200, error: null };
        });
      },
      abandonWebhookDelivery: async () => {
        track('abandonWebhookDelivery');
      },
      sendElectronicLetter: async () => {
        track('sendElectronicLetter');
        const outcome = (this.provider.sending ?? (() => 'sent'))(++this.sendingAttempts);
        if (outcome === 'unavailable')
          throw ApplicationFailure.create({ message: 'AR24 is in maintenance', type: 'ProviderUnavailableError', category: 'BENIGN' });
        if (outcome === 'rejected') throw ApplicationFailure.nonRetryable('the electronic provider refuses the letter: bounced address', ELECTRONIC_REJECTED);
        if (this.shipment.electronic) this.shipment.electronic = { ...this.shipment.electronic, providerReference: 'LRE-1' };
        return 'sent' as const;
      },
      checkElectronicStatus: async (_mailingId: string, current: MailingStatus) => {
        track('checkElectronicStatus');
        const reported = this.provider.reports?.(current);
        if (!reported || reported === current) throw ApplicationFailure.create({ message: 'no news', type: NO_NEWS, category: 'BENIGN' });
        return reported as 'sent';
      },
      publishElectronicProof: async (_mailingId: string, kind: ProofKind, event: Omit<NewEvent, 'mailing'>) => {
        track(`publishElectronicProof:${kind}`);
        this.proofs.push(kind);
        return { shipment: this.snapshot(), deliveries: this.deliveriesOf(event) };
      },
    };
    return activities;
  }
}

/** An operator that moves a filed letter one step along its path at each question. */
export const stepByStep =
  (mode: Mode): OperatorScript['reports'] =>
  (current) => {
    const path = PATHS[mode];
    return path[path.indexOf(current as (typeof path)[number]) + 1];
  };

export const mailingInput = (mode: Mode, test: boolean, extra: Partial<MailingWorkflowInput> = {}): MailingWorkflowInput => ({
  shipmentId: crypto.randomUUID(),
  accountId: crypto.randomUUID(),
  mode,
  test,
  webhookRetryDelaysMs: [1000],
  operatorPollMs: 100,
  ...extra,
});

/** The mailing an activity call is about, from its first argument. */
function mailingOf(args: unknown[]): string {
  const first = args[0] as string | { shipmentId?: string; mailing?: { id: string } } | MoveWithEvent[] | undefined;
  if (typeof first === 'string') return first;
  // recordMoves: the moves of one mailing.
  if (Array.isArray(first)) return first[0]?.record.shipmentId ?? '';
  return first?.shipmentId ?? first?.mailing?.id ?? '';
}

/**
 * The test server, the workflow bundle and one pair of workers (the main and the tracking queue),
 * shared by a whole file: each activity call goes to the double of the mailing it names.
 */
export class WorkflowTestBench {
  env!: TimeSkippingEnv;
  /** `dev`: a real Temporal server instead, for a path the test server gets wrong (test/support/dev-server-env.ts). */
  constructor(private readonly server: 'time-skipping' | 'dev' = 'time-skipping') {}

  readonly taskQueue = 'workflow-tests';
  private connection!: NativeConnection;
  private readonly doubles = new Map<string, MailingDouble>();
  private workers: Worker[] = [];
  private running: Promise<void>[] = [];

  async start(): Promise<void> {
    // The test server is not a full server: the SDK's notices about what it lacks are not news.
    try {
      Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });
    } catch (error) {
      // Within npm test, the suite's own worker installed the runtime first: it serves as well.
      if (!(error instanceof IllegalStateError)) throw error;
    }
    const workflowsPath = fileURLToPath(new URL('../../workflows/index.js', import.meta.url));
    const [env, bundle] = await Promise.all([
      this.server === 'dev' ? startDevServerEnv() : startTimeSkipping(),
      bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
    ]);
    this.env = env;
    this.connection = await NativeConnection.connect({ address: env.address });
    const activities = this.dispatcher();
    this.workers = await Promise.all(
      // The queues of the worker roles (worker/worker.ts): printing, deliveries and tracking beside the main one.
      [this.taskQueue, trackingQueue(this.taskQueue), printingQueue(this.taskQueue), deliveriesQueue(this.taskQueue)].map((taskQueue) =>
        Worker.create({ connection: this.connection, namespace: env.namespace, taskQueue, workflowBundle: bundle, activities }),
      ),
    );
    this.running = this.workers.map((worker) => worker.run());
  }

  async stop(): Promise<void> {
    for (const worker of this.workers) worker.shutdown();
    await Promise.allSettled(this.running);
    await this.connection?.close();
    await this.env?.stop();
  }

  /** The double's world for its mailing's activities while `test` runs. */
  async run<T>(double: MailingDouble, test: (taskQueue: string) => Promise<T>): Promise<T> {
    this.doubles.set(double.input.shipmentId, double);
    try {
      return await test(this.taskQueue);
    } finally {
      this.doubles.delete(double.input.shipmentId);
    }
  }

  /** Many mailings at once (a batch's children), each with its double. */
  async runMany<T>(doubles: MailingDouble[], test: (taskQueue: string) => Promise<T>): Promise<T> {
    for (const double of doubles) this.doubles.set(double.input.shipmentId, double);
    try {
      return await test(this.taskQueue);
    } finally {
      for (const double of doubles) this.doubles.delete(double.input.shipmentId);
    }
  }

  /** The batch workflow's activities while a batch test runs (they name a batch, not a mailing). */
  batch: BatchActivities | undefined;

  private dispatcher(): MailingActivities & BatchActivities {
    const batchCall =
      (name: keyof BatchActivities) =>
      (...args: unknown[]) => {
        if (!this.batch) throw ApplicationFailure.nonRetryable(`no batch double for ${name}`);
        return (this.batch[name] as (...a: unknown[]) => unknown)(...args);
      };
    const batchActivities = {
      startAllBatchMailings: batchCall('startAllBatchMailings'),
      batchIsFinal: batchCall('batchIsFinal'),
      completeBatch: batchCall('completeBatch'),
    };
    return { ...this.mailingDispatcher(), ...batchActivities } as unknown as MailingActivities & BatchActivities;
  }

  private mailingDispatcher(): MailingActivities {
    const names = Object.keys(new MailingDouble(mailingInput('simple', true)).activities()) as (keyof MailingActivities)[];
    const deliveries = new MailingDouble(mailingInput('simple', true)).activities();
    return Object.fromEntries(
      names.map((name) => [
        name,
        (...args: unknown[]) => {
          // Webhook attempts name a delivery, not a mailing: they always succeed.
          if (name === 'attemptWebhookDelivery' || name === 'abandonWebhookDelivery' || name === 'deliverWebhooks')
            return (deliveries[name] as (...a: unknown[]) => unknown)(...args);
          const double = this.doubles.get(mailingOf(args));
          if (!double) throw ApplicationFailure.nonRetryable(`no double for ${name}(${mailingOf(args)})`);
          return (double.activities()[name] as (...a: unknown[]) => unknown)(...args);
        },
      ]),
    ) as unknown as MailingActivities;
  }
}
