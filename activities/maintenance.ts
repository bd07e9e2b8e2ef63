import type { Db } from '../db/knex.js';
import { purgeExpiredCounters } from '../domain/access/keys.js';
import { purgeExpiredIdempotencyKeys } from '../domain/access/idempotency.js';
import { purgeExpiredCache } from '../domain/lookups/cache.js';
import { purgeRequestLog } from '../domain/access/request-log.js';
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
     * older than 24 h and request log rows older than 7 days.
     */
    async purgeExpiredRecords(): Promise<{ idempotencyKeys: number; requestLogRows: number }> {
      await purgeExpiredCounters(db);
      await purgeExpiredCache(db);
      const idempotencyKeys = await purgeExpiredIdempotencyKeys(db);
      return { idempotencyKeys, requestLogRows: await purgeRequestLog(db) };
    },

    /** Closes the accounts whose closing's grace period is over and whose mailings have all ended (domain/access/closing.ts). */
    async closeDueAccounts(): Promise<{ closed: string[]; waiting: string[] }> {
      return closeDueAccounts(db, config.secretKey);
    },
  };
}
