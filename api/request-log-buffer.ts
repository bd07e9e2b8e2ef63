import type { Db } from '../db/knex.js';
import { logger } from '../lib/logger.js';
import { insertRequestLogBatches, type RequestLogBatch } from '../domain/access/request-log.js';

/** Rows kept in memory at most; when full, the oldest are dropped (and counted in the log). */
export const REQUEST_LOG_CAPACITY = 20_000;
/** A batch is written when this many rows wait, or FLUSH_MS after the previous one. */
export const REQUEST_LOG_FLUSH_ROWS = 1_000;
export const REQUEST_LOG_FLUSH_MS = 1_000;

/** The calls of one key in a batch: their slots in the ring, then their lines. */
interface KeyBatch extends RequestLogBatch {
  slots: number[];
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
      } else
        batches.set(keyId, {
          accountId: this.accountIds[j]!,
          keyId,
          mode: this.modes[j]!,
          first: at,
          last: at,
          slots: [j],
          callCount: 0,
          lines: Buffer.alloc(0),
        });
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
      batch.callCount = batch.slots.length;
      batch.lines = out.subarray(0, pos);
    }
    this.head = 0;
    this.count = 0;
    this.writing = insertRequestLogBatches(this.db, [...batches.values()])
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
