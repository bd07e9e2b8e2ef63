import type { Db } from '../../db/knex.js';
import { listenTo, type ChannelListener } from '../../db/listener.js';
import { findMailings, type Mailing, type MailingViewRow } from '../../domain/mailings/mailing.js';

/** Mailings kept per API process: the ones clients are polling. */
const MAX_ENTRIES = 2_000;
/** A safety net only: every change is announced on `shipment_changed` and dropped at once. */
const TTL_MS = 30_000;
/** Reads not in the cache, asked in the same turn of the event loop, go to Postgres together: at most this many per statement. */
const READS_PER_STATEMENT = 100;

type Found = { row: MailingViewRow; shipment: Mailing } | undefined;

interface Entry {
  found: NonNullable<Found>;
  expiresAt: number;
}

/**
 * The mailings GET /v1/mailings/{id} serves, kept in the process: a client polling a mailing costs
 * no query until it changes. Every change to a mailing, its events or its proofs is announced on
 * `shipment_changed` when it commits (db/migrations), and dropped here at once; while the listening
 * connection is down nothing is kept.
 */
export class MailingCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every change: a read that raced with one is not kept. */
  private generation = 0;
  private listener: ChannelListener | undefined;
  /**
   * Each kept mailing's JSON, written once as UTF-8 bytes: a polled mailing is neither serialized
   * nor encoded again (nor measured: its length is the buffer's).
   */
  private readonly serialized = new WeakMap<Mailing, Buffer>();

  constructor(private readonly db: Db) {}

  async start(databaseUrl: string): Promise<void> {
    this.listener = await listenTo(databaseUrl, 'shipment_changed', {
      notify: (mailingId) => {
        this.generation += 1;
        this.entries.delete(mailingId);
      },
      reset: () => {
        this.generation += 1;
        this.entries.clear();
      },
    });
  }

  async stop(): Promise<void> {
    await this.listener?.stop();
  }

  /** The mailing with its letter content, as findMailing gives it. */
  async find(id: string): Promise<Found> {
    const cached = this.entries.get(id);
    if (cached && cached.expiresAt > Date.now()) return cached.found;
    return new Promise<Found>((resolve, reject) => {
      const waiting = this.misses.get(id);
      if (waiting) waiting.push({ resolve, reject });
      else this.misses.set(id, [{ resolve, reject }]);
      if (!this.readScheduled) {
        this.readScheduled = true;
        setImmediate(() => this.readMisses());
      }
    });
  }

  /** Mailings asked for and not in the cache, each with its callers: read together (readMisses). */
  private readonly misses = new Map<string, { resolve: (found: Found) => void; reject: (error: unknown) => void }[]>();
  private readScheduled = false;

  /**
   * Reads what this turn of the event loop missed in one statement per READS_PER_STATEMENT: under
   * load, clients polling many different mailings cost Postgres one round trip for many (a round
   * trip, and the wake-up of Postgres it takes, is most of an uncached read); alone, a read waits
   * for nothing.
   */
  private readMisses(): void {
    this.readScheduled = false;
    const batch = [...this.misses.entries()];
    this.misses.clear();
    for (let start = 0; start < batch.length; start += READS_PER_STATEMENT) {
      const part = batch.slice(start, start + READS_PER_STATEMENT);
      const generation = this.generation;
      findMailings(
        this.db,
        part.map(([id]) => id),
      ).then(
        (found) => {
          for (const [id, callers] of part) {
            const mailing = found.get(id);
            if (mailing && this.listener?.listening && generation === this.generation) this.keep(id, mailing);
            for (const caller of callers) caller.resolve(mailing);
          }
        },
        (error: unknown) => {
          for (const [, callers] of part) for (const caller of callers) caller.reject(error);
        },
      );
    }
  }

  private keep(id: string, found: NonNullable<Found>): void {
    this.entries.delete(id);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { found, expiresAt: Date.now() + TTL_MS });
  }

  /** The mailing as JSON (UTF-8 bytes), kept with the mailing object it was made from. */
  json(mailing: Mailing): Buffer {
    let bytes = this.serialized.get(mailing);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(mailing));
      this.serialized.set(mailing, bytes);
    }
    return bytes;
  }

  /** Drops a mailing this process just changed (read-your-writes without waiting for the notification). */
  forget(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
  }
}
