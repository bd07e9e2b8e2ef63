import type { Db } from '../../db/knex.js';
import { aiNotEnabled } from '../errors.js';
import { requireAccount } from './accounts.js';
import { recordAudit, type Actor } from './audit.js';

/**
 * Whether an account has turned the AI features on (issue 53): until it does, a live key's AI call
 * is refused (403 ai_not_enabled) before anything is billed or sent to the provider. Test keys are
 * simulated and send nothing, on or off. Accounts that existed before the setting keep AI on
 * (db/migrations/20261205000100_ai_consent.ts); new ones start off.
 */
export interface AiConsent {
  enabled: boolean;
  /** When it was turned on, and by whom (a developer's email, the operator, the migration). */
  enabledAt: Date | null;
  enabledBy: string | null;
}

export async function aiConsent(db: Db, accountId: string): Promise<AiConsent> {
  const row = (await db('accounts').where({ id: accountId }).first('ai_enabled_at', 'ai_enabled_by')) as
    { ai_enabled_at: Date | null; ai_enabled_by: string | null } | undefined;
  return { enabled: Boolean(row?.ai_enabled_at), enabledAt: row?.ai_enabled_at ?? null, enabledBy: row?.ai_enabled_by ?? null };
}

/** Throws 403 ai_not_enabled unless the account has the AI features on. */
export async function requireAiEnabled(db: Db, accountId: string): Promise<void> {
  if (!(await aiConsent(db, accountId)).enabled) throw aiNotEnabled();
}

const actorLabel = (actor: Actor): string => (actor.kind === 'developer' ? actor.email : actor.kind === 'operator' ? actor.name : 'system');

/**
 * Turns the AI features on or off, with an audit entry when it changes (`account.ai_enabled`,
 * `account.ai_disabled`, naming the provider's host the account agreed to); repeating is a no-op.
 */
export async function setAiEnabled(db: Db, accountId: string, enabled: boolean, actor: Actor, provider: { host: string }): Promise<AiConsent> {
  await requireAccount(db, accountId);
  return db.transaction(async (trx) => {
    const before = await trx('accounts').where({ id: accountId }).forUpdate().first('ai_enabled_at');
    const was = Boolean(before.ai_enabled_at);
    if (was !== enabled) {
      await trx('accounts')
        .where({ id: accountId })
        .update(enabled ? { ai_enabled_at: trx.fn.now(), ai_enabled_by: actorLabel(actor) } : { ai_enabled_at: null, ai_enabled_by: null });
      await recordAudit(trx, actor, {
        accountId,
        action: enabled ? 'account.ai_enabled' : 'account.ai_disabled',
        target: { type: 'account', id: accountId },
        details: { provider: provider.host },
      });
    }
    return aiConsent(trx, accountId);
  });
}
