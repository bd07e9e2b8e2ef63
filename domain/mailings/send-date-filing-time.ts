/**
 * When a letter with a send date is filed: 00:00 Europe/Paris on that day (23:00 UTC the day
 * before in winter, 22:00 in summer). No Paris midnight falls in a daylight saving change (those
 * happen at 02:00 and 03:00), so that instant always exists and is unique. Pure, with no import:
 * the mailing workflow computes its timer with it (workflows/mailing/send-date.ts); which send
 * dates a request may ask is ./send-date-check.ts.
 */

/** The shape of a send date; whether it is a real day in range is checked by checkSendAt (422). */
export const SEND_AT_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Made on first use: every module of the workflow bundle is evaluated again for each new workflow,
 * and building a formatter with a time zone costs ICU about 0.15 ms, for the few mailings that have
 * a send date.
 */
let parisClock: Intl.DateTimeFormat | undefined;

function parisClockParts(instantMs: number): Intl.DateTimeFormatPart[] {
  parisClock ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return parisClock.formatToParts(instantMs);
}

/** How far Paris time is ahead of UTC at an instant, in ms (1 h in winter, 2 h in summer). */
function parisOffsetMs(instantMs: number): number {
  const part = (parts: Intl.DateTimeFormatPart[], type: string): number => Number(parts.find((p) => p.type === type)!.value);
  const parts = parisClockParts(instantMs);
  const asUtc = Date.UTC(part(parts, 'year'), part(parts, 'month') - 1, part(parts, 'day'), part(parts, 'hour'), part(parts, 'minute'), part(parts, 'second'));
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

/** The UTC midnight of a YYYY-MM-DD day, or NaN when it is no calendar day (2027-02-30). */
export function utcMidnight(day: string): number {
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
