import type { DeliveryTarget } from '../webhooks/event-types.js';
import type { Mailing } from './mailing.js';
import type { Fallback, Mode } from './states.js';

/** What the mailing workflow is started with. */
export interface MailingWorkflowInput {
  shipmentId: string;
  accountId: string;
  mode: Mode;
  test: boolean;
  /** Delays between webhook attempts (WEBHOOK_RETRY_DELAYS), passed on to every delivery. */
  webhookRetryDelaysMs: number[];
  /** How often the postal operator's tracking is asked for news (live mailings); absent in runs started before it existed. */
  operatorPollMs?: number;
  /** Started again by the reconciler (the mailing existed before this run). */
  resumed?: boolean;
  /** TEST_MAILING_IDLE_LIMIT_MS unless configured (tests); absent in runs started before it existed. */
  testIdleLimitMs?: number;
  /** TRACKING_SILENCE_LIMIT_MS unless configured (tests); absent in runs started before it existed. */
  trackingSilenceLimitMs?: number;
  /** The send date (YYYY-MM-DD, Europe/Paris), filed at 00:00 Paris that day (./send-date-filing-time.ts); absent: at once, as in runs before it existed. */
  sendAt?: string;
  /**
   * Its `mailing.created`, recorded by the API with the mailing (domain/mailings/create.ts): the
   * mailing as recorded (without its letter) and the deliveries to start. The workflow then neither
   * reads its record nor records the event. Absent when the workflow started before the record,
   * for a batch's mailings, when resumed, and in runs started before it existed: the workflow reads
   * its record and records the event (or finds it recorded) itself.
   */
  created?: MailingCreated;
  /**
   * An electronic mailing (issue 54): its fallback. Absent for paper, as in every run started
   * before it existed; the workflow's electronic path is behind the patch `electronic-channel`.
   */
  electronic?: { fallback: Fallback };
  /**
   * A simple letter whose returns are handled digitally (options.returnedMail, issue 55): after
   * `posted` it is watched for its return. Absent otherwise, as in every run started before it
   * existed; behind the patch `digital-returns`.
   */
  returnedMail?: 'digital';
  /** DIGITAL_RETURN_WINDOW_MS unless configured (tests). */
  returnWindowMs?: number;
}

/** A new mailing's `mailing.created` as the API recorded it: the mailing (without its letter) and the deliveries to start. */
export interface MailingCreated {
  mailing: Mailing;
  deliveries: DeliveryTarget[];
}

/**
 * What starts a mailing's workflow. Updates carry it too: a mailing answered before its workflow
 * started (startLater in ./port.ts) may be moved before the start lands, and is then started first.
 */
export interface MailingStart {
  input: MailingWorkflowInput;
  reference: string;
  /** The batch it belongs to, named in its workflow's details in the Temporal UI. */
  batchId?: string;
}
