import { html, type Html } from '../html.js';
import type { Mailing } from '../../domain/mailings/mailing.js';

/** A mailing's send date on the mailings page: the day, and that it is filed at 00:00 Paris time; nothing when sent at once. */
export function sendDateNote(s: Pick<Mailing, 'sendAt' | 'status'>): Html | string {
  if (!s.sendAt) return '';
  const [year, month, day] = s.sendAt.split('-');
  const waiting = s.status === 'paid' ? ' (annulable sans frais jusque-là)' : '';
  return html`<br /><small class="send-at" data-send-at="${s.sendAt}">Date d’envoi : ${day}/${month}/${year}, déposé à 0 h (heure de Paris)${waiting}</small>`;
}
