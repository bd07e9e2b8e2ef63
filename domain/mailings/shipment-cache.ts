import type { Db } from '../../db/knex.js';
import { listenTo, type ChannelListener } from '../../db/listener.js';
import { findShipment, type Shipment, type ShipmentViewRow } from './shipment.js';

/** Mailings kept per API process: the ones clients are polling. */
const MAX_ENTRIES = 2_000;
/** A safety net only: every change is announced on `shipment_changed` and dropped at once. */
const TTL_MS = 30_000;

interface Entry {
  found: { row: ShipmentViewRow; shipment: Shipment };
  expiresAt: number;
}

/**
 * The mailings GET /v1/mailings/{id} serves, kept in the process: a client polling a mailing costs
 * no query until it changes. Every change to a shipment, its events or its proofs is announced on
 * `shipment_changed` when it commits (db/migrations), and dropped here at once; while the listening
 * connection is down nothing is kept.
 */
export class ShipmentCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every change: a read that raced with one is not kept. */
  private generation = 0;
  private listener: ChannelListener | undefined;
  /**
   * Each kept shipment's JSON, written once as UTF-8 bytes: a polled mailing is neither serialized
   * nor encoded again (nor measured: its length is the buffer's).
   */
  private readonly serialized = new WeakMap<Shipment, Buffer>();

  constructor(private readonly db: Db) {}

  async start(databaseUrl: string): Promise<void> {
    this.listener = await listenTo(databaseUrl, 'shipment_changed', {
      notify: (shipmentId) => {
        this.generation += 1;
        this.entries.delete(shipmentId);
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

  /** The shipment with its letter content, as findShipment gives it. */
  async find(id: string): Promise<{ row: ShipmentViewRow; shipment: Shipment } | undefined> {
    const cached = this.entries.get(id);
    if (cached && cached.expiresAt > Date.now()) return cached.found;
    const generation = this.generation;
    const found = await findShipment(this.db, id, true);
    if (found && this.listener?.listening && generation === this.generation) {
      this.entries.delete(id);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(id, { found, expiresAt: Date.now() + TTL_MS });
    }
    return found;
  }

  /** The shipment as JSON (UTF-8 bytes), kept with the shipment object it was made from. */
  json(shipment: Shipment): Buffer {
    let bytes = this.serialized.get(shipment);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(shipment));
      this.serialized.set(shipment, bytes);
    }
    return bytes;
  }

  /** Drops a mailing this process just changed (read-your-writes without waiting for the notification). */
  forget(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
  }
}
