import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { ElectronicSender, SenderAccount } from '../domain/mailings/electronic.js';
import type { Ar24Records } from './lre/ar24.js';
import type { ElectronicProvider } from './lre/electronic-provider.js';
import { electronicProvider } from './lre/provider.js';

/** A sender's calls read or write no mail: AR24's ids of a mailing are never asked here. */
const NO_MAILINGS: Ar24Records = {
  reference: (mailingId) => Promise.reject(new Error(`the sender activities keep no AR24 mail (mailing ${mailingId})`)),
  remember: (mailingId) => Promise.reject(new Error(`the sender activities keep no AR24 mail (mailing ${mailingId})`)),
};

/**
 * The sender identity's provider calls (workflows/sender-identity.ts), to the provider
 * LRE_PROVIDER names. Both are idempotent at the provider, so a retried attempt repeats no effect:
 * the sender user is found by its email before it is created, and AR24 answers a second identity
 * request with `identity_already_requested` (taken as done); the simulator records the first only.
 */
export function electronicSenderActivities(db: Db, config: Config, given?: ElectronicProvider) {
  let made: ElectronicProvider | undefined;
  // Made on first use: a worker whose AR24 is never called builds no client.
  const provider = (): ElectronicProvider => (made ??= given ?? electronicProvider(db, config, NO_MAILINGS));
  return {
    requestSenderIdentityCheck: (sender: ElectronicSender): Promise<SenderAccount> => provider().requestIdentityCheck(sender),
    readSenderIdentity: (sender: ElectronicSender): Promise<SenderAccount> => provider().ensureSender(sender),
  };
}
