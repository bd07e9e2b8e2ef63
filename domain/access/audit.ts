import type { Db } from '../../db/knex.js';
import { keysetPage } from '../pagination.js';

/**
 * The audit log (issue 15): an append-only record of changes to an account's keys, webhooks and
 * access, and of its sign-ins. Each entry is written by the domain function that makes the change,
 * in the same transaction, so a change never exists without its entry (nor an entry without its
 * change). A trigger refuses UPDATE and DELETE on the table.
 */

/** Who made a change: a signed-in developer (with the client's address), an operator (admin CLI), or the service itself. */
export type Actor =
  { kind: 'developer'; userId: string; email: string; address?: string } | { kind: 'operator'; name: string; address?: string } | { kind: 'system' };

/** Changes made through `npm run admin`. */
export const ADMIN_CLI: Actor = { kind: 'operator', name: 'admin CLI' };
/** Changes made by the service on its own (a new account's first sandbox key), or by a caller that named no actor. */
export const SYSTEM: Actor = { kind: 'system' };

export const AUDIT_ACTIONS = [
  'key.created',
  'key.revoked',
  'key.revealed',
  'webhook.created',
  'webhook.disabled',
  'webhook.enabled',
  'webhook.deleted',
  'webhook.secret_rotated',
  'production.requested',
  'production.checked',
  'production.refused',
  'account.live_enabled',
  'account.suspended',
  'account.unsuspended',
  'account.ai_enabled',
  'account.ai_disabled',
  'account.exported',
  'account.closing_requested',
  'account.closing_confirmed',
  'account.closing_canceled',
  'account.closed',
  'password.reset',
  'password.changed',
  'email.change_requested',
  'email.changed',
  '2fa.enabled',
  '2fa.disabled',
  '2fa.recovery_code_used',
  'signin.succeeded',
  'signin.failed',
  'billing_profile.created',
  'billing_profile.updated',
  'team.invited',
  'team.joined',
  'team.role_changed',
  'team.removed',
  'account.retention_changed',
  'account.return_envelope_changed',
  'account.archive_changed',
  'mailing.erased',
  'sender_identity.requested',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditInput {
  accountId: string;
  action: AuditAction;
  target: { type: 'key' | 'webhook' | 'account' | 'production_request' | 'user' | 'invitation' | 'mailing'; id: string };
  /** What helps read the entry later (a key's mode and last four characters, an address): never a secret. */
  details?: Record<string, unknown>;
}

/** Writes one entry; call it with the transaction of the change it records. */
export async function recordAudit(db: Db, actor: Actor | undefined, entry: AuditInput): Promise<void> {
  const who = actor ?? SYSTEM;
  await db('audit_log').insert({
    account_id: entry.accountId,
    action: entry.action,
    target_type: entry.target.type,
    target_id: entry.target.id,
    actor_type: who.kind,
    actor_user_id: who.kind === 'developer' ? who.userId : null,
    actor_label: who.kind === 'developer' ? who.email : who.kind === 'operator' ? who.name : null,
    client_address: who.kind === 'system' ? null : (who.address ?? null),
    details: JSON.stringify(entry.details ?? {}),
  });
}

export interface AuditEntry {
  id: string;
  at: Date;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  actorType: Actor['kind'];
  actorUserId: string | null;
  /** The developer's email, or the operator's tool. */
  actorLabel: string | null;
  clientAddress: string | null;
  details: Record<string, unknown>;
}

/** One page of the account's audit log, newest first; the cursor works for this account's log only (else InvalidRequest). */
export async function auditPage(
  db: Db,
  key: Buffer,
  accountId: string,
  options: { limit: number; cursor?: string },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const { rows: shown, nextCursor } = await keysetPage<{ created_at: Date; id: string }>(
    db('audit_log').where({ account_id: accountId }).select('*'),
    options,
    key,
    `audit:${accountId}`,
  );
  return {
    entries: (shown as unknown as Record<string, unknown>[]).map((row) => ({
      id: row.id as string,
      at: row.created_at as Date,
      action: row.action as AuditAction,
      targetType: row.target_type as string,
      targetId: row.target_id as string | null,
      actorType: row.actor_type as Actor['kind'],
      actorUserId: row.actor_user_id as string | null,
      actorLabel: row.actor_label as string | null,
      clientAddress: row.client_address as string | null,
      details: row.details as Record<string, unknown>,
    })),
    nextCursor,
  };
}

/**
 * Deletes entries older than AUDIT_LOG_RETENTION_DAYS (domain/privacy/retention.ts; the table's
 * trigger refuses any other delete). Returns how many went.
 */
export async function purgeAuditLog(db: Db, days: number): Promise<number> {
  return db('audit_log')
    .where('created_at', '<', db.raw('now() - make_interval(days => ?)', [days]))
    .delete();
}
