import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import { maintenanceActivities } from './maintenance.js';
import { pdfActivities } from './pdf.js';
import { searchActivities } from './search.js';
import { mailingActivities } from './mailings.js';
import { webhookActivities } from './webhooks.js';
import { lookupActivities } from './lookups.js';
import { aiActivities } from './ai.js';
import type { LlmProvider } from './partners/llm.js';
import { SimulatedOperator } from './operator/simulator.js';
import type { PostalOperator } from './operator/postal-operator.js';
import type { BrowserPool } from './pdf/browser.js';
import type { WorkflowRunner } from '../domain/deps.js';
import { reconcilerActivities } from './reconciler.js';
import { paymentActivities } from './payments.js';

export interface ActivityDeps {
  db: Db;
  config: Config;
  browsers: BrowserPool;
  /** The postal operator; the bundled simulator unless another is given. */
  operator?: PostalOperator;
  /** The LLM of the AI operations; the configured OpenAI-compatible API unless another is given. */
  llm?: LlmProvider;
  /** The workflows as the domain reaches them, for the reconciler (absent where none runs, e.g. replays). */
  workflows?: WorkflowRunner;
}

/** Every activity of the worker, as plain async functions closed over their dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...maintenanceActivities(deps.db),
    ...pdfActivities(deps.browsers),
    ...searchActivities(deps.config),
    ...mailingActivities(
      deps.db,
      deps.operator ?? new SimulatedOperator(deps.db, { stepDelayMs: deps.config.operatorStepDelayMs, failFirstFilings: deps.config.operatorFailFirstFilings }),
      deps.browsers,
    ),
    ...webhookActivities(deps.db, deps.config),
    ...lookupActivities(deps.config),
    ...aiActivities(deps.config, deps.llm),
    ...reconcilerActivities(deps.workflows && { db: deps.db, config: deps.config, workflows: deps.workflows }),
    ...paymentActivities(deps.db, deps.config),
  };
}

export type Activities = ReturnType<typeof createActivities>;
