import { unprocessable } from '../errors.js';
import type { MailingStatus, Mode, TestAdvance } from './states.js';

/**
 * options.returnedMail (issue 55): what happens to a simple letter that cannot be delivered.
 * sender (the default): La Poste brings it back to the sender's letterbox, and the mailing stays
 * `posted` (nothing tells us). digital: the sending asks Maileva's "gestion électronique des PND"
 * (mail v2 `treat_undelivered_mail`): the letter comes back to Maileva, which reports it (N10), and
 * the mailing ends `returned` at step 3 with the `return` proof and the reason in mailing.returned.
 * registered_mail v2 has no such field: registered and AR letters come back as their mode says
 * (docs/operators.md, "Returned mail handled digitally").
 */
export const RETURNED_MAIL = ['sender', 'digital'] as const;
export type ReturnedMail = (typeof RETURNED_MAIL)[number];

export { DIGITAL_RETURN_REASON, DIGITAL_RETURN_STEP, DIGITAL_RETURN_WINDOW_MS } from './states.js';
import { DIGITAL_RETURN_STEP } from './states.js';

/** The Shipment's returnedMail: a simple letter's choice (sender when absent); null for registered and AR letters. */
export function mailingReturnedMail(mode: Mode, options: { returnedMail?: ReturnedMail } | null | undefined): ReturnedMail | null {
  return mode === 'simple' ? (options?.returnedMail ?? 'sender') : null;
}

/** options.returnedMail with a registered or AR letter: 422 option_not_available naming the field. */
export function checkReturnedMail(request: { mode: Mode; options: { returnedMail?: ReturnedMail } }): void {
  if (request.options.returnedMail === undefined || request.mode === 'simple') return;
  throw unprocessable(
    "options.returnedMail is for simple letters: the operator's registered letter service has no digital handling of returns (a registered letter comes back to its sender; an AR letter's return is scanned already).",
    { field: 'options.returnedMail' },
    'option_not_available',
  );
}

/** Whether a mailing may still end `returned` after `posted`: a simple letter handled digitally, posted, not returned yet. */
export function awaitsDigitalReturn(mailing: { mode: Mode; status: MailingStatus; step: number; digital: boolean }): boolean {
  return mailing.digital && mailing.mode === 'simple' && mailing.status === 'posted' && mailing.step < DIGITAL_RETURN_STEP;
}

/** The one advance a posted test letter handled digitally takes: `{ status: "returned" }`. */
export function isDigitalReturnAdvance(request: TestAdvance): boolean {
  return request.status === 'returned';
}
