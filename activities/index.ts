import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import { maintenanceActivities } from './maintenance.js';

export interface ActivityDeps {
  db: Db;
  config: Config;
}

/** Every activity of the worker, as plain async functions closed over their dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...maintenanceActivities(deps.db),
  };
}

export type Activities = ReturnType<typeof createActivities>;
