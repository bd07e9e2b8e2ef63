import { NotAllowed } from '../errors.js';
import type { AccountStanding } from './accounts.js';
import type { KeyMode } from './scopes.js';

/**
 * The account's standing for a call in `mode`, checked alike for an API key (api/middleware/
 * authenticate.ts) and for the developer space's sends: a suspended account is refused
 * (`account_suspended`), as is an unknown one, and so is live mode before production is open
 * (`live_not_enabled`).
 */
export function checkStanding<A extends Pick<AccountStanding, 'suspended' | 'liveEnabled'>>(account: A | undefined, mode: KeyMode): asserts account is A {
  if (!account || account.suspended) throw new NotAllowed('This account is suspended. Contact support.', undefined, 'account_suspended');
  if (mode === 'live' && !account.liveEnabled)
    throw new NotAllowed('Production is not yet open for this account; use a svc_test_ key until the account is validated.', undefined, 'live_not_enabled');
}
