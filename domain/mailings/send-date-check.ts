import { parisDate } from '../../lib/paris-time.js';
import { unprocessable } from '../errors.js';
import { utcMidnight } from './send-date-filing-time.js';

/**
 * Which send dates (`sendAt`) a request may ask: a Europe/Paris calendar day, from today to
 * SEND_AT_MAX_DAYS ahead. The mailing is paid at once and stays `paid` until that day; its letter
 * is filed at the start of the day, 00:00 Europe/Paris (23:00 UTC the day before in winter, 22:00
 * in summer), so it can be canceled free until the end of the day before. No Paris midnight falls in a daylight
 * saving change (those happen at 02:00 and 03:00), so that instant always exists and is unique
 * (./send-date-filing-time.ts, which the mailing workflow uses for its timer).
 */

/** The farthest send date, in days after today (Europe/Paris). */
export const SEND_AT_MAX_DAYS = 180;

const DAY_MS = 86_400_000;

/** Days from one YYYY-MM-DD day to another. */
const daysBetween = (from: string, to: string): number => Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS);

/** Why a send date is refused (422 naming `sendAt`), or undefined when it is a day from today to SEND_AT_MAX_DAYS ahead. */
export function sendAtProblem(sendAt: string, nowMs = Date.now()): string | undefined {
  if (Number.isNaN(utcMidnight(sendAt))) return `${sendAt} is not a calendar day (YYYY-MM-DD)`;
  const today = parisDate(nowMs);
  const ahead = daysBetween(today, sendAt);
  if (ahead < 0) return `${sendAt} is in the past (today is ${today} in Europe/Paris)`;
  if (ahead > SEND_AT_MAX_DAYS) return `${sendAt} is more than ${SEND_AT_MAX_DAYS} days ahead (today is ${today} in Europe/Paris)`;
  return undefined;
}

/** Refuses a send date out of range with a 422 naming the field; nothing is charged before. */
export function checkSendAt(sendAt: string | undefined, nowMs = Date.now()): void {
  if (sendAt === undefined) return;
  const problem = sendAtProblem(sendAt, nowMs);
  if (problem) throw unprocessable(`Invalid send date: sendAt ${problem}.`, [{ field: 'sendAt', message: problem }]);
}
