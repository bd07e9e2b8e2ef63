import type { Db } from '../db/knex.js';
import { purgeExpiredCounters } from '../domain/access/keys.js';
import { purgeExpiredIdempotencyKeys } from '../domain/access/idempotency.js';
import { purgeExpiredCache } from '../domain/lookups/cache.js';

export function maintenanceActivities(db: Db) {
  return {
    /** Answers from the worker process: proves API → Temporal → worker → activity end to end. */
    async reportWorkerAlive(): Promise<string> {
      await db.raw('SELECT 1');
      return new Date().toISOString();
    },

    /** Drops rate-limit and quota windows that are over, expired partner answers, and idempotency records older than 24 h. */
    async purgeExpiredRecords(): Promise<{ idempotencyKeys: number }> {
      await purgeExpiredCounters(db);
      await purgeExpiredCache(db);
      return { idempotencyKeys: await purgeExpiredIdempotencyKeys(db) };
    },
  };
}
