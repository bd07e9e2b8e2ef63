import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import type { KeyMode } from '../access/scopes.js';
import { checkBatch, type BatchReport } from '../batches/create.js';
import type { BatchRequest } from '../batches/request.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { accountCaller } from './send-mailing.js';

/**
 * The developer space's check of a CSV batch (issue 56), a job its page follows (table
 * batch_checks): the same dry run as POST /v1/mailing-batches (`checkBatch`), run after the form's
 * answer, its count of checked rows written as it goes, then its report. The posted form is kept
 * with it, so that a reload, or another process of the API, shows the same check. A check whose
 * process stopped (its lease over) is run again, from its first row, by the next page that reads it.
 */

/** How often a running check writes its count (and extends its lease). */
const PROGRESS_EVERY_MS = 500;
/** A running check nobody has written for this long lost its process. */
const LEASE_MS = 10_000;
/** Kept this long (the maintenance-purge Schedule; domain/privacy/retention.ts). */
const KEPT = "interval '24 hours'";

export interface BatchCheck {
  id: string;
  accountId: string;
  mode: KeyMode;
  /** The form as posted (each field's text), shown again with the result. */
  form: Record<string, string>;
  rowCount: number;
  checkedCount: number;
  state: 'running' | 'done' | 'failed';
  report: BatchReport | null;
  /** Why a check could not end (an outage, the account refused): the error's code and message. */
  failure: { code: string | null; message: string } | null;
  createdAt: Date;
}

interface BatchCheckRow {
  id: string;
  account_id: string;
  mode: KeyMode;
  form: Record<string, string>;
  row_count: number;
  checked_count: number;
  state: BatchCheck['state'];
  report: BatchReport | null;
  failure: string | null;
  created_at: Date;
}

const toCheck = (row: BatchCheckRow): BatchCheck => ({
  id: row.id,
  accountId: row.account_id,
  mode: row.mode,
  form: row.form,
  rowCount: row.row_count,
  checkedCount: row.checked_count,
  state: row.state,
  report: row.report,
  failure: row.failure === null ? null : (JSON.parse(row.failure) as BatchCheck['failure']),
  createdAt: row.created_at,
});

/** The database's clock, as the lease is compared with it (claimAbandonedBatchCheck). */
const leaseEnd = (db: Db) => db.raw(`now() + interval '${LEASE_MS} milliseconds'`);

/** Records a new check, leased to the process that runs it next (`runBatchCheck`). */
export async function recordBatchCheck(db: Db, input: { accountId: string; mode: KeyMode; form: Record<string, string>; rowCount: number }): Promise<string> {
  const id = randomUUID();
  await db('batch_checks').insert({
    id,
    account_id: input.accountId,
    mode: input.mode,
    form: JSON.stringify(input.form),
    row_count: input.rowCount,
    lease_until: leaseEnd(db),
  });
  return id;
}

/** An account's check, undefined for another account's (or one past its 24 hours). */
export async function findBatchCheck(db: Db, accountId: string, id: string): Promise<BatchCheck | undefined> {
  const row = (await db('batch_checks').where({ id, account_id: accountId }).whereRaw(`created_at > now() - ${KEPT}`).first()) as BatchCheckRow | undefined;
  return row && toCheck(row);
}

/** Takes over a running check whose process stopped (its lease over); true when this caller now runs it. */
export async function claimAbandonedBatchCheck(db: Db, id: string): Promise<boolean> {
  const taken = await db('batch_checks')
    .where({ id, state: 'running' })
    .where('lease_until', '<', db.fn.now())
    .update({ lease_until: leaseEnd(db), checked_count: 0 });
  return taken === 1;
}

/**
 * Runs a recorded check to its end: the account as its key would be authenticated, every row
 * through `checkBatch`, the count written every PROGRESS_EVERY_MS, then the report; a refusal or an
 * outage is the check's failure. Never throws (it runs after the answer).
 */
export async function runBatchCheck(deps: Deps, check: { id: string; accountId: string; mode: KeyMode }, request: BatchRequest): Promise<void> {
  const { db } = deps;
  const running = db('batch_checks').where({ id: check.id, state: 'running' });
  let checkedCount = 0;
  let written = Promise.resolve();
  const timer = setInterval(() => {
    written = written
      .then(() => running.clone().update({ checked_count: checkedCount, lease_until: leaseEnd(db) }))
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error, checkId: check.id }, 'batch check: progress not written'),
      );
  }, PROGRESS_EVERY_MS);
  try {
    const caller = await accountCaller(db, check.accountId, check.mode);
    const { report } = await checkBatch(deps, caller, request, (count) => (checkedCount = count));
    clearInterval(timer);
    await written;
    await running.clone().update({ state: 'done', checked_count: report.rowCount, report: JSON.stringify(report) });
  } catch (error) {
    clearInterval(timer);
    await written;
    if (!(error instanceof DomainError)) logger.error({ err: error, checkId: check.id }, 'batch check failed');
    const failure = error instanceof DomainError ? { code: error.code ?? null, message: error.message } : { code: null, message: 'internal' };
    await running
      .clone()
      .update({ state: 'failed', failure: JSON.stringify(failure) })
      .catch((err: unknown) => logger.error({ err, checkId: check.id }, 'batch check: failure not written'));
  }
}

/** Checks older than 24 hours (the maintenance-purge Schedule). */
export async function purgeExpiredBatchChecks(db: Db): Promise<number> {
  return db('batch_checks').whereRaw(`created_at < now() - ${KEPT}`).delete();
}

/** An account's checks, at its closing. */
export async function eraseAccountBatchChecks(db: Db, accountId: string): Promise<number> {
  return db('batch_checks').where({ account_id: accountId }).delete();
}
