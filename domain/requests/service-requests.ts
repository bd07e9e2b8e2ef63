import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/knex.js';
import { keysetPage } from '../pagination.js';

export const REQUEST_KINDS = ['letter', 'calculator', 'ai_tool'] as const;
export const REQUEST_STATUSES = ['received', 'in_review', 'planned', 'published', 'declined'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export interface ServiceRequestInput {
  kind: RequestKind;
  title: string;
  description: string;
  example?: string;
  useCase?: string;
  contactEmail?: string;
}

export interface ServiceRequestRow {
  id: string;
  account_id: string;
  kind: RequestKind;
  title: string;
  description: string;
  example: string | null;
  use_case: string | null;
  contact_email: string | null;
  status: RequestStatus;
  status_note: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The ServiceRequest resource: one shape for POST, GET lists and the admin CLI. */
export function serviceRequest(row: ServiceRequestRow) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    description: row.description,
    example: row.example,
    useCase: row.use_case,
    contactEmail: row.contact_email,
    status: row.status,
    statusNote: row.status_note,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function insertServiceRequest(trx: Tx, accountId: string, input: ServiceRequestInput): Promise<ServiceRequestRow> {
  const [row] = await trx('service_requests')
    .insert({
      id: randomUUID(),
      account_id: accountId,
      kind: input.kind,
      title: input.title,
      description: input.description,
      example: input.example ?? null,
      use_case: input.useCase ?? null,
      contact_email: input.contactEmail ?? null,
    })
    .returning('*');
  return row as ServiceRequestRow;
}

/** Moves a request along its review (operators, through the admin CLI). */
export async function setServiceRequestStatus(db: Db, id: string, status: RequestStatus, note: string | undefined): Promise<ServiceRequestRow | undefined> {
  const [row] = await db('service_requests')
    .where({ id })
    .update({ status, ...(note !== undefined ? { status_note: note } : {}), updated_at: db.fn.now() })
    .returning('*');
  return row as ServiceRequestRow | undefined;
}

/** Service requests for operators, most recent first, optionally by status and account. */
export async function listServiceRequests(
  db: Db,
  filter: { status?: RequestStatus; accountId?: string; limit: number },
): Promise<(ReturnType<typeof serviceRequest> & { accountId: string })[]> {
  let q = db('service_requests')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.status) q = q.where({ status: filter.status });
  if (filter.accountId) q = q.where({ account_id: filter.accountId });
  const rows = (await q) as ServiceRequestRow[];
  return rows.map((row) => ({ ...serviceRequest(row), accountId: row.account_id }));
}

/**
 * One page of an account's service requests, most recent first: GET /v1/requests and the developer
 * space's requests page. An unreadable cursor is InvalidRequest (invalid_cursor).
 */
export async function accountServiceRequests(
  db: Db,
  secretKey: Buffer,
  accountId: string,
  options: { limit: number; cursor?: string },
): Promise<{ data: ReturnType<typeof serviceRequest>[]; nextCursor: string | null; hasMore: boolean }> {
  const result = await keysetPage<ServiceRequestRow>(db('service_requests').where({ account_id: accountId }), options, secretKey, `requests:${accountId}`);
  return { data: result.rows.map(serviceRequest), nextCursor: result.nextCursor, hasMore: result.hasMore };
}

/** A closed account's service requests keep their text, not the contact address given with them. */
export async function eraseRequestContacts(trx: Db, accountId: string): Promise<number> {
  return trx('service_requests').where({ account_id: accountId }).whereNotNull('contact_email').update({ contact_email: null });
}
