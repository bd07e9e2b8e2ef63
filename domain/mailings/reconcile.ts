import type { Db } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import type { Deps } from '../deps.js';
import { RECONCILER_GRACE_MS } from './creation-protocol.js';
import { mailingStart } from './create.js';
import type { MailingElectronic } from './mailing.js';
import type { Channel, Mode } from './states.js';

/** Mailings looked at per run of the reconciler: half the newest, half the next ones of its sweep. */
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
  created_at: Date;
};

/** A place in the (created_at, id) order of mailings. */
type SweepCursor = { createdAt: Date; id: string };

export type UnfinishedQuery = ReconcileOptions & { shipmentId?: string; newestFirst?: boolean; after?: SweepCursor };

/**
 * Mailings not final and older than the grace period: each should have a running workflow. Not
 * final is `step < last_step` (a paper mailing's last_step is its mode's last step, an electronic
 * one's 3, or 7 / 8 once its paper fallback began: ./states.ts) outside the ends off the path: the
 * predicate of the `shipments_unfinished` index, which the scans walk in (created_at, id) order.
 */
function unfinishedMailings(db: Db, options: UnfinishedQuery): Promise<UnfinishedRow[]> {
  return unfinishedMailingsStatement(db, options) as unknown as Promise<UnfinishedRow[]>;
}

/** The statement of a scan (exported for test/e2e/mailing-list-plans.test.ts, which checks its plan). */
export function unfinishedMailingsStatement(db: Db, options: UnfinishedQuery) {
  const query = db('shipments')
    .where('created_at', '<', new Date(Date.now() - RECONCILER_GRACE_MS))
    .whereRaw('step < last_step')
    .whereNotIn('status', ['canceled', 'error', 'returned'])
    .orderBy([
      { column: 'created_at', order: options.newestFirst ? 'desc' : 'asc' },
      { column: 'id', order: options.newestFirst ? 'desc' : 'asc' },
    ])
    .limit(options.batch ?? BATCH)
    .select(
      'id',
      'account_id',
      'mode',
      'test',
      'reference',
      'channel',
      'electronic',
      'options',
      'created_at',
      db.raw(`to_char(send_at, 'YYYY-MM-DD') AS send_at`),
    );
  if (options.accountId) query.andWhere({ account_id: options.accountId });
  if (options.shipmentId) query.andWhere({ id: options.shipmentId });
  if (options.after) query.andWhereRaw('(created_at, id) > (?, ?)', [options.after.createdAt, options.after.id]);
  return query;
}

/** The scope of a run's sweep: every account, or the one it is limited to. */
const sweepScope = (options: ReconcileOptions): string => options.accountId ?? '*';

async function sweepCursor(db: Db, scope: string): Promise<SweepCursor | undefined> {
  const row = (await db('reconciler_cursors').where({ scope }).first('after_created_at', 'after_id')) as
    { after_created_at: Date; after_id: string } | undefined;
  return row && { createdAt: row.after_created_at, id: row.after_id };
}

async function saveSweepCursor(db: Db, scope: string, cursor: SweepCursor | undefined): Promise<void> {
  if (!cursor) {
    await db('reconciler_cursors').where({ scope }).delete();
    return;
  }
  await db('reconciler_cursors')
    .insert({ scope, after_created_at: cursor.createdAt, after_id: cursor.id, updated_at: db.fn.now() })
    .onConflict('scope')
    .merge();
}

/**
 * The sweep's next mailings, oldest first from where the last run stopped; past the newest, it
 * starts again at the oldest. Its cursor moves to the last one taken (or is cleared when the sweep
 * reached the end), so that the next run goes on from there.
 */
async function nextOfSweep(db: Db, options: ReconcileOptions, count: number): Promise<UnfinishedRow[]> {
  const scope = sweepScope(options);
  const after = await sweepCursor(db, scope);
  let rows = await unfinishedMailings(db, { ...options, batch: count, after });
  if (rows.length < count && after) {
    // The end of the sweep: it starts again at the oldest, up to where it was.
    const again = await unfinishedMailings(db, { ...options, batch: count - rows.length });
    rows = [...rows, ...again.filter((row) => row.created_at < after.createdAt || (+row.created_at === +after.createdAt && row.id <= after.id))];
  }
  const last = rows.length === count ? rows[rows.length - 1] : undefined;
  await saveSweepCursor(db, scope, last && { createdAt: last.created_at, id: last.id });
  return rows;
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
  // workflow (sandbox mailings stay unfinished for up to 30 days). Then the sweep's next ones, so
  // that every mailing is looked at within a bounded number of runs, wherever it stands.
  const batch = options.batch ?? BATCH;
  const half = Math.ceil(batch / 2);
  const [newest, swept] = await Promise.all([
    unfinishedMailings(deps.db, { ...options, batch: half, newestFirst: true }),
    nextOfSweep(deps.db, options, Math.max(1, batch - half)),
  ]);
  const rows = [...new Map([...newest, ...swept].map((row) => [row.id, row])).values()];
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
