import { preparedQuery, type Db, type Tx } from '../../db/knex.js';
import { MODE_LABELS, PROOF_LABELS, STATUS_LABELS, type Channel, type Fallback, type Mode, type ProofKind, type MailingStatus } from './states.js';
import type { ConsumerConsent } from './electronic.js';

import type { PostalAddress } from '../catalogue/catalogue.js';
import { countryLine, isAbroad, postcodeLine } from './countries.js';
import type { RequestWarning } from '../catalogue/compatibility.js';
import type { AddressPlacement } from './own-pdf.js';
import type { MailingRequest } from './request.js';
import type { LetterDocument } from '../letters/render.js';
import { mailingPostage, type MailingPostage } from './postage.js';
import { mailingReturnedMail, type ReturnedMail } from './returned-mail.js';

export type { PostalAddress };

/** The letter content of a mailing (present in GET responses, absent from webhooks). */
export interface MailingDocument {
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

/**
 * An electronic mailing's channel (issue 54): what its request said, and what its run learnt:
 * whether the paper fallback was used, and the provider's reference once it took the letter.
 */
export interface MailingElectronic {
  recipientKind: 'professional' | 'consumer';
  consent: ConsumerConsent | null;
  fallback: Fallback;
  fallbackUsed: boolean;
  providerReference: string | null;
}

/** SPEC.md "Mailing", field for field. */
export interface Mailing {
  id: string;
  title: string;
  mode: Mode;
  modeLabel: string;
  status: MailingStatus;
  statusLabel: string;
  step: number;
  lastStep: number;
  trackingNumber: string;
  createdAt: string;
  events: { step: number; status: MailingStatus; label: string; at: string }[];
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
  /** When its personal data was erased (domain/privacy/erasure.ts); null: not erased. */
  erasedAt: string | null;
  /** paper (every mailing before issue 54) or electronic. */
  channel: Channel;
  /** null for paper. */
  electronic: MailingElectronic | null;
  /** A simple letter's postage speed, La Poste product and announced delivery time (issue 55); null for registered and AR letters. */
  postage: MailingPostage | null;
  /** A simple letter's undeliverable mail: sender or digital (issue 55); null for registered and AR letters. */
  returnedMail: ReturnedMail | null;
  document?: MailingDocument;
}

export interface MailingRow {
  id: string;
  account_id: string;
  test: boolean;
  mode: Mode;
  status: MailingStatus;
  step: number;
  last_step: number;
  title: string;
  sender: PostalAddress;
  recipient: PostalAddress;
  recipient_email: string | null;
  reference: string;
  /** As the request's, every field optional: rows recorded before an option existed lack it. */
  options: Partial<MailingRequest['options']>;
  document: MailingDocument;
  warnings: RequestWarning[];
  amount_cents: number;
  tracking_number: string;
  created_at: Date;
  /** A date column, read as its YYYY-MM-DD text (SHIPMENT_VIEW_SELECT); null or absent: filed at once. */
  send_at?: string | null;
  /** Its batch (domain/batches/); null or absent: a mailing of its own. */
  batch_id?: string | null;
  /** When its personal data was erased; null or absent: not erased. */
  erased_at?: Date | null;
  /** Absent in rows built before the channel existed: paper. */
  channel?: Channel;
  electronic?: MailingElectronic | null;
}

/** The columns a Mailing is built from (and the owner): never the layout, which only printing reads. */
export const MAILING_VIEW_COLUMNS = [
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
  'erased_at',
  'channel',
  'electronic',
  'options',
] as const;

export type MailingViewRow = Pick<MailingRow, (typeof MAILING_VIEW_COLUMNS)[number] | 'send_at' | 'batch_id'>;

/** What an erased mailing shows instead of its recipient's lines and its letter's title and text (docs/retention.md). */
export const ERASED = '(effacé)';

/** The lines printed in the address window; abroad, the postcode line in the destination's order and the country line last (./countries.ts). */
export function addressLines(address: PostalAddress): string[] {
  if (!isAbroad(address)) return [address.name, ...address.lines, `${address.postcode} ${address.city}`];
  return [address.name, ...address.lines, postcodeLine(address), countryLine(address.country)];
}

export function toMailing(
  row: MailingViewRow,
  events: { step: number; status: MailingStatus; at: Date }[],
  proofs: ProofKind[],
  withDocument: boolean,
): Mailing {
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
    recipient: row.erased_at ? [ERASED] : addressLines(row.recipient),
    amountCents: row.amount_cents,
    reference: row.reference,
    test: row.test,
    proofs: proofs.map((kind) => ({ kind, label: PROOF_LABELS[kind] })),
    warnings: row.warnings ?? [],
    sendAt: row.send_at ?? null,
    batch: row.batch_id ?? null,
    erasedAt: row.erased_at ? row.erased_at.toISOString() : null,
    channel: row.channel ?? 'paper',
    electronic: row.electronic ?? null,
    postage: mailingPostage(row.mode, row.options),
    returnedMail: mailingReturnedMail(row.mode, row.options),
    ...(withDocument ? { document: row.document } : {}),
  };
}

/**
 * A mailing's events and proof kinds, aggregated in the statement that reads the mailing `s`
 * itself (one round trip, whatever the number of mailings): GET /v1/mailings/{id}, every webhook
 * snapshot and each page of GET /v1/mailings. The subqueries run for the rows returned only (after
 * the list's Limit), each on its table's primary key. `at` has millisecond precision in the table,
 * so its JSON text parses to the same Date as the driver's.
 */
export const MAILING_VIEW_SELECT = [
  ...MAILING_VIEW_COLUMNS.map((c) => `s.${c}`),
  // As text: the driver would make a date column a Date at the server's local midnight.
  `to_char(s.send_at, 'YYYY-MM-DD') AS send_at`,
  's.batch_id',
  `coalesce((SELECT json_agg(json_build_object('step', e.step, 'status', e.status, 'at', e.at)) FROM shipment_events e WHERE e.shipment_id = s.id), '[]') AS events`,
  `array(SELECT p.kind FROM shipment_proofs p WHERE p.shipment_id = s.id ORDER BY p.created_at) AS proofs`,
].join(', ');

/** A row read with SHIPMENT_VIEW_SELECT. */
export type MailingViewRowWithHistory = MailingViewRow & { events: { step: number; status: MailingStatus; at: string }[]; proofs: ProofKind[] };

/** The row and the Mailing of a row read with SHIPMENT_VIEW_SELECT. */
export function mailingOfRow(found: MailingViewRowWithHistory, withDocument: boolean): { row: MailingViewRow; shipment: Mailing } {
  const { events, proofs, ...row } = found;
  const mailing = toMailing(
    row,
    events.map((e) => ({ step: e.step, status: e.status, at: new Date(e.at) })),
    proofs,
    withDocument,
  );
  return { row, shipment: mailing };
}

/** One mailing with its events and proofs in one prepared statement (one round trip, one pool connection, planned once per connection). */
const ONE_MAILING_SQL = `SELECT ${MAILING_VIEW_SELECT} FROM shipments s WHERE s.id = $1`;

export async function findMailing(db: Db | Tx, id: string, withDocument: boolean): Promise<{ row: MailingViewRow; shipment: Mailing } | undefined> {
  const found = await findMailingRow(db, id);
  return found && mailingOfRow(found, withDocument);
}

/** One mailing's row with its events and proofs, as read (findMailing's statement). */
export async function findMailingRow(db: Db | Tx, id: string): Promise<MailingViewRowWithHistory | undefined> {
  const [found] = await preparedQuery<MailingViewRowWithHistory>(db, 'one-shipment', ONE_MAILING_SQL, [id]);
  return found;
}

const MAILINGS_BY_ID_SQL = `SELECT ${MAILING_VIEW_SELECT} FROM shipments s WHERE s.id = ANY($1::uuid[])`;

/** Several mailings by id in one statement (those that exist), with their letter content. */
export async function findMailings(db: Db, ids: string[]): Promise<Map<string, { row: MailingViewRow; shipment: Mailing }>> {
  const rows = await preparedQuery<MailingViewRowWithHistory>(db, 'shipments-by-id', MAILINGS_BY_ID_SQL, [ids]);
  return new Map(rows.map((found) => [found.id, mailingOfRow(found, true)]));
}

/**
 * The layout a catalogue or free-form mailing of this account was printed from, while it is kept
 * (the erasure clears it); none for an own PDF (its stored bytes are printed) or another account's.
 */
export async function printedLayoutOf(db: Db, mailingId: string, accountId: string): Promise<LetterDocument | undefined> {
  const row = (await db('shipments').where({ id: mailingId, account_id: accountId }).whereNull('erased_at').whereNotNull('layout').first('layout')) as
    { layout: LetterDocument } | undefined;
  return row?.layout;
}
