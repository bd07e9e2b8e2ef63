import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { reportWorkerAlive } = proxyActivities<Activities>({
  startToCloseTimeout: '5s',
  retry: { maximumAttempts: 1 },
});

const { purgeExpiredRecords, purgeWebhookHistory } = proxyActivities<Activities>({
  startToCloseTimeout: '1m',
  retry: { maximumAttempts: 3 },
});

/** Used by GET /health: succeeds only when a worker picks up the task and reaches Postgres. */
export async function healthCheck(): Promise<{ workerAt: string }> {
  return { workerAt: await reportWorkerAlive() };
}

/** Run by the "maintenance-purge" Temporal Schedule. */
export async function purgeExpiredData(): Promise<{ idempotencyKeys: number; requestLogRows: number }> {
  return purgeExpiredRecords();
}

/** Run by the "webhook-history-purge" Temporal Schedule: deliveries are kept 30 days. */
export async function purgeWebhookDeliveries(): Promise<{ deliveries: number }> {
  return { deliveries: await purgeWebhookHistory() };
}

const { eraseMailingsPastRetention, purgeOldAuditEntries } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  retry: { maximumAttempts: 3 },
});

/** Passes of one run of applyRetention; what remains waits for the next run. */
const RETENTION_PASSES = 20;

/**
 * Run by the "mailing-retention" Temporal Schedule (hourly): final mailings past their account's
 * retention period (accounts.retention_days) lose their personal data, and audit log entries older
 * than a year go (domain/privacy/retention.ts). `now` (an ISO time) defaults to the workflow's
 * clock: what a test on the time-skipping server skips, or the time it passes.
 */
export async function applyRetention(
  options: { now?: string; limit?: number } = {},
): Promise<{ mailings: number; failedMailings: number; auditEntries: number }> {
  const now = options.now ?? new Date().toISOString();
  let mailings = 0;
  let failedMailings = 0;
  for (let pass = 0; pass < RETENTION_PASSES; pass++) {
    const { erased, failed, more } = await eraseMailingsPastRetention({ now, ...(options.limit !== undefined && { limit: options.limit }) });
    mailings += erased;
    // An erasure that failed is logged and tried again at the next run (its mailing stays first in line).
    failedMailings += failed ?? 0;
    if (!more) break;
  }
  return { mailings, failedMailings, auditEntries: await purgeOldAuditEntries() };
}

const { resumeUnattendedMailings } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  retry: { maximumAttempts: 3 },
});

/**
 * Run by the "mailing-reconciler" Temporal Schedule: every mailing that is not final has a
 * running workflow, or gets one again (DESIGN.md §1).
 */
export async function reconcileMailings(options: { accountId?: string } = {}): Promise<{ checked: number; resumed: string[] }> {
  return resumeUnattendedMailings(options);
}

// An account of many mailings takes long to erase: the activity heartbeats after each page and
// account, so a worker that died is noticed within a minute, while a long closing may go on.
const { closeDueAccounts } = proxyActivities<Activities>({
  startToCloseTimeout: '1h',
  heartbeatTimeout: '1m',
  retry: { maximumAttempts: 3 },
});

/**
 * Run by the "account-closing" Temporal Schedule: every account whose closing's grace period is
 * over, and whose mailings have all reached their end, is closed (domain/access/closing.ts).
 */
export async function closeAccounts(): Promise<{ closed: string[]; waiting: string[] }> {
  return closeDueAccounts();
}
