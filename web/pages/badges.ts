import { html, type Html } from '../html.js';
import { STATUS_LABELS, type MailingStatus } from '../../domain/mailings/states.js';

/** A badge's colour, by what the status means to the reader (web/assets.ts: .badge-*; each pair of colours meets WCAG AA). */
export type BadgeTone = 'progress' | 'success' | 'warning' | 'danger' | 'neutral';

const MAILING_TONES: Record<MailingStatus, BadgeTone> = {
  paid: 'progress',
  printed: 'progress',
  posted: 'progress',
  in_transit: 'progress',
  sent: 'progress',
  notified: 'progress',
  delivered: 'success',
  ar_signed: 'success',
  accepted: 'success',
  returned: 'warning',
  unclaimed: 'warning',
  bounced: 'warning',
  refused: 'danger',
  error: 'danger',
  canceled: 'neutral',
};

/** A badge of any kind of status (a webhook delivery, a top-up): its tone and its French words. */
export function badge(tone: BadgeTone, text: string): Html {
  return html`<span class="badge badge-${tone}">${text}</span>`;
}

/**
 * The one rendering of a mailing's status, on every page that shows one: the same French words
 * (STATUS_LABELS of domain/mailings/states.ts) and the same colour everywhere.
 */
export function mailingStatusBadge(status: MailingStatus): Html {
  return html`<span class="badge badge-${MAILING_TONES[status]}" data-badge-status="${status}">${STATUS_LABELS[status]}</span>`;
}

export const mailingStatusTone = (status: MailingStatus): BadgeTone => MAILING_TONES[status];
