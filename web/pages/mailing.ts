import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { Mailing } from '../../domain/mailings/mailing.js';
import type { DeliveryRecord } from '../../domain/webhooks/deliveries.js';
import { badge, mailingStatusBadge } from './badges.js';
import { BASE, layout, when, whenLong } from './layout.js';
import { channelNote, erasure } from './mailings.js';
import { sendDateNote } from './mailing-send-date.js';
import { mailingWarnings } from './mailing-warnings.js';
import { ownPdfDetails, printedLetterPreview } from './own-pdf.js';
import { DELIVERIES, DELIVERY_TONES, STATUS_TEXT, WEBHOOKS } from './webhooks.js';
import { count, euros } from './format.js';

/** The mailing's steps, first to last, each with its date in French (Paris time). */
function timeline(s: Mailing): Html {
  return html`<ol class="timeline" id="timeline">
    ${s.events.map(
      (e) =>
        html`<li data-step="${e.step}" data-status="${e.status}">
          <time datetime="${e.at}">${whenLong(new Date(e.at))}</time>
          ${mailingStatusBadge(e.status)}
        </li>`,
    )}
  </ol>`;
}

function proofs(s: Mailing): Html {
  if (!s.proofs.length)
    return html`<p class="empty" id="no-proofs">
      Pas encore de preuve. La preuve de dépôt paraît ici dès que l’opérateur a pris la lettre en charge, puis l’avis de réception ou de retour.
    </p>`;
  return html`<ul id="proofs">
    ${s.proofs.map((p) =>
      s.erasedAt
        ? html`<li data-proof="${p.kind}">${p.label} (PDF effacé)</li>`
        : html`<li><a href="${BASE}/envois/${s.id}/preuves/${p.kind}" data-proof="${p.kind}">${p.label} (PDF)</a></li>`,
    )}
  </ul>`;
}

/** The webhook deliveries of the events this mailing caused; null: the user's role does not open the webhooks pages. */
function deliveries(list: DeliveryRecord[] | null): Html | string {
  if (list === null) return '';
  return html`<h2>Webhooks envoyés</h2>
    ${
      list.length
        ? html`<table id="mailing-deliveries">
            <thead>
              <tr>
                <th>Date</th>
                <th>Événement</th>
                <th>Adresse</th>
                <th>Statut</th>
                <th>Tentatives</th>
              </tr>
            </thead>
            <tbody>
              ${list.map(
                (d) =>
                  html`<tr data-delivery-id="${d.id}" data-status="${d.status}">
                    <td><a href="${DELIVERIES}/${d.id}">${when(d.createdAt)}</a></td>
                    <td><code>${d.type}</code></td>
                    <td>${d.url}</td>
                    <td>${badge(DELIVERY_TONES[d.status], STATUS_TEXT[d.status])}</td>
                    <td>${count(d.attempts)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : html`<p class="empty" id="no-deliveries">
            Aucun webhook pour cet envoi. Pour être prévenu de chaque étape, <a href="${WEBHOOKS}">déclarez une adresse de webhook</a> : les événements suivants
            de cet envoi y seront livrés.
          </p>`
    }`;
}

/** One mailing on its own page: its status, what it is, its timeline, its proofs and the webhooks it caused. */
export function mailingPage(session: Session, s: Mailing, webhookDeliveries: DeliveryRecord[] | null): string {
  const env = s.test ? 'test' : 'live';
  return layout(
    s.title,
    session,
    html`<p><a href="${BASE}/envois?env=${env}">← Tous les envois ${s.test ? 'de test' : 'de production'}</a></p>
      <p id="mailing-status" data-status="${s.status}">${mailingStatusBadge(s.status)}${s.test ? html` ${badge('neutral', 'test')}` : ''}</p>
      <div class="cards">
        <section class="card" aria-labelledby="what">
          <h2 id="what">Courrier</h2>
          <dl>
            <dt>Mode</dt>
            <dd>${s.modeLabel}${channelNote(s)}</dd>
            <dt>Prix</dt>
            <dd>${euros(s.amountCents)} HT${s.test ? ' (test : non facturé)' : ''}</dd>
            <dt>Référence</dt>
            <dd>${s.reference || '—'}</dd>
            <dt>Créé le</dt>
            <dd>${whenLong(new Date(s.createdAt))}</dd>
            ${
              s.batch
                ? html`<dt>Lot</dt>
                    <dd><a href="${BASE}/envois?env=${env}&amp;batch=${s.batch}">${s.batch}</a></dd>`
                : ''
            }
          </dl>
          ${ownPdfDetails(s)} ${printedLetterPreview(s)}
        </section>
        <section class="card" aria-labelledby="to">
          <h2 id="to">Destinataire</h2>
          <address id="recipient">${s.recipient.map((line) => html`${line}<br />`)}</address>
          ${mailingWarnings(s)}
        </section>
        <section class="card" aria-labelledby="tracking">
          <h2 id="tracking">Suivi</h2>
          <dl>
            <dt>Numéro de suivi</dt>
            <dd><code id="tracking-number">${s.trackingNumber}</code></dd>
            <dt>Étape</dt>
            <dd>${s.step} sur ${s.lastStep}</dd>
          </dl>
          ${sendDateNote(s)}${erasure(session, s)}
        </section>
      </div>
      <h2>Étapes</h2>
      ${timeline(s)}
      <h2>Preuves</h2>
      ${proofs(s)} ${deliveries(webhookDeliveries)}
      <p>
        <small>Identifiant : <code>${s.id}</code> · <code>GET /v1/mailings/${s.id}</code></small>
      </p>`,
  );
}
