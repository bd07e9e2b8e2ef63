import { parisDate } from '../../lib/paris-time.js';
import { unprocessable } from '../errors.js';
import { utcMidnight } from './send-date-filing-time.js';
import { ELECTRONIC_MODES, type Channel } from './states.js';
import type { MailingElectronic } from './mailing.js';
import type { MailingRequest } from './request.js';

/**
 * The checks of a request's channel (issue 54; docs/api-guide.md, "Electronic registered
 * letters"), before anything is priced or charged. What Joi cannot say in the OpenAPI document
 * (a field required or refused by another's value) is said here, as 422s naming the field.
 * The sender's verified identity (422 `sender_identity_unverified`) is checked at creation for
 * live mailings (domain/mailings/create.ts), not here: a quote does not need it.
 */
export function checkChannel(request: Pick<MailingRequest, 'mode' | 'channel' | 'electronic' | 'recipientEmail'>, nowMs = Date.now()): void {
  const channel: Channel = request.channel ?? 'paper';
  if (channel === 'paper') {
    if (request.electronic) throw unprocessable('electronic is only for channel "electronic"; a paper mailing has none.', { field: 'electronic' });
    return;
  }
  if (!ELECTRONIC_MODES.includes(request.mode))
    throw unprocessable(
      `The electronic channel sends registered letters (mode registered or ar); mode ${request.mode} is posted only.`,
      { field: 'channel' },
      'channel_not_available',
    );
  const { electronic } = request;
  if (!electronic) throw unprocessable('channel "electronic" needs electronic: { recipientKind, consent?, fallback }.', { field: 'electronic' });
  if (!request.recipientEmail)
    throw unprocessable(
      'An electronic registered letter is sent to the recipient by email: recipientEmail is required.',
      { field: 'recipientEmail' },
      'recipient_email_required',
    );
  if (electronic.recipientKind === 'consumer') {
    if (!electronic.consent)
      throw unprocessable(
        'A consumer recipient must have agreed beforehand to receive registered letters electronically (CPCE L100): electronic.consent { date, means } states when and how.',
        { field: 'electronic.consent' },
        'consent_required',
      );
    const today = parisDate(nowMs);
    if (Number.isNaN(utcMidnight(electronic.consent.date)))
      throw unprocessable(`electronic.consent.date ${electronic.consent.date} is not a calendar day (YYYY-MM-DD).`, [
        { field: 'electronic.consent.date', message: 'not a calendar day' },
      ]);
    if (utcMidnight(electronic.consent.date) > utcMidnight(today))
      throw unprocessable(`electronic.consent.date ${electronic.consent.date} is in the future (today is ${today} in Europe/Paris).`, [
        { field: 'electronic.consent.date', message: 'in the future' },
      ]);
  }
}

/** What a new electronic mailing records of its channel (null for paper): the request's, nothing learnt yet. */
export function newMailingElectronic(request: Pick<MailingRequest, 'channel' | 'electronic'>): MailingElectronic | null {
  if (request.channel !== 'electronic' || !request.electronic) return null;
  const { recipientKind, consent, fallback } = request.electronic;
  // A professional's consent is not asked for: kept only when given.
  return { recipientKind, consent: consent ?? null, fallback, fallbackUsed: false, providerReference: null };
}
