import type { Caller, Deps } from '../deps.js';
import { Conflict, NotAllowed } from '../errors.js';
import { mailingStart } from './create.js';
import type { MailingViewRow } from './mailing.js';
import { isFinalMailing, type TestAdvance } from './states.js';
import { awaitsDigitalReturn } from './returned-mail.js';

/**
 * The caller's own mailing by id, or NotFound: the API reads it through its cache of polled
 * mailings, which the domain does not know.
 */
export type OwnMailingRow = (id: string) => Promise<MailingViewRow>;

/**
 * Cancels a mailing that is still paid (not yet filed) through its workflow's `cancel` update,
 * which credits the amount back. `updateId` (from the request's Idempotency-Key) makes a retried
 * call the same update.
 */
export async function cancelMailing(deps: Deps, ownRow: OwnMailingRow, id: string, updateId?: string): Promise<void> {
  const row = await ownRow(id);
  if (row.status !== 'paid') throw new Conflict(`Only a paid mailing can be canceled; this one is ${row.status}.`);
  await deps.workflows.mailings.cancel(mailingStart(deps.config, row), updateId);
}

/**
 * Moves a test mailing by hand through its workflow's `advance` update: test keys and test
 * mailings only (NotAllowed `test_only`), never a final one (Conflict). The key's mode is checked
 * before the mailing is read.
 */
export async function advanceMailing(
  deps: Deps,
  caller: Pick<Caller, 'mode'>,
  ownRow: OwnMailingRow,
  id: string,
  advance: TestAdvance,
  updateId?: string,
): Promise<void> {
  if (caller.mode !== 'test') throw new NotAllowed('Only test keys can advance mailings; live mailings move with the postal operator.', undefined, 'test_only');
  const row = await ownRow(id);
  if (!row.test) throw new NotAllowed('Only test mailings can be advanced by hand.', undefined, 'test_only');
  // A posted simple letter whose returns are handled digitally may still be returned (its workflow says what else it refuses).
  const returnable = awaitsDigitalReturn({ ...row, digital: row.options?.returnedMail === 'digital' });
  if (!returnable && isFinalMailing({ ...row, lastStep: row.last_step })) throw new Conflict(`This mailing is final (${row.status}).`);
  await deps.workflows.mailings.advance(mailingStart(deps.config, row), advance, updateId);
}
