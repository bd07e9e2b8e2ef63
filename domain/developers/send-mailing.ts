import type { Db } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { KeyMode } from '../access/scopes.js';
import { accountStanding } from '../access/accounts.js';
import { checkStanding } from '../access/standing.js';
import { claimKey, releaseKey, whileClaimed } from '../access/idempotency.js';
import { createBatch } from '../batches/create.js';
import type { BatchRequest } from '../batches/request.js';
import type { Caller, Deps } from '../deps.js';
import { createMailing } from '../mailings/create.js';
import { firstPageOf } from '../mailings/own-pdf.js';
import { findOwnPdf } from '../mailings/own-pdf-store.js';
import { printedLayoutOf } from '../mailings/mailing.js';
import { prepareMailing } from '../mailings/prepare.js';
import type { MailingRequest } from '../mailings/request.js';

/**
 * Sending from the developer space (issue 29): a letter or a CSV batch, through the same domain calls
 * as POST /v1/mailing-quotes, POST /v1/mailings and POST /v1/mailing-batches, for the signed-in
 * developer's account, with the rules an API key would meet (live only once production is open, a
 * suspended account refused).
 */

/**
 * Who pays for a mailing sent from the developer space: the account as authentication would see it
 * for a key of that mode, refused as the API refuses the key (domain/access/standing.ts).
 */
export async function accountCaller(db: Db, accountId: string, mode: KeyMode): Promise<Caller> {
  const account = await accountStanding(db, accountId);
  checkStanding(account, mode);
  return { accountId, mode, balanceCents: account.balanceCents, addressCheckDefault: account.addressCheckDefault };
}

/** The PDF a mailing would print: page 1 of an own PDF, the rendered letter otherwise. Every check of the quote runs first; nothing is charged. */
export async function mailingPreviewPdf(deps: Deps, caller: Pick<Caller, 'addressCheckDefault' | 'accountId'>, request: MailingRequest): Promise<Uint8Array> {
  const prepared = await prepareMailing(deps, request, caller.addressCheckDefault, caller.accountId);
  if (prepared.ownPdf) return firstPageOf(Buffer.from((request.letter as { pdf: string }).pdf, 'base64'));
  return deps.workflows.letters.run('letterPdf', [prepared.letter.layout!], { idPrefix: 'letter-pdf' });
}

/**
 * What a mailing printed, to look at again in the developer space: page 1 of its own PDF, or its
 * catalogue or free-form letter rendered again from the layout it was printed from. Undefined once
 * erased, or for another account's mailing.
 */
export async function printedLetterPdf(deps: Deps, accountId: string, mailingId: string): Promise<Uint8Array | undefined> {
  const stored = await findOwnPdf(deps.db, mailingId, accountId);
  if (stored) return firstPageOf(stored.pdf);
  const layout = await printedLayoutOf(deps.db, mailingId, accountId);
  return layout && deps.workflows.letters.run('letterPdf', [layout], { idPrefix: 'letter-pdf' });
}

export type SendOutcome =
  /** Created now, or already by this form's first confirmation (a double submit, a reload): the id of what it created. */
  | { kind: 'created' | 'already_sent'; id: string }
  /** The same form's first confirmation is still running. */
  | { kind: 'in_progress' }
  /** The form's key was used for another request (the form was changed after being sent). */
  | { kind: 'changed' };

/**
 * Runs `create` once per form: the form's key goes through the API's idempotency store (the
 * account's and mode's keys, 24 hours), so a double submit or a reload never posts twice.
 * Refusals (422, 402, 503) free the key: the corrected form may be sent again.
 */
async function oncePerForm<T extends { id: string }>(
  deps: Deps,
  caller: Caller,
  key: string,
  fingerprint: string,
  create: (payer: Caller) => Promise<T>,
): Promise<SendOutcome> {
  const outcome = await claimKey(deps.db, caller, key, fingerprint, deps.config.idempotencyLeaseMs);
  switch (outcome.kind) {
    case 'replay':
      return { kind: 'already_sent', id: (JSON.parse(outcome.body.toString('utf8')) as { id: string }).id };
    case 'running':
      return { kind: 'in_progress' };
    case 'mismatch':
      return { kind: 'changed' };
  }
  const { claim } = outcome;
  try {
    const created = await whileClaimed(deps.db, claim, deps.config.idempotencyLeaseMs, () => create({ ...caller, idempotency: claim }));
    return { kind: 'created', id: created.id };
  } catch (error) {
    if (!claim.saved) await releaseKey(deps.db, claim);
    throw error;
  }
}

/** One mailing per letter form, as POST /v1/mailings with an Idempotency-Key. */
export function sendMailingOnce(deps: Deps, caller: Caller, formKey: string, request: MailingRequest): Promise<SendOutcome> {
  const fingerprint = sha256Hex(`dashboard POST /v1/mailings\n${JSON.stringify(request)}`);
  return oncePerForm(deps, caller, `dashboard-send:${formKey}`, fingerprint, (payer) => createMailing(deps, payer, request));
}

/** One batch per CSV form (its dry run's key), as POST /v1/mailing-batches with an Idempotency-Key. */
export function sendBatchOnce(deps: Deps, caller: Caller, formKey: string, request: BatchRequest): Promise<SendOutcome> {
  const fingerprint = sha256Hex(`dashboard POST /v1/mailing-batches\n${JSON.stringify(request)}`);
  return oncePerForm(deps, caller, `dashboard-batch:${formKey}`, fingerprint, (payer) => createBatch(deps, payer, request));
}
