import type { Db, Tx } from '../../db/knex.js';
import { requireAccount } from './accounts.js';
import { recordAudit, type Actor } from './audit.js';
import type { ArchiveApi, ReturnEnvelope, ReturnEnvelopeType } from '../mailings/postal-choices.js';

/**
 * An account's postal settings (issue 55, parts 3 and 5), columns of `accounts`: the return
 * envelope it configured at the operator (Maileva's reference id and its type), and how long the
 * operator archives its letters and their proofs, per operator API. Read by a mailing's checks
 * (domain/mailings/postal-options.ts), set by `admin account return-envelope|archive` and the
 * developer space's settings (owners), audit-logged.
 */

export {
  ARCHIVE_INCLUDED_YEARS,
  ARCHIVE_YEARS,
  isArchiveYears,
  isReturnEnvelopeType,
  RETURN_ENVELOPE_TYPES,
  type ArchiveApi,
  type ReturnEnvelope,
  type ReturnEnvelopeType,
} from '../mailings/postal-choices.js';

export interface PostalSettings {
  returnEnvelope: ReturnEnvelope | null;
  /** null: the API's default (ARCHIVE_INCLUDED_YEARS). */
  archiveYears: Record<ArchiveApi, number | null>;
}

export interface PostalRow {
  return_envelope_type: ReturnEnvelopeType | null;
  return_envelope_id: string | null;
  archive_years_simple: number | null;
  archive_years_registered: number | null;
}

const COLUMNS = ['return_envelope_type', 'return_envelope_id', 'archive_years_simple', 'archive_years_registered'] as const;

/** The columns of these settings, for a read that joins accounts (the API key's record, domain/access/keys.ts). */
export const POSTAL_SETTING_COLUMNS: readonly string[] = COLUMNS;

export function settingsOf(row: PostalRow): PostalSettings {
  return {
    returnEnvelope: row.return_envelope_type && row.return_envelope_id ? { type: row.return_envelope_type, id: row.return_envelope_id } : null,
    archiveYears: { simple: row.archive_years_simple, registered: row.archive_years_registered },
  };
}

/** The account's postal settings (404 for an unknown account). */
export async function postalSettings(db: Db, accountId: string): Promise<PostalSettings> {
  const row = (await db('accounts')
    .where({ id: accountId })
    .first(...COLUMNS)) as PostalRow | undefined;
  if (!row) {
    await requireAccount(db, accountId);
    throw new Error(`account ${accountId} vanished`);
  }
  return settingsOf(row);
}

/** The account's settings, its row locked until the transaction ends (each setter's before and after). */
async function lockedSettings(trx: Tx, accountId: string): Promise<PostalSettings> {
  return settingsOf(
    (await trx('accounts')
      .where({ id: accountId })
      .forUpdate()
      .first(...COLUMNS)) as PostalRow,
  );
}

/** Sets (or, with null, removes) the account's return envelope, already checked; audit-logged when it changes. */
export async function setReturnEnvelope(db: Db, accountId: string, envelope: ReturnEnvelope | null, actor?: Actor): Promise<{ before: ReturnEnvelope | null }> {
  await requireAccount(db, accountId);
  return db.transaction(async (trx) => {
    const before = (await lockedSettings(trx, accountId)).returnEnvelope;
    await trx('accounts')
      .where({ id: accountId })
      .update({ return_envelope_type: envelope?.type ?? null, return_envelope_id: envelope?.id ?? null });
    if (JSON.stringify(before) !== JSON.stringify(envelope))
      await recordAudit(trx, actor, {
        accountId,
        action: 'account.return_envelope_changed',
        target: { type: 'account', id: accountId },
        details: { from: before, to: envelope },
      });
    return { before };
  });
}

/**
 * Sets the account's archive duration of one or both APIs (null: back to the API's default), each
 * already checked against ARCHIVE_YEARS (the database checks them again); audit-logged when it changes.
 */
export async function setArchiveYears(
  db: Db,
  accountId: string,
  change: Partial<Record<ArchiveApi, number | null>>,
  actor?: Actor,
): Promise<{ before: Record<ArchiveApi, number | null>; after: Record<ArchiveApi, number | null> }> {
  await requireAccount(db, accountId);
  return db.transaction(async (trx) => {
    const before = (await lockedSettings(trx, accountId)).archiveYears;
    const after = { ...before, ...change };
    await trx('accounts').where({ id: accountId }).update({ archive_years_simple: after.simple, archive_years_registered: after.registered });
    if (before.simple !== after.simple || before.registered !== after.registered)
      await recordAudit(trx, actor, {
        accountId,
        action: 'account.archive_changed',
        target: { type: 'account', id: accountId },
        details: { from: before, to: after },
      });
    return { before, after };
  });
}
