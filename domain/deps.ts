import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { Generation, GenerationTask } from './ai/task.js';
import type { CheckoutEvent, CheckoutInput, CheckoutSession, TopUpInput } from './billing/checkout.js';
import type { LetterDocument } from './letters/render.js';
import type {
  AddressMatch,
  AddressResult,
  CompanyProfile,
  CompanySummary,
  FuelPriceLookup,
  RouteLookup,
  RoutePlace,
  StationSearch,
  StationSearchResult,
} from './lookups/results.js';
import type { MailingWorkflowInput } from './mailings/workflow-input.js';
import type { TestAdvance } from './mailings/states.js';
import type { DeliveryTarget } from './webhooks/event-types.js';
import type { KeyMode } from './access/scopes.js';
import type { IdempotencyClaim } from './access/idempotency.js';
import type { DomainError } from './errors.js';
import type { Shipment } from './mailings/shipment.js';
import type { AddressCheck } from './mailings/request.js';
import type { BatchWorkflowInput } from './batches/workflow-input.js';

/**
 * The short workflows the domain runs to their result, by name, with the plain data they take and
 * give. The worker's workflows must match (checked where the Temporal client runs them).
 */
export interface ShortWorkflows {
  letterPdf(document: LetterDocument): Promise<Uint8Array>;
  embedQuery(text: string): Promise<number[]>;
  embedCatalogue(texts: string[]): Promise<number[][]>;
  addressLookup(q: string, limit: number): Promise<AddressResult[]>;
  addressMatchLookup(q: string, limit: number): Promise<AddressMatch[]>;
  companySearch(q: string, limit: number, only: 'active' | 'all'): Promise<CompanySummary[]>;
  companyProfileLookup(siret: string): Promise<CompanyProfile | null>;
  routeLookup(from: RoutePlace, to: RoutePlace, geometry: boolean): Promise<RouteLookup>;
  fuelPriceLookup(department: string | null): Promise<FuelPriceLookup>;
  fuelStationSearch(search: StationSearch): Promise<StationSearchResult>;
  aiGeneration(task: GenerationTask): Promise<Generation>;
  checkoutSession(input: CheckoutInput): Promise<CheckoutSession>;
  /** Writes an account's billing profile to its Stripe Customer: the customer id (null: no profile). */
  billingCustomer(accountId: string): Promise<string | null>;
}
export type WorkflowName = keyof ShortWorkflows;
/** What the short workflow `N` answers. */
export type WorkflowResult<N extends WorkflowName> = Awaited<ReturnType<ShortWorkflows[N]>>;

export interface RunOptions {
  /** Prefix of the workflow id, e.g. "company-search". */
  idPrefix: string;
  /** Whole-run deadline, e.g. "60s". */
  timeout?: string;
  /** The error to report when the workflow fails (default: an internal error). */
  failure?: () => DomainError;
}

/**
 * The workflows as the domain sees them (the Temporal client is behind it, temporal/workflow-runner.ts).
 * Every call is typed by the workflow it reaches. Temporal unreachable: Unavailable.
 */
export interface WorkflowRunner {
  /** Runs a short workflow to its result. */
  run<N extends WorkflowName>(name: N, args: Parameters<ShortWorkflows[N]>, options: RunOptions): Promise<WorkflowResult<N>>;
  /**
   * Starts a mailing's workflow (bounded in time). A mailing whose workflow has already run is not
   * started again (WorkflowExecutionAlreadyStarted).
   */
  startMailing(input: MailingWorkflowInput, reference: string): Promise<void>;
  /**
   * The reconciler's start of a mailing whose workflow has ended or never started: true when
   * started, false when another start got there first.
   */
  restartMailing(input: MailingWorkflowInput, reference: string): Promise<boolean>;
  /**
   * Whether a recorded mailing may be answered before its workflow starts: the connection to
   * Temporal is up and few such starts are pending. When not, the caller starts the workflow first,
   * so that an unreachable Temporal is a 503 with nothing recorded or charged.
   */
  readyToStartLater(): boolean;
  /**
   * Starts a recorded mailing's workflow after the answer, retrying a few times; one still not
   * started is resumed by the reconciler (domain/mailings/reconcile.ts).
   */
  startMailingLater(start: MailingStart): void;
  /** Whether a mailing's workflow is running now (false when it has ended or never started). */
  isMailingRunning(shipmentId: string): Promise<boolean>;
  /** Ends a mailing's workflow that will never have its record. */
  endMailing(shipmentId: string, reason: string): Promise<void>;
  /**
   * The advance and cancel updates; refusals are Conflict or Unprocessable. `updateId` (from the
   * request's Idempotency-Key) makes a retried call the same update: it runs once. A mailing whose
   * workflow is not started yet is started first.
   */
  advanceMailing(start: MailingStart, advance: TestAdvance, updateId?: string): Promise<Shipment>;
  cancelMailing(start: MailingStart, updateId?: string): Promise<Shipment>;
  /**
   * When a worker last polled the main task queue (null: none known to the server), read from the
   * server without running anything. Rejects when Temporal cannot be reached.
   */
  lastWorkerPoll(): Promise<Date | null>;
  /**
   * Starts a recorded batch's workflow, which starts its mailings' workflows (workflows/batch.ts):
   * true when started, false when it had been already (a batch runs once).
   */
  startBatch(input: BatchWorkflowInput): Promise<boolean>;
  /** Starts the delivery of one webhook event to one endpoint. */
  startDelivery(target: DeliveryTarget): Promise<void>;
  /**
   * Starts the later directory check of a production request kept while the directory could not be
   * reached (once per request). Temporal unreachable: Unavailable (the request waits for an operator).
   */
  startProductionCheck(requestId: string, siret: string): Promise<void>;
  /**
   * Passes a Stripe event on to its top-up's workflow `topup-<session id>`, starting it when none
   * runs (signal-with-start). Temporal unreachable: Unavailable (Stripe sends the event again).
   */
  signalTopUp(input: TopUpInput, event: CheckoutEvent): Promise<void>;
}

/**
 * What starts a mailing's workflow. Updates carry it too: a mailing answered before its workflow
 * started (startMailingLater) may be moved before the start lands, and is then started first.
 */
export interface MailingStart {
  input: MailingWorkflowInput;
  reference: string;
}

/** What domain operations work with: passed in, never looked up. */
export interface Deps {
  db: Db;
  config: Config;
  workflows: WorkflowRunner;
}

/** Who a call is for and who pays: the API key's account and mode. */
export interface Caller {
  accountId: string;
  mode: KeyMode;
  /** The balance known when the call was authenticated. */
  balanceCents: number;
  /** options.addressCheck when a mailing does not say: strict, lenient for accounts opened before the check existed. */
  addressCheckDefault?: AddressCheck;
  /** The call's Idempotency-Key claim: a paid answer is stored in the transaction that pays. */
  idempotency?: IdempotencyClaim;
  /** Told the new balance after each debit or credit (the API answers it in X-Service-Balance). */
  onBalance?(balanceCents: number): void;
}
