const parisDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
let dayCache = { second: -1, day: '' };

/**
 * The calendar day in Europe/Paris (YYYY-MM-DD), the day of every calendar rule of the service.
 * Formatting with a time zone is costly and this runs on every call: once a second is enough.
 */
export function parisDate(nowMs = Date.now()): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== dayCache.second) dayCache = { second, day: parisDay.format(nowMs) };
  return dayCache.day;
}
