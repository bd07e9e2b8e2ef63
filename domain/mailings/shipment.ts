import type { Db, Tx } from '../../db/knex.js';
import { MODE_LABELS, PROOF_LABELS, STATUS_LABELS, type Mode, type ProofKind, type ShipmentStatus } from './states.js';

import type { PostalAddress } from '../catalogue/catalogue.js';

export type { PostalAddress };

/** The letter content of a shipment (present in GET responses, absent from webhooks). */
export interface ShipmentDocument {
  kind: 'catalogue' | 'free';
  title: string;
  text: string;
  letter?: { slug: string; provider: string | null };
}

/** SPEC.md "Shipment", field for field. */
export interface Shipment {
  id: string;
  title: string;
  mode: Mode;
  modeLabel: string;
  status: ShipmentStatus;
  statusLabel: string;
  step: number;
  lastStep: number;
  trackingNumber: string;
  createdAt: string;
  events: { step: number; status: ShipmentStatus; label: string; at: string }[];
  orderId: null;
  recipient: string[];
  amountCents: number;
  reference: string;
  test: boolean;
  proofs: { kind: ProofKind; label: string }[];
  document?: ShipmentDocument;
}

export interface ShipmentRow {
  id: string;
  account_id: string;
  test: boolean;
  mode: Mode;
  status: ShipmentStatus;
  step: number;
  last_step: number;
  title: string;
  sender: PostalAddress;
  recipient: PostalAddress;
  recipient_email: string | null;
  reference: string;
  options: Record<string, boolean>;
  document: ShipmentDocument;
  amount_cents: number;
  tracking_number: string;
  created_at: Date;
}

/** The lines printed in the address window. */
export function addressLines(address: PostalAddress): string[] {
  return [address.name, ...address.lines, `${address.postcode} ${address.city}`];
}

export function toShipment(
  row: ShipmentRow,
  events: { step: number; status: ShipmentStatus; at: Date }[],
  proofs: ProofKind[],
  withDocument: boolean,
): Shipment {
  return {
    id: row.id,
    title: row.title,
    mode: row.mode,
    modeLabel: MODE_LABELS[row.mode],
    status: row.status,
    statusLabel: STATUS_LABELS[row.status],
    step: row.step,
    lastStep: row.last_step,
    trackingNumber: row.tracking_number,
    createdAt: row.created_at.toISOString(),
    events: [...events]
      .sort((a, b) => a.step - b.step)
      .map((e) => ({ step: e.step, status: e.status, label: STATUS_LABELS[e.status], at: e.at.toISOString() })),
    orderId: null,
    recipient: addressLines(row.recipient),
    amountCents: row.amount_cents,
    reference: row.reference,
    test: row.test,
    proofs: proofs.map((kind) => ({ kind, label: PROOF_LABELS[kind] })),
    ...(withDocument ? { document: row.document } : {}),
  };
}

/** Shipments with their events and proofs, in the order of `rows`. */
export async function shipmentsOf(db: Db | Tx, rows: ShipmentRow[], withDocument: boolean): Promise<Shipment[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [events, proofs] = await Promise.all([
    db('shipment_events').whereIn('shipment_id', ids).select('shipment_id', 'step', 'status', 'at'),
    db('shipment_proofs').whereIn('shipment_id', ids).select('shipment_id', 'kind').orderBy('created_at'),
  ]);
  return rows.map((row) =>
    toShipment(
      row,
      events.filter((e) => e.shipment_id === row.id),
      proofs.filter((p) => p.shipment_id === row.id).map((p) => p.kind),
      withDocument,
    ),
  );
}

export async function findShipment(db: Db | Tx, id: string, withDocument: boolean): Promise<{ row: ShipmentRow; shipment: Shipment } | undefined> {
  const row = (await db('shipments').where({ id }).first()) as ShipmentRow | undefined;
  if (!row) return undefined;
  const [shipment] = await shipmentsOf(db, [row], withDocument);
  return { row, shipment: shipment! };
}
