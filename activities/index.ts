import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import { maintenanceActivities } from './maintenance.js';
import { pdfActivities } from './pdf.js';
import { searchActivities } from './search.js';
import { mailingActivities, type OperatorCounters, type PostalOperators } from './mailings.js';
import { MailevaOperator } from './operator/maileva.js';
import { MailevaClient } from './partners/maileva.js';
import { operatorReference, rememberOperatorReference, type OperatorReference } from '../domain/mailings/projection.js';
import { webhookActivities } from './webhooks.js';
import { lookupActivities } from './lookups.js';
import { aiActivities } from './ai.js';
import type { LlmProvider } from './partners/llm.js';
import { SimulatedOperator } from './operator/simulator.js';
import type { PostalOperator } from './operator/postal-operator.js';
import type { BrowserPool } from './pdf/browser.js';
import type { Workflows } from '../domain/deps.js';
import { reconcilerActivities } from './reconciler.js';
import { paymentActivities } from './payments.js';
import { productionAccessActivities } from './production-access.js';
import { batchActivities } from './batches.js';
import { electronicSenderActivities } from './electronic-senders.js';
import { electronicActivities } from './electronic.js';
import type { ElectronicProvider } from './lre/electronic-provider.js';
import { electronicProvider } from './lre/provider.js';
import { lreReference, rememberLreReference } from '../domain/mailings/electronic-sending.js';

export interface ActivityDeps {
  db: Db;
  config: Config;
  browsers: BrowserPool;
  /** The operator that takes new live letters; the one POSTAL_OPERATOR names unless another is given. */
  operator?: PostalOperator;
  /** The LLM of the AI operations; the configured OpenAI-compatible API unless another is given. */
  llm?: LlmProvider;
  /** The workflows as the domain reaches them, for the reconciler (absent where none runs, e.g. replays). */
  workflows?: Workflows;
  /** The worker's metrics of operator calls (METRICS_PORT); uncounted when absent. */
  counters?: OperatorCounters;
  /** The electronic registered letter provider; the one LRE_PROVIDER names unless another is given. */
  electronic?: ElectronicProvider;
}

/** The provider LRE_PROVIDER names, AR24's ids of a mailing kept with the mailing. */
function lreProvider(deps: ActivityDeps): ElectronicProvider {
  if (deps.electronic) return deps.electronic;
  const { db, config } = deps;
  return electronicProvider(db, config, { reference: (id) => lreReference(db, id), remember: (id, ref) => rememberLreReference(db, id, ref) });
}

/** The simulator always (letters it took are followed to the end), Maileva when POSTAL_OPERATOR=maileva. */
function postalOperators(deps: ActivityDeps): PostalOperators {
  const { db, config } = deps;
  const simulator = new SimulatedOperator(db, { stepDelayMs: config.operatorStepDelayMs, failFirstFilings: config.operatorFailFirstFilings });
  const setting = config.postalOperator;
  if (setting.kind !== 'maileva') return { simulator, live: deps.operator ?? simulator };
  const records = {
    reference: (id: string) => operatorReference(db, id),
    remember: (id: string, ref: Partial<OperatorReference>) => rememberOperatorReference(db, id, ref),
  };
  const maileva = new MailevaOperator(new MailevaClient(setting.maileva), records, setting.maileva.notificationEmail);
  return { simulator, maileva, live: deps.operator ?? maileva };
}

/** Every activity of the worker, as plain async functions closed over their dependencies. */
export function createActivities(deps: ActivityDeps) {
  // One provider for the letters and their senders (its AR24 client keeps the mails' ids).
  const lre = lreProvider(deps);
  return {
    ...maintenanceActivities(deps.db, deps.config),
    ...pdfActivities(deps.browsers),
    ...searchActivities(deps.config),
    ...mailingActivities(deps.db, postalOperators(deps), deps.browsers, deps.counters),
    ...webhookActivities(deps.db, deps.config),
    ...lookupActivities(deps.config),
    ...aiActivities(deps.config, deps.llm),
    ...reconcilerActivities(deps.workflows && { db: deps.db, config: deps.config, workflows: deps.workflows }),
    ...paymentActivities(deps.db, deps.config),
    ...productionAccessActivities(deps.db),
    ...batchActivities(deps.db, deps.config, deps.workflows),
    ...electronicSenderActivities(deps.db, deps.config, lre),
    ...electronicActivities(deps.db, lre, deps.browsers),
  };
}

export type Activities = ReturnType<typeof createActivities>;
