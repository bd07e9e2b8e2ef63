import type { Db } from '../db/knex.js';
import { purgeExpiredCounters } from '../domain/access/keys.js';
import { purgeExpiredIdempotencyKeys } from '../domain/access/idempotency.js';
import { purgeExpiredCache } from '../domain/lookups/cache.js';
import { purgeExpiredBatchChecks } from '../domain/developers/batch-checks.js';
import { purgeRequestLog } from '../domain/access/request-log.js';
import { purgeAuditLog } from '../domain/access/audit.js';
import { erasePastRetention } from '../domain/privacy/erasure.js';
import { AUDIT_LOG_RETENTION_DAYS } from '../domain/privacy/retention.js';
import { Context } from '@temporalio/activity';
import { closeDueAccounts } from '../domain/access/closing.js';
import type { Config } from '../lib/config.js';

export function maintenanceActivities(db: Db, config: Pick<Config, 'secretKey'>) {
  return {
    /** Answers from the worker process: proves API → Temporal → worker → activity end to end. */
    async reportWorkerAlive(): Promise<string> {
      await db.raw('SELECT 1');
      return new Date().toISOString();
    },

    /**
     * Drops rate-limit and quota windows that are over, expired partner answers, idempotency records
     * older than 24 h, the developer space's CSV checks older than 24 h and request log rows older
     * than 7 days.
     */
    async purgeExpiredRecords(): Promise<{ idempotencyKeys: number; requestLogRows: number }> {
      await purgeExpiredCounters(db);
      await purgeExpiredCache(db);
      await purgeExpiredBatchChecks(db);
      const idempotencyKeys = await purgeExpiredIdempotencyKeys(db);
      return { idempotencyKeys, requestLogRows: await purgeRequestLog(db) };
    },

    /**
     * One pass of the "mailing-retention" schedule (domain/privacy/erasure.ts): final mailings past
     * their account's retention period at `now` lose their personal data, at most `limit` of them;
     * `failed` counts those whose erasure failed (logged, left for the next run; absent in the
     * results of histories recorded before it).
     */
    async eraseMailingsPastRetention(options: { now: string; limit?: number }): Promise<{ erased: number; failed?: number; more: boolean }> {
      return erasePastRetention(db, { now: new Date(options.now), ...(options.limit !== undefined && { limit: options.limit }) });
    },

    /** Audit log entries older than a year (domain/privacy/retention.ts). */
    async purgeOldAuditEntries(): Promise<number> {
      return purgeAuditLog(db, AUDIT_LOG_RETENTION_DAYS);
    },

    /** Closes the accounts whose closing's grace period is over and whose mailings have all ended (domain/access/closing.ts). */
    async closeDueAccounts(): Promise<{ closed: string[]; waiting: string[] }> {
      return closeDueAccounts(db, config.secretKey, { onProgress: () => Context.current().heartbeat() });
    },
  };
}
