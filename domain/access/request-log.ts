import type { Db } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import { decodeCursor, encodeCursor } from '../pagination.js';

/**
 * The request log (issue 15): every API call made with a known key, shown to the account for
 * REQUEST_LOG_RETENTION_DAYS in the developer space. What is recorded: request id, key, account,
 * mode, method, the path as the access log writes it (no query string; a proof link's token
 * redacted), status, duration and time. Never a header, a body or a key.
 *
 * Never written on the request path: each API process keeps the rows in memory (RequestLogBuffer)
 * and inserts them in batches, one statement per batch, one table row per key of the batch (its
 * calls as lines of one uncompressed bytea): Postgres stores and indexes a batch, not each call.
 */
export const REQUEST_LOG_RETENTION_DAYS = 7;
const RETENTION_MS = REQUEST_LOG_RETENTION_DAYS * 24 * 3_600_000;

/** Rows kept in memory at most; when full, the oldest are dropped (and counted in the log). */
export const REQUEST_LOG_CAPACITY = 20_000;
/** A batch is written when this many rows wait, or FLUSH_MS after the previous one. */
export const REQUEST_LOG_FLUSH_ROWS = 1_000;
export const REQUEST_LOG_FLUSH_MS = 1_000;

/** Keys per INSERT statement (7 parameters each: far below Postgres's 65,535). */
const KEYS_PER_STATEMENT = 1_000;

/** The calls of one key in a batch: their slots in the ring, then their lines (see the migration). */
interface KeyBatch {
  accountId: string;
  keyId: string;
  mode: string;
  first: number;
  last: number;
  slots: number[];
  lines: Buffer;
}

const TAB = 9;
const NEWLINE = 10;
/** Longest line: id, time (13 digits), method, status, duration, path, 5 tabs and a newline. */
const MAX_LINE_BYTES = 36 + 16 + 32 + 6 + 16 + 200 + 6;

/** Writes a non-negative integer's digits at `pos` without making a string; the position after them. */
function writeDigits(out: Buffer, pos: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = digits - 1, rest = value; i >= 0; i--, rest = Math.floor(rest / 10)) out[pos + i] = 48 + (rest % 10);
  return pos + digits;
}

async function insertBatches(db: Db, batches: KeyBatch[]): Promise<void> {
  for (let start = 0; start < batches.length; start += KEYS_PER_STATEMENT) {
    const slice = batches.slice(start, start + KEYS_PER_STATEMENT);
    const tuple = '(?::uuid, ?::uuid, ?, to_timestamp(?::float8 / 1000), to_timestamp(?::float8 / 1000), ?::int, ?)';
    const values = slice.flatMap((b) => [b.accountId, b.keyId, b.mode, b.first, b.last, b.slots.length, b.lines]);
    await db.raw(
      `INSERT INTO api_request_log (account_id, key_id, mode, first_at, last_at, call_count, calls) VALUES ${slice.map(() => tuple).join(', ')}`,
      values,
    );
  }
}

/** Bytes kept of a path (longer ones, which no route of the API has, are cut and end with `...`). */
export const REQUEST_LOG_PATH_BYTES = 200;
const ID_BYTES = 36;

/**
 * A process's request log rows until they are written: a ring of columns (no object per request).
 * `add` is all a request pays; `flush` groups the batch by key and inserts it, one batch at a time.
 * A batch that fails is dropped and counted, as are rows pushed out of a full ring.
 *
 * The request id and the path, the only strings made for each request, are copied into byte slabs
 * rather than kept: strings kept for a second outlive the young generation and cost the garbage
 * collector more than the rest of the request log together (measured: about 3 µs per call). The
 * key, account, mode and method are strings that live anyway (the key cache, Node's method names).
 * Paths come from the request line, which Node reads as latin1: copied as latin1, they come back
 * unchanged.
 */
export class RequestLogBuffer {
  private readonly requestIds: Buffer;
  private readonly accountIds: string[];
  private readonly keyIds: string[];
  private readonly modes: string[];
  private readonly methods: string[];
  private readonly paths: Buffer;
  private readonly pathLengths: Uint16Array;
  private readonly statuses: Uint16Array;
  private readonly durations: Float64Array;
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;
  private dropped = 0;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly capacity = REQUEST_LOG_CAPACITY,
    private readonly flushRows = REQUEST_LOG_FLUSH_ROWS,
  ) {
    this.requestIds = Buffer.alloc(capacity * ID_BYTES);
    this.accountIds = new Array<string>(capacity);
    this.keyIds = new Array<string>(capacity);
    this.modes = new Array<string>(capacity);
    this.methods = new Array<string>(capacity);
    this.paths = Buffer.alloc(capacity * REQUEST_LOG_PATH_BYTES);
    this.pathLengths = new Uint16Array(capacity);
    this.statuses = new Uint16Array(capacity);
    this.durations = new Float64Array(capacity);
    this.times = new Float64Array(capacity);
  }

  /** Writes a batch every `flushMs` (and whenever flushRows wait). */
  start(flushMs = REQUEST_LOG_FLUSH_MS): void {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  /** Writes what is left (server close). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
    await this.flush();
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.count;
  }

  add(requestId: string, accountId: string, keyId: string, mode: string, method: string, path: string, status: number, ms: number, at: number): void {
    let slot: number;
    if (this.count === this.capacity) {
      slot = this.head;
      this.head = (this.head + 1) % this.capacity;
      this.dropped++;
    } else {
      slot = (this.head + this.count) % this.capacity;
      this.count++;
    }
    this.requestIds.write(requestId, slot * ID_BYTES, ID_BYTES, 'latin1');
    // One byte more than kept marks a path that was cut.
    this.pathLengths[slot] = path.length > REQUEST_LOG_PATH_BYTES ? REQUEST_LOG_PATH_BYTES + 1 : path.length;
    this.paths.write(path, slot * REQUEST_LOG_PATH_BYTES, REQUEST_LOG_PATH_BYTES, 'latin1');
    this.accountIds[slot] = accountId;
    this.keyIds[slot] = keyId;
    this.modes[slot] = mode;
    this.methods[slot] = method;
    this.statuses[slot] = status;
    this.durations[slot] = ms;
    this.times[slot] = at;
    if (this.count >= this.flushRows && this.writing === undefined) void this.flush();
  }

  /** Writes the waiting rows as one INSERT; resolves when written (or dropped: never rejects). */
  flush(): Promise<void> {
    if (this.writing) return this.writing;
    if (this.dropped) {
      logger.warn({ dropped: this.dropped, capacity: this.capacity }, 'request log buffer full: oldest rows dropped');
      this.dropped = 0;
    }
    const n = this.count;
    if (n === 0) return Promise.resolve();
    // Lines are written as bytes straight from the slabs: a batch makes no string per call.
    const batches = new Map<string, KeyBatch>();
    for (let i = 0; i < n; i++) {
      const j = (this.head + i) % this.capacity;
      const keyId = this.keyIds[j]!;
      const at = Math.round(this.times[j]!);
      this.times[j] = at;
      const batch = batches.get(keyId);
      if (batch) {
        if (at < batch.first) batch.first = at;
        if (at > batch.last) batch.last = at;
        batch.slots.push(j);
      } else batches.set(keyId, { accountId: this.accountIds[j]!, keyId, mode: this.modes[j]!, first: at, last: at, slots: [j], lines: Buffer.alloc(0) });
    }
    for (const batch of batches.values()) {
      const out = Buffer.allocUnsafe(batch.slots.length * MAX_LINE_BYTES);
      let pos = 0;
      for (const j of batch.slots) {
        if (pos > 0) out[pos++] = NEWLINE;
        pos += this.requestIds.copy(out, pos, j * ID_BYTES, (j + 1) * ID_BYTES);
        out[pos++] = TAB;
        pos = writeDigits(out, pos, this.times[j]!);
        out[pos++] = TAB;
        pos += out.write(this.methods[j]!, pos, 32, 'latin1');
        out[pos++] = TAB;
        pos = writeDigits(out, pos, this.statuses[j]!);
        out[pos++] = TAB;
        const tenths = Math.round(this.durations[j]! * 10);
        pos = writeDigits(out, pos, Math.floor(tenths / 10));
        out[pos++] = 46; // .
        out[pos++] = 48 + (tenths % 10);
        out[pos++] = TAB;
        const start = j * REQUEST_LOG_PATH_BYTES;
        const length = this.pathLengths[j]!;
        const kept = length > REQUEST_LOG_PATH_BYTES ? REQUEST_LOG_PATH_BYTES - 3 : length;
        const end = pos + this.paths.copy(out, pos, start, start + kept);
        // A tab or a line break would cut the line: Node's parser lets none through in a path, this makes sure.
        for (; pos < end; pos++) if (out[pos] === TAB || out[pos] === NEWLINE || out[pos] === 13) out[pos] = 32;
        if (kept < length) pos += out.write('...', pos, 'latin1');
      }
      batch.lines = out.subarray(0, pos);
    }
    this.head = 0;
    this.count = 0;
    this.writing = insertBatches(this.db, [...batches.values()])
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error, dropped: n }, 'request log batch not written: its rows are dropped'),
      )
      .finally(() => {
        this.writing = undefined;
      });
    return this.writing;
  }
}

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';
export const STATUS_CLASSES: readonly StatusClass[] = ['2xx', '3xx', '4xx', '5xx'];

export interface RequestLogEntry {
  requestId: string;
  keyId: string;
  mode: 'test' | 'live';
  method: string;
  path: string;
  status: number;
  durationMs: number;
  at: Date;
}

/** Batches read at a time by the page, and at most per page (a filter that matches little ends the page early). */
const BATCHES_PER_READ = 8;
const MAX_BATCHES_PER_PAGE = 200;
/** Above every version-4 uuid: a cursor "at this millisecond, before any call of it not yet shown". */
const AFTER_ALL_IDS = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

const newerFirst = (x: RequestLogEntry, y: RequestLogEntry): number =>
  y.at.getTime() - x.at.getTime() || (y.requestId > x.requestId ? 1 : y.requestId < x.requestId ? -1 : 0);

/**
 * One page of the account's request log of the last REQUEST_LOG_RETENTION_DAYS, newest first,
 * optionally for one of its keys and one status class, with the API's sealed cursors (a cursor
 * works for this account's log only: InvalidRequest otherwise) on (time, request id).
 *
 * The account's batches are read newest first by their last call (`last_at`), a few at a time, until
 * the page's calls are known to be the newest: a batch not read yet ends no later than the last one
 * read. A page that reads MAX_BATCHES_PER_PAGE batches (a filter matching few calls) ends early with
 * what is certain so far, and its cursor continues from there.
 */
export async function requestLogPage(
  db: Db,
  secretKey: Buffer,
  accountId: string,
  options: { limit: number; cursor?: string; keyId?: string; statusClass?: StatusClass; maxBatches?: number },
): Promise<{ entries: RequestLogEntry[]; nextCursor: string | null }> {
  const scope = `request-log:${accountId}`;
  const maxBatches = options.maxBatches ?? MAX_BATCHES_PER_PAGE;
  const after = options.cursor ? decodeCursor(options.cursor, secretKey, scope) : undefined;
  const afterMs = after ? Date.parse(after.createdAt) : Infinity;
  const sinceMs = Date.now() - RETENTION_MS;
  const low = options.statusClass ? Number(options.statusClass[0]) * 100 : 0;
  const high = options.statusClass ? low + 99 : 999;
  const keyIds = options.keyId ? [options.keyId] : ((await db('api_keys').where({ account_id: accountId }).pluck('id')) as string[]);
  const found: RequestLogEntry[] = [];
  let boundary: { lastAt: Date; id: string } | undefined;
  let read = 0;
  let complete = false;
  let oldestEnd = Infinity;
  while (keyIds.length) {
    const query = db('api_request_log').whereIn('key_id', keyIds).where({ account_id: accountId }).where('last_at', '>', new Date(sinceMs));
    if (after) void query.where('first_at', '<=', new Date(afterMs));
    if (boundary) void query.whereRaw('(last_at, id) < (?, ?::uuid)', [boundary.lastAt, boundary.id]);
    const batches = (await query
      .orderBy([
        { column: 'last_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(BATCHES_PER_READ)
      .select('id', 'key_id', 'mode', 'last_at', 'calls')) as { id: string; key_id: string; mode: 'test' | 'live'; last_at: Date; calls: Buffer }[];
    for (const batch of batches) {
      for (const line of batch.calls.toString('latin1').split('\n')) {
        const [requestId = '', atText, method = '', statusText, durationText, path = ''] = line.split('\t');
        const at = Number(atText);
        const status = Number(statusText);
        if (at <= sinceMs || status < low || status > high) continue;
        if (at > afterMs || (at === afterMs && requestId >= after!.id)) continue;
        found.push({ requestId, keyId: batch.key_id, mode: batch.mode, method, path, status, durationMs: Number(durationText), at: new Date(at) });
      }
    }
    read += batches.length;
    if (batches.length < BATCHES_PER_READ) {
      complete = true;
      break;
    }
    const last = batches[batches.length - 1]!;
    boundary = { lastAt: last.last_at, id: last.id };
    oldestEnd = last.last_at.getTime();
    found.sort(newerFirst);
    // Enough calls newer than any batch not read yet.
    if (found.length > options.limit && found[options.limit]!.at.getTime() > oldestEnd) {
      complete = true;
      break;
    }
    if (read >= maxBatches) break;
  }
  found.sort(newerFirst);
  const certain = complete ? found : found.filter((entry) => entry.at.getTime() > oldestEnd);
  const entries = certain.slice(0, options.limit);
  const last = entries[entries.length - 1];
  let nextCursor: string | null = null;
  if (certain.length > options.limit && last) nextCursor = encodeCursor({ createdAt: last.at.toISOString(), id: last.requestId }, secretKey, scope);
  else if (!complete) nextCursor = encodeCursor({ createdAt: new Date(oldestEnd).toISOString(), id: AFTER_ALL_IDS }, secretKey, scope);
  return { entries, nextCursor };
}

/** Batches whose last call is older than REQUEST_LOG_RETENTION_DAYS go (maintenance schedule): the number of calls deleted. */
export async function purgeRequestLog(db: Db): Promise<number> {
  const { rows } = (await db.raw(
    `WITH gone AS (DELETE FROM api_request_log WHERE last_at < now() - interval '${REQUEST_LOG_RETENTION_DAYS} days' RETURNING call_count AS calls)
     SELECT coalesce(sum(calls), 0)::int AS calls FROM gone`,
  )) as { rows: { calls: number }[] };
  return rows[0]!.calls;
}
