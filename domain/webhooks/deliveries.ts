import type { Db } from '../../db/knex.js';

export interface DeliveryRecord {
  id: string;
  eventId: string;
  type: string;
  endpointId: string;
  url: string;
  status: string;
  attempts: number;
  /** When each attempt was made, first to last. */
  attemptedAt: Date[];
  lastHttpStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
}

/** An account's webhook delivery history (SPEC.md: kept 30 days), most recent first. */
export async function listDeliveries(db: Db, accountId: string, limit: number): Promise<DeliveryRecord[]> {
  const rows = await db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .where('d.account_id', accountId)
    .orderBy('d.created_at', 'desc')
    .limit(limit)
    .select(
      'd.id',
      'e.id as event_id',
      'e.type',
      'w.id as endpoint_id',
      'w.url',
      'd.status',
      'd.attempts',
      'd.attempted_at',
      'd.last_http_status',
      'd.last_error',
      'd.created_at',
      'd.updated_at',
      'd.delivered_at',
    );
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    endpointId: r.endpoint_id,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    attemptedAt: r.attempted_at,
    lastHttpStatus: r.last_http_status,
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deliveredAt: r.delivered_at,
  }));
}
