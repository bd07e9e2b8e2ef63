import { parisDate } from '../../lib/paris-time.js';
import { unprocessable } from '../errors.js';

/**
 * A mailing's send date (`sendAt`): a Europe/Paris calendar day, from today to SEND_AT_MAX_DAYS
 * ahead. The mailing is paid at once and stays `paid` until that day; its letter is filed at the
 * start of the day, 00:00 Europe/Paris (23:00 UTC the day before in winter, 22:00 in summer), so
 * it can be canceled free until the end of the day before. No Paris midnight falls in a daylight
 * saving change (those happen at 02:00 and 03:00), so that instant always exists and is unique.
 * Pure: the mailing workflow uses it too (workflows/mailing/send-date.ts).
 */

/** The farthest send date, in days after today (Europe/Paris). */
export const SEND_AT_MAX_DAYS = 180;

/** The shape of a send date; whether it is a real day in range is checked by checkSendAt (422). */
export const SEND_AT_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const DAY_MS = 86_400_000;

const parisClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** How far Paris time is ahead of UTC at an instant, in ms (1 h in winter, 2 h in summer). */
function parisOffsetMs(instantMs: number): number {
  const part = (parts: Intl.DateTimeFormatPart[], type: string): number => Number(parts.find((p) => p.type === type)!.value);
  const parts = parisClock.formatToParts(instantMs);
  const asUtc = Date.UTC(part(parts, 'year'), part(parts, 'month') - 1, part(parts, 'day'), part(parts, 'hour'), part(parts, 'minute'), part(parts, 'second'));
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

/** The UTC midnight of a YYYY-MM-DD day, or NaN when it is no calendar day (2027-02-30). */
function utcMidnight(day: string): number {
  if (!SEND_AT_PATTERN.test(day)) return NaN;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const ms = Date.UTC(year, month - 1, date);
  return new Date(ms).toISOString().slice(0, 10) === day ? ms : NaN;
}

/** The instant a letter with this send date is filed: 00:00 Europe/Paris that day. */
export function filingInstantMs(sendAt: string): number {
  const midnight = utcMidnight(sendAt);
  // Paris midnight is UTC midnight minus the offset in force then; the offset a few hours before
  // UTC midnight is the one of Paris midnight, as the changes happen at 01:00 UTC, never between 21:00 and 00:00 UTC.
  return midnight - parisOffsetMs(midnight - 3 * 3600_000);
}

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
