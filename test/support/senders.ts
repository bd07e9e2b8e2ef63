import type { Db } from '../../db/knex.js';
import { recordedSenderOf, type SenderProvider } from '../../domain/developers/sender-identity.js';
import type { ElectronicSender } from '../../domain/mailings/electronic.js';

/**
 * Records an account's sender identity as verified at a provider, as the developer space's request
 * leaves it once the provider says so (test/e2e/sender-identity.test.ts goes through that page):
 * the sender its live electronic letters then name. The billing profile must exist.
 */
export async function recordVerifiedSender(
  db: Db,
  accountId: string,
  provider: SenderProvider,
  person: { email: string; firstName: string; lastName: string },
): Promise<ElectronicSender> {
  const now = new Date();
  await db('lre_senders')
    .insert({
      account_id: accountId,
      provider,
      email: person.email,
      first_name: person.firstName,
      last_name: person.lastName,
      identity: 'verified',
      requested_at: now,
      verified_at: now,
      checked_at: now,
    })
    .onConflict(['account_id', 'provider'])
    .merge();
  return (await recordedSenderOf(db, accountId, provider))!;
}
