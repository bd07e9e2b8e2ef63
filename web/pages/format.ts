/**
 * Every number, amount and date of the developer space's pages as French writes them, from one
 * place (issue 56): amounts as Intl.NumberFormat('fr-FR') gives them (« 1 234,56 € », a narrow
 * no-break space between thousands), counts with the same separators (« 5 000 »), dates and times
 * in Paris time. test/unit/web-format.test.ts fails on a page that formats a number another way.
 */

const money = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const integer = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** Cents as French euros (« 1 234,56 € »). */
export const euros = (cents: number): string => money.format(cents / 100);
/** A count or a whole quantity (« 12 345 »). */
export const count = (n: number): string => integer.format(n);
/** A number to one decimal at most (« 2,5 »). */
export const decimalNumber = (n: number): string => decimal.format(n);
/** A rate of 0 to 1 as a percentage to one decimal (« 20 % », « 5,5 % »). */
export const percent = (rate: number): string => `${decimal.format(rate * 100)} %`;

const shortDateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const secondDateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Paris' });
const longDateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
const longDate = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' });
const shortDay = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'Europe/Paris' });
const monthYear = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'Europe/Paris' });

/** A date and time, Paris time (« 02/12/2026 14:40 »), or « — ». */
export const when = (date: Date | null): string => (date ? shortDateTime.format(date) : '—');
/** To the second: a log is read call by call. */
export const whenToTheSecond = (date: Date): string => secondDateTime.format(date);
/** A date in words, Paris time (« 2 décembre 2026 à 14:40 »): a mailing's timeline. */
export const whenLong = (date: Date): string => longDateTime.format(date);
/** A day in words (« 2 décembre 2026 »). */
export const dayLong = (date: Date): string => longDate.format(date);
/** A day of a chart's axis (« 2 déc. »). */
export const dayShort = (date: Date): string => shortDay.format(date);
/** A month (« décembre 2026 »). */
export const month = (date: Date): string => monthYear.format(date);
