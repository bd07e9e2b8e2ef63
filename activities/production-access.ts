import type { Db } from '../db/knex.js';
import { completeDirectoryCheck } from '../domain/access/production-access.js';
import type { CompanyProfile } from '../domain/lookups/results.js';

/** The productionAccessCheck workflow's write: the verdict on a request kept without its directory check. */
export function productionAccessActivities(db: Db) {
  return {
    async completeProductionCheck(requestId: string, profile: CompanyProfile | null) {
      return completeDirectoryCheck(db, requestId, profile);
    },
  };
}
