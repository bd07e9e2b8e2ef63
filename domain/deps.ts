import type { PostalSettings } from './access/postal-settings.js';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { AccessPort } from './access/port.js';
import type { AiPort } from './ai/port.js';
import type { BatchPort } from './batches/port.js';
import type { BillingPort } from './billing/port.js';
import type { HealthPort } from './health.js';
import type { LetterPort } from './letters/port.js';
import type { LookupPort } from './lookups/port.js';
import type { SenderPort } from './developers/port.js';
import type { MailingPort } from './mailings/port.js';
import type { SearchPort } from './search/port.js';
import type { WebhookPort } from './webhooks/port.js';
import type { KeyMode } from './access/scopes.js';
import type { IdempotencyClaim } from './access/idempotency.js';
import type { AddressCheck } from './mailings/request.js';

/**
 * The workflows as the domain sees them: one port per module, defined in its folder and typed by
 * its plain data (the Temporal client is behind them, temporal/domain-deps.ts).
 */
export interface Workflows {
  mailings: MailingPort;
  batches: BatchPort;
  webhooks: WebhookPort;
  access: AccessPort;
  billing: BillingPort;
  lookups: LookupPort;
  ai: AiPort;
  search: SearchPort;
  letters: LetterPort;
  /** The sender identity's calls to the electronic registered letter provider. */
  senders: SenderPort;
  health: HealthPort;
}

/** What domain operations work with: passed in, never looked up. */
export interface Deps {
  db: Db;
  config: Config;
  workflows: Workflows;
}

/** Who a call is for and who pays: the API key's account and mode. */
export interface Caller {
  accountId: string;
  mode: KeyMode;
  /** The balance known when the call was authenticated. */
  balanceCents: number;
  /** options.addressCheck when a mailing does not say: strict, lenient for accounts opened before the check existed. */
  addressCheckDefault?: AddressCheck;
  /** The account's postal settings as authentication knew them (read from the database when absent). */
  postalSettings?: PostalSettings;
  /** The call's Idempotency-Key claim: a paid answer is stored in the transaction that pays. */
  idempotency?: IdempotencyClaim;
  /** Told the new balance after each debit or credit (the API answers it in X-Service-Balance). */
  onBalance?(balanceCents: number): void;
}
