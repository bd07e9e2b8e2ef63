import type { Db, Tx } from '../../db/knex.js';
import type { Config } from '../../lib/config.js';
import { keysetQuery, page } from '../pagination.js';
import { mailingStart } from '../mailings/create.js';
import { isFinalOn, PATHS, type Channel, type Fallback, type Mode, type MailingStatus } from '../mailings/states.js';
import type { MailingStart } from '../mailings/workflow-input.js';
import type { MailingPort } from '../mailings/port.js';
import { mapBounded } from '../../lib/bounded.js';
import { mailingsCreated, recordWebhookEvent } from '../webhooks/events.js';
import type { DeliveryTarget } from '../webhooks/event-types.js';

/** The batch resource (GET /v1/mailing-batches/{id}): its mailings counted by status. */
export interface MailingBatch {
  id: string;
  mode: Mode;
  test: boolean;
  channel: Channel;
  /** An electronic batch's paper fallback; null for paper. */
  fallback: Fallback | null;
  /** `processing` until every mailing is final, then `completed` (mailing_batch.completed). */
  status: 'processing' | 'completed';
  mailingCount: number;
  amountCents: number;
  counts: Partial<Record<MailingStatus, number>>;
  createdAt: string;
  finishedAt: string | null;
}

export interface BatchRow {
  id: string;
  account_id: string;
  test: boolean;
  mode: Mode;
  channel: Channel;
  fallback: Fallback | null;
  row_count: number;
  amount_cents: number;
  created_at: Date;
  finished_at: Date | null;
}

/** The counts per status of each batch's mailings, in one statement. */
async function countsOf(db: Db | Tx, ids: string[]): Promise<Map<string, Partial<Record<MailingStatus, number>>>> {
  const rows: { batch_id: string; status: MailingStatus; n: string }[] = ids.length
    ? await db('shipments').whereIn('batch_id', ids).select('batch_id', 'status').count('* as n').groupBy('batch_id', 'status')
    : [];
  const counts = new Map<string, Partial<Record<MailingStatus, number>>>();
  for (const row of rows) counts.set(row.batch_id, { ...counts.get(row.batch_id), [row.status]: Number(row.n) });
  return counts;
}

export function toBatch(row: BatchRow, counts: Partial<Record<MailingStatus, number>>): MailingBatch {
  return {
    id: row.id,
    mode: row.mode,
    test: row.test,
    channel: row.channel,
    fallback: row.fallback,
    status: row.finished_at ? 'completed' : 'processing',
    mailingCount: row.row_count,
    amountCents: row.amount_cents,
    counts,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/** The batch row, written in the transaction that records its mailings. */
export async function insertBatch(trx: Tx, row: BatchRow): Promise<void> {
  await trx('mailing_batches').insert(row);
}

/** A batch of the account in the key's environment, or undefined. */
export async function findBatch(db: Db, owner: { accountId: string; test: boolean }, id: string): Promise<MailingBatch | undefined> {
  const row: BatchRow | undefined = await db('mailing_batches').where({ id, account_id: owner.accountId, test: owner.test }).first();
  return row && toBatch(row, (await countsOf(db, [id])).get(id) ?? {});
}

/** One page of an account's batches of one environment, most recent first (the cursor of every list). */
export async function listBatches(
  db: Db,
  secretKey: Buffer,
  filter: { accountId: string; test: boolean; limit: number; cursor?: string },
): Promise<{ data: MailingBatch[]; nextCursor: string | null; hasMore: boolean }> {
  const scope = `mailing-batches:${filter.accountId}:${filter.test ? 'test' : 'live'}`;
  const query = db('mailing_batches').where({ account_id: filter.accountId, test: filter.test });
  const rows = (await keysetQuery(query, filter, secretKey, scope)) as BatchRow[];
  const result = page(rows, filter.limit, secretKey, scope);
  const counts = await countsOf(
    db,
    result.rows.map((r) => r.id),
  );
  return { data: result.rows.map((r) => toBatch(r, counts.get(r.id) ?? {})), nextCursor: result.nextCursor, hasMore: result.hasMore };
}

/**
 * The next `limit` mailings of a batch after `after` (by id), as their workflows start: each with
 * its `mailing.created` as the batch recorded it (input `created`: the workflow's first task then
 * starts the event's deliveries without reading the record, as a single POST's does). Batches
 * recorded before their events were (and a mailing whose event is gone) start without it.
 */
export async function batchMailingStarts(db: Db, config: Config, batchId: string, after: string | null, limit: number): Promise<MailingStart[]> {
  const query = db('shipments')
    .where({ batch_id: batchId })
    .orderBy('id')
    .limit(limit)
    .select('id', 'account_id', 'mode', 'test', 'reference', 'channel', 'electronic', 'options', db.raw(`to_char(send_at, 'YYYY-MM-DD') AS send_at`));
  if (after) query.andWhere('id', '>', after);
  const rows = (await query) as Parameters<typeof mailingStart>[1][];
  const created = await mailingsCreated(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const start = mailingStart(config, row);
    const event = created.get(row.id);
    return { ...start, input: { ...start.input, ...(event && { created: event }) }, batchId };
  });
}

/**
 * Workflows a batch starts at once. The dev server's starts slowed down past a few at once
 * (temporal/mailings.ts): 32 at once started a batch's mailings slower than 16, and 8 no faster.
 */
export const BATCH_STARTS_AT_ONCE = 16;

/**
 * Starts the workflows of every mailing of a batch after `after` (by id), in order, `chunkSize`
 * read at a time (the next chunk read while one starts) and BATCH_STARTS_AT_ONCE started at once,
 * each under its own id (already started is done). `onProgress` hears, after each start, the id
 * through which every mailing is started: a retry resumes there. Returns how many it started.
 * The batch workflow asks for this once (one activity), so its starts never wait for its own
 * workflow tasks, which queue behind the first tasks of the mailings it has just started.
 */
export async function startAllBatchMailings(
  db: Db,
  config: Config,
  mailings: MailingPort,
  batchId: string,
  after: string | null,
  chunkSize: number,
  onProgress: (startedThrough: string | null) => void = () => undefined,
): Promise<number> {
  let startedThrough = after;
  let started = 0;
  const read = (from: string | null): Promise<MailingStart[]> => {
    const reading = batchMailingStarts(db, config, batchId, from, chunkSize);
    // Read ahead: a start that fails first leaves this read unawaited.
    reading.catch(() => undefined);
    return reading;
  };
  let next = read(after);
  for (;;) {
    const chunk = await next;
    if (chunk.length === 0) return started;
    const last = chunk.at(-1)!.input.shipmentId;
    next = chunk.length < chunkSize ? Promise.resolve([]) : read(last);
    await mapBounded(chunk, BATCH_STARTS_AT_ONCE, async (start) => {
      await mailings.startOnce(start);
      onProgress(startedThrough);
    });
    started += chunk.length;
    startedThrough = last;
    onProgress(startedThrough);
  }
}

/**
 * Whether every mailing of the batch is final (canceled, returned, error, or at its path's last
 * step). An electronic batch's mailings are on the paper path once a status of it shows (its
 * fallback began); before, an electronic end is final unless the batch has a paper fallback.
 */
export async function batchIsFinal(db: Db, batchId: string): Promise<boolean> {
  const batch: Pick<BatchRow, 'mode' | 'channel' | 'fallback'> | undefined = await db('mailing_batches')
    .where({ id: batchId })
    .first('mode', 'channel', 'fallback');
  if (!batch) return true;
  const counts = (await countsOf(db, [batchId])).get(batchId) ?? {};
  return Object.keys(counts).every((status) => isFinalInBatch(batch, status as MailingStatus));
}

/**
 * Whether a mailing of this batch is at its end in this status. The counts say statuses, not
 * tracks: a status of the paper path in an electronic batch is its fallback's (./states.ts).
 */
function isFinalInBatch(batch: Pick<BatchRow, 'mode' | 'channel' | 'fallback'>, status: MailingStatus): boolean {
  const paperSteps = PATHS[batch.mode].slice(1) as MailingStatus[];
  return isFinalOn({ mode: batch.mode, channel: batch.channel, fallback: batch.fallback ?? 'none', fallbackUsed: paperSteps.includes(status) }, status);
}

/** How many of a batch's mailings have reached their end (its progress, shown in the developer space). */
export function finishedMailings(batch: Pick<MailingBatch, 'mode' | 'channel' | 'fallback' | 'counts'>): number {
  return Object.entries(batch.counts).reduce((sum, [status, n]) => sum + (isFinalInBatch(batch, status as MailingStatus) ? (n ?? 0) : 0), 0);
}

/**
 * The batch's end: `finished_at` (once) and its event mailing_batch.completed, for the endpoints
 * that chose it by name; returns the deliveries to start. Repeating it records nothing twice.
 */
export async function completeBatch(db: Db, batchId: string): Promise<DeliveryTarget[]> {
  await db('mailing_batches').where({ id: batchId }).whereNull('finished_at').update({ finished_at: new Date() });
  const row: BatchRow = await db('mailing_batches').where({ id: batchId }).first();
  const batch = toBatch(row, (await countsOf(db, [batchId])).get(batchId) ?? {});
  return recordWebhookEvent(db, {
    eventKey: `batch/${batchId}/completed`,
    type: 'mailing_batch.completed',
    accountId: row.account_id,
    livemode: !row.test,
    created: batch.finishedAt!,
    data: { batch },
  });
}
