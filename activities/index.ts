import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import { maintenanceActivities } from './maintenance.js';
import { pdfActivities } from './pdf.js';
import { searchActivities } from './search.js';
import type { BrowserPool } from './pdf/browser.js';

export interface ActivityDeps {
  db: Db;
  config: Config;
  browsers: BrowserPool;
}

/** Every activity of the worker, as plain async functions closed over their dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...maintenanceActivities(deps.db),
    ...pdfActivities(deps.browsers),
    ...searchActivities(deps.config),
  };
}

export type Activities = ReturnType<typeof createActivities>;
