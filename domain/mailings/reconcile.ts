import type { Db } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import type { Deps } from '../deps.js';
import { RECONCILER_GRACE_MS } from './creation-protocol.js';
import { mailingStart } from './create.js';
import type { MailingElectronic } from './mailing.js';
import { lastStep, MODES, type Channel, type Mode } from './states.js';

/** Mailings looked at per run of the reconciler: half the newest, half the oldest. */
const BATCH = 500;

export interface ReconcileOptions {
  /** Only this account's mailings (tests, or an operator repairing one customer). */
  accountId?: string;
  /** Mailings looked at in this run (BATCH unless given). */
  batch?: number;
}

type UnfinishedRow = {
  id: string;
  account_id: string;
  mode: Mode;
  test: boolean;
  reference: string | null;
  send_at: string | null;
  channel: Channel;
  electronic: MailingElectronic | null;
};

/** Mailings not final and older than the grace period: each should have a running workflow. */
function unfinishedMailings(db: Db, options: ReconcileOptions & { shipmentId?: string; newestFirst?: boolean }): Promise<UnfinishedRow[]> {
  const query = db('shipments')
    .where('created_at', '<', new Date(Date.now() - RECONCILER_GRACE_MS))
    .whereNotIn('status', ['canceled', 'error', 'returned'])
    .andWhere((q) => {
      for (const mode of MODES) q.orWhere((m) => m.where({ mode }).andWhere('step', '<', lastStep(mode)));
      // An electronic mailing's last step is 3, or 7 / 8 once its paper fallback began (./states.ts).
      q.orWhere((m) => m.where({ channel: 'electronic' }).andWhereRaw('step < last_step'));
    })
    .andWhere((q) => q.where({ channel: 'paper' }).orWhereRaw('step < last_step'))
    .orderBy('created_at', options.newestFirst ? 'desc' : 'asc')
    .limit(options.batch ?? BATCH)
    .select('id', 'account_id', 'mode', 'test', 'reference', 'channel', 'electronic', 'options', db.raw(`to_char(send_at, 'YYYY-MM-DD') AS send_at`));
  if (options.accountId) query.andWhere({ account_id: options.accountId });
  if (options.shipmentId) query.andWhere({ id: options.shipmentId });
  return query as unknown as Promise<UnfinishedRow[]>;
}

/**
 * The repair of DESIGN.md §1: a mailing that is not final has a running workflow. One that has
 * none (terminated by hand, failed on a bug, lost in a disaster recovery) is started again, and
 * the workflow resumes from the projection: it files an unfiled letter, follows a filed one, or
 * refunds one paid too long ago (`mailing.error`).
 */
export async function resumeUnattendedMailings(deps: Deps, options: ReconcileOptions = {}): Promise<{ checked: number; resumed: string[] }> {
  // The newest past the grace period first: what a crash leaves (a mailing recorded, its workflow
  // not yet started) is found at the next run, however many older mailings wait with a running
  // workflow (sandbox mailings stay unfinished for up to 30 days). Then the oldest.
  const half = Math.ceil((options.batch ?? BATCH) / 2);
  const [newest, oldest] = await Promise.all([
    unfinishedMailings(deps.db, { ...options, batch: half, newestFirst: true }),
    unfinishedMailings(deps.db, { ...options, batch: half }),
  ]);
  const rows = [...new Map([...newest, ...oldest].map((row) => [row.id, row])).values()];
  const resumed: string[] = [];
  for (const row of rows) {
    if (await deps.workflows.mailings.isRunning(row.id)) continue;
    // Read again: a mailing that reached its end after the batch was read has closed its workflow
    // too (its last step is written before the workflow completes), and needs nothing.
    if ((await unfinishedMailings(deps.db, { shipmentId: row.id })).length === 0) continue;
    // With its send date: a mailing resumed before that day waits for it again.
    const { input, reference } = mailingStart(deps.config, row);
    if (await deps.workflows.mailings.restart({ ...input, resumed: true }, reference)) {
      resumed.push(row.id);
      logger.warn({ shipmentId: row.id }, 'reconciler: mailing without a running workflow, started again');
    }
  }
  return { checked: rows.length, resumed };
}
