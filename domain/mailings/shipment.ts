import { preparedQuery, type Db, type Tx } from '../../db/knex.js';
import { MODE_LABELS, PROOF_LABELS, STATUS_LABELS, type Mode, type ProofKind, type ShipmentStatus } from './states.js';

import type { PostalAddress } from '../catalogue/catalogue.js';
import type { RequestWarning } from '../catalogue/compatibility.js';
import type { AddressPlacement } from './own-pdf.js';
import type { AddressCheck } from './request.js';

export type { PostalAddress };

/** The letter content of a shipment (present in GET responses, absent from webhooks). */
export interface ShipmentDocument {
  kind: 'catalogue' | 'free' | 'pdf';
  title: string;
  /** Empty for an own PDF (its text is not extracted). */
  text: string;
  letter?: { slug: string; provider: string | null };
  /** An own PDF (kind `pdf`): the SHA-256 of the file as sent, its pages, the sheets posted and where the address goes. */
  sha256?: string;
  pages?: number;
  sheets?: number;
  addressPlacement?: AddressPlacement;
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
  /** What was done with the request instead of refusing it (e.g. a field replaced by `sender`); empty when nothing. */
  warnings: RequestWarning[];
  /** The day it is filed (YYYY-MM-DD, Europe/Paris) when the request gave one; null: at once. */
  sendAt: string | null;
  /** The batch it was sent in (POST /v1/mailing-batches); null for a mailing of its own. */
  batch: string | null;
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
  options: { color?: boolean; duplex?: boolean; emailCopy?: boolean; addressCheck?: AddressCheck; addressPlacement?: AddressPlacement };
  document: ShipmentDocument;
  warnings: RequestWarning[];
  amount_cents: number;
  tracking_number: string;
  created_at: Date;
  /** A date column, read as its YYYY-MM-DD text (SHIPMENT_VIEW_SELECT); null or absent: filed at once. */
  send_at?: string | null;
  /** Its batch (domain/batches/); null or absent: a mailing of its own. */
  batch_id?: string | null;
}

/** The columns a Shipment is built from (and the owner): never the layout, which only printing reads. */
export const SHIPMENT_VIEW_COLUMNS = [
  'id',
  'account_id',
  'test',
  'mode',
  'status',
  'step',
  'last_step',
  'title',
  'recipient',
  'reference',
  'document',
  'warnings',
  'amount_cents',
  'tracking_number',
  'created_at',
] as const;

export type ShipmentViewRow = Pick<ShipmentRow, (typeof SHIPMENT_VIEW_COLUMNS)[number] | 'send_at' | 'batch_id'>;

/** The lines printed in the address window. */
export function addressLines(address: PostalAddress): string[] {
  return [address.name, ...address.lines, `${address.postcode} ${address.city}`];
}

export function toShipment(
  row: ShipmentViewRow,
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
    warnings: row.warnings ?? [],
    sendAt: row.send_at ?? null,
    batch: row.batch_id ?? null,
    ...(withDocument ? { document: row.document } : {}),
  };
}

/**
 * A shipment's events and proof kinds, aggregated in the statement that reads the shipment `s`
 * itself (one round trip, whatever the number of shipments): GET /v1/mailings/{id}, every webhook
 * snapshot and each page of GET /v1/mailings. The subqueries run for the rows returned only (after
 * the list's Limit), each on its table's primary key. `at` has millisecond precision in the table,
 * so its JSON text parses to the same Date as the driver's.
 */
export const SHIPMENT_VIEW_SELECT = [
  ...SHIPMENT_VIEW_COLUMNS.map((c) => `s.${c}`),
  // As text: the driver would make a date column a Date at the server's local midnight.
  `to_char(s.send_at, 'YYYY-MM-DD') AS send_at`,
  's.batch_id',
  `coalesce((SELECT json_agg(json_build_object('step', e.step, 'status', e.status, 'at', e.at)) FROM shipment_events e WHERE e.shipment_id = s.id), '[]') AS events`,
  `array(SELECT p.kind FROM shipment_proofs p WHERE p.shipment_id = s.id ORDER BY p.created_at) AS proofs`,
].join(', ');

/** A row read with SHIPMENT_VIEW_SELECT. */
export type ShipmentViewRowWithHistory = ShipmentViewRow & { events: { step: number; status: ShipmentStatus; at: string }[]; proofs: ProofKind[] };

/** The row and the Shipment of a row read with SHIPMENT_VIEW_SELECT. */
export function shipmentOfRow(found: ShipmentViewRowWithHistory, withDocument: boolean): { row: ShipmentViewRow; shipment: Shipment } {
  const { events, proofs, ...row } = found;
  const shipment = toShipment(
    row,
    events.map((e) => ({ step: e.step, status: e.status, at: new Date(e.at) })),
    proofs,
    withDocument,
  );
  return { row, shipment };
}

/** One shipment with its events and proofs in one prepared statement (one round trip, one pool connection, planned once per connection). */
const ONE_SHIPMENT_SQL = `SELECT ${SHIPMENT_VIEW_SELECT} FROM shipments s WHERE s.id = $1`;

export async function findShipment(db: Db | Tx, id: string, withDocument: boolean): Promise<{ row: ShipmentViewRow; shipment: Shipment } | undefined> {
  const found = await findShipmentRow(db, id);
  return found && shipmentOfRow(found, withDocument);
}

/** One shipment's row with its events and proofs, as read (findShipment's statement). */
export async function findShipmentRow(db: Db | Tx, id: string): Promise<ShipmentViewRowWithHistory | undefined> {
  const [found] = await preparedQuery<ShipmentViewRowWithHistory>(db, 'one-shipment', ONE_SHIPMENT_SQL, [id]);
  return found;
}

const SHIPMENTS_BY_ID_SQL = `SELECT ${SHIPMENT_VIEW_SELECT} FROM shipments s WHERE s.id = ANY($1::uuid[])`;

/** Several shipments by id in one statement (those that exist), with their letter content. */
export async function findShipments(db: Db, ids: string[]): Promise<Map<string, { row: ShipmentViewRow; shipment: Shipment }>> {
  const rows = await preparedQuery<ShipmentViewRowWithHistory>(db, 'shipments-by-id', SHIPMENTS_BY_ID_SQL, [ids]);
  return new Map(rows.map((found) => [found.id, shipmentOfRow(found, true)]));
}
