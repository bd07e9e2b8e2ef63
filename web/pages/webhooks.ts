import { badge, type BadgeTone } from './badges.js';
import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { EVENT_TYPES } from '../../domain/webhooks/event-types.js';
import { MAX_WEBHOOK_ENDPOINTS, MAX_WEBHOOK_URL_LENGTH, type EndpointSummary } from '../../domain/webhooks/endpoints.js';
import { DELIVERY_RETENTION_DAYS, type DeliveryDetail, type DeliveryRecord, type DeliveryRecordStatus } from '../../domain/webhooks/deliveries.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';
import { count } from './format.js';

export const WEBHOOKS = `${BASE}/webhooks`;
export const DELIVERIES = `${WEBHOOKS}/livraisons`;

/** The types an endpoint can filter on (`ping` is sent by its button whatever the filter). */
const FILTERABLE = EVENT_TYPES.filter((type) => type !== 'ping');

const ENV: Record<'test' | 'live', string> = { test: 'test', live: 'production' };

export const STATUS_TEXT: Record<DeliveryRecordStatus, string> = {
  pending: 'en cours',
  delivered: 'livrée',
  abandoned: 'abandonnée',
  canceled: 'annulée',
};

export const DELIVERY_TONES: Record<DeliveryRecordStatus, BadgeTone> = { pending: 'progress', delivered: 'success', abandoned: 'danger', canceled: 'neutral' };

/** What the creation form held, given back with its error. */
export interface EndpointForm {
  url: string;
  env: string;
  events: string[];
}

const button = (session: Session, action: string, text: string, fields: Html = html``): Html =>
  html`<form method="post" action="${action}">${csrfField(session)}${fields}<button type="submit">${text}</button></form>`;

function secretBlock(secret: string, endpoint: EndpointSummary | undefined): Html {
  return html`<div class="secret">
    <p><strong>Secret de signature${endpoint ? html` de <code>${endpoint.url}</code>` : ''}</strong> : copiez-le maintenant, il ne sera plus affiché.</p>
    <pre id="webhook-secret">${secret}</pre>
    <button type="button" data-copy="webhook-secret">Copier</button>
    ${
      endpoint?.previousSecretExpiresAt
        ? html`<p>
            L’ancien secret signe encore jusqu’au ${when(endpoint.previousSecretExpiresAt)} : pendant ce temps, chaque envoi porte deux signatures
            <code>v1</code> (la nouvelle d’abord). Déployez le nouveau secret avant cette date.
          </p>`
        : ''
    }
  </div>`;
}

function endpointRow(session: Session, e: EndpointSummary): Html {
  const base = `${WEBHOOKS}/${e.id}`;
  return html`<tr data-endpoint-id="${e.id}">
    <td><code>${e.url}</code></td>
    <td>${ENV[e.env]}</td>
    <td>${e.events.length ? e.events.join(', ') : 'tous'}</td>
    <td class="state">${e.disabledAt ? html`désactivée le ${when(e.disabledAt)}` : 'active'}</td>
    <td>
      ${when(e.createdAt)}${e.secretRotatedAt ? html`<br />secret changé le ${when(e.secretRotatedAt)}` : ''}
      ${e.previousSecretExpiresAt ? html`<br />ancien secret valable jusqu’au ${when(e.previousSecretExpiresAt)}` : ''}
    </td>
    <td>
      ${e.disabledAt ? '' : button(session, `${base}/essai`, 'Envoyer un événement de test')}
      ${e.disabledAt ? button(session, `${base}/reactiver`, 'Réactiver') : button(session, `${base}/desactiver`, 'Désactiver')}
      ${button(session, `${base}/secret`, 'Nouveau secret')}
      <a href="${base}/supprimer">Supprimer…</a>
      <a href="${DELIVERIES}?adresse=${e.id}">Livraisons</a>
    </td>
  </tr>`;
}

export function webhooksPage(
  session: Session,
  input: { endpoints: EndpointSummary[]; secret?: { value: string; endpoint: EndpointSummary | undefined }; pinged?: string; m?: Message; form?: EndpointForm },
): string {
  const form = input.form ?? { url: '', env: 'test', events: [] };
  return layout(
    'Webhooks',
    session,
    html`${message(input.m)}${input.secret ? secretBlock(input.secret.value, input.secret.endpoint) : ''}
      ${
        input.pinged
          ? html`<p class="notice" role="status">
              Événement de test <code>ping</code> envoyé. <a href="${DELIVERIES}/${input.pinged}">Suivre sa livraison</a>
            </p>`
          : ''
      }
      <p>
        Chaque étape d’un courrier est annoncée par un <code>POST</code> HTTPS signé à vos adresses (voir la
        <a href="/docs#section/Webhooks">documentation des webhooks</a> : événements, signature, nouvelles tentatives). ${count(input.endpoints.length)}
        adresse(s) sur ${count(MAX_WEBHOOK_ENDPOINTS)}. <a href="${DELIVERIES}">Journal des livraisons</a>
      </p>
      ${
        input.endpoints.length
          ? html`<table>
              <thead>
                <tr>
                  <th>Adresse</th>
                  <th>Environnement</th>
                  <th>Événements</th>
                  <th>État</th>
                  <th>Créée</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${input.endpoints.map((e) => endpointRow(session, e))}
              </tbody>
            </table>`
          : html`<p>Aucune adresse déclarée.</p>`
      }
      <h2>Déclarer une adresse</h2>
      <form method="post" action="${WEBHOOKS}">
        ${csrfField(session)}
        <label for="url">Adresse HTTPS publique</label>
        <input id="url" name="url" type="url" required maxlength="${MAX_WEBHOOK_URL_LENGTH}" placeholder="https://exemple.fr/webhooks" value="${form.url}" />
        <fieldset>
          <legend>Environnement</legend>
          <label><input type="radio" name="env" value="test" ${form.env !== 'live' ? html`checked` : ''} /> test (courriers des clés svc_test_)</label>
          <label><input type="radio" name="env" value="live" ${form.env === 'live' ? html`checked` : ''} /> production</label>
        </fieldset>
        <fieldset>
          <legend>Événements (aucun coché : tous)</legend>
          ${FILTERABLE.map(
            (type) => html`<label><input type="checkbox" name="events" value="${type}" ${form.events.includes(type) ? html`checked` : ''} /> ${type}</label>`,
          )}
        </fieldset>
        <button type="submit">Déclarer l’adresse</button>
      </form>`,
  );
}

export function deleteEndpointPage(session: Session, endpoint: EndpointSummary): string {
  return layout(
    'Supprimer une adresse',
    session,
    html`<p>Supprimer <code>${endpoint.url}</code> (${ENV[endpoint.env]}) ?</p>
      <p>
        Elle ne recevra plus rien : ses livraisons en cours sont annulées et ses secrets effacés. Son historique de livraisons reste consultable
        ${count(DELIVERY_RETENTION_DAYS)} jours. Elle ne compte plus dans la limite de ${count(MAX_WEBHOOK_ENDPOINTS)} adresses.
      </p>
      ${button(session, `${WEBHOOKS}/${endpoint.id}/supprimer`, 'Supprimer définitivement')}
      <p><a href="${WEBHOOKS}">Annuler</a></p>`,
  );
}

const httpStatus = (d: DeliveryRecord): string => (d.lastHttpStatus === null ? '—' : String(d.lastHttpStatus));

export function deliveriesPage(
  session: Session,
  input: { deliveries: DeliveryRecord[]; nextCursor: string | null; endpoints: EndpointSummary[]; endpointId?: string; m?: Message },
): string {
  const next = input.nextCursor
    ? `${DELIVERIES}?${new URLSearchParams({ ...(input.endpointId ? { adresse: input.endpointId } : {}), apres: input.nextCursor }).toString()}`
    : undefined;
  return layout(
    'Livraisons des webhooks',
    session,
    html`${message(input.m)}
      <p>Chaque envoi d’un événement à une adresse, les ${count(DELIVERY_RETENTION_DAYS)} derniers jours, du plus récent au plus ancien.</p>
      <form method="get" action="${DELIVERIES}">
        <label for="adresse">Adresse</label>
        <select id="adresse" name="adresse">
          <option value="">toutes</option>
          ${input.endpoints.map((e) => html`<option value="${e.id}" ${e.id === input.endpointId ? html`selected` : ''}>${e.url} (${ENV[e.env]})</option>`)}
        </select>
        <button type="submit">Filtrer</button>
      </form>
      ${
        input.deliveries.length
          ? html`<table>
              <thead>
                <tr>
                  <th>Créée</th>
                  <th>Événement</th>
                  <th>Adresse</th>
                  <th>État</th>
                  <th>Tentatives</th>
                  <th>Dernier code HTTP</th>
                  <th>Dernière erreur</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${input.deliveries.map(
                  (d) =>
                    html`<tr data-delivery-id="${d.id}" data-event-id="${d.eventId}" data-status="${d.status}">
                      <td>${when(d.createdAt)}</td>
                      <td>${d.type}<br /><code>${d.eventId}</code></td>
                      <td><code>${d.url}</code>${d.endpointDeleted ? ' (supprimée)' : ''}</td>
                      <td>${badge(DELIVERY_TONES[d.status], STATUS_TEXT[d.status])}${d.resentFrom ? ' (renvoi)' : ''}</td>
                      <td class="attempts">${count(d.attempts)}</td>
                      <td class="http-status">${httpStatus(d)}</td>
                      <td class="last-error">${d.lastError ?? '—'}</td>
                      <td><a href="${DELIVERIES}/${d.id}">Détails</a></td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p>Aucune livraison.</p>`
      }
      ${next ? html`<p><a id="next-page" href="${next}">Livraisons plus anciennes</a></p>` : ''}`,
  );
}

export function deliveryPage(session: Session, d: DeliveryDetail, m?: Message): string {
  return layout(
    'Livraison',
    session,
    html`${message(m)}
      <dl>
        <dt>Livraison (en-tête <code>Service-Delivery</code>)</dt>
        <dd><code id="delivery-id">${d.id}</code></dd>
        <dt>Événement</dt>
        <dd><code id="event-id">${d.eventId}</code> · <span id="event-type">${d.type}</span> · ${d.livemode ? 'production' : 'test'}</dd>
        <dt>Adresse</dt>
        <dd><code>${d.url}</code>${d.endpointDeleted ? ' (supprimée)' : d.endpointDisabled ? ' (désactivée)' : ''}</dd>
        <dt>État</dt>
        <dd id="status" data-status="${d.status}">${badge(DELIVERY_TONES[d.status], STATUS_TEXT[d.status])}</dd>
        <dt>Tentatives</dt>
        <dd id="attempts">${count(d.attempts)}</dd>
        <dt>Dernier code HTTP</dt>
        <dd id="http-status">${httpStatus(d)}</dd>
        <dt>Dernière erreur</dt>
        <dd id="last-error">${d.lastError ?? '—'}</dd>
        <dt>Créée · mise à jour · livrée</dt>
        <dd>${when(d.createdAt)} · ${when(d.updatedAt)} · ${when(d.deliveredAt)}</dd>
        <dt>Heure de chaque tentative</dt>
        <dd>
          ${
            d.attemptedAt.length
              ? html`<ol id="attempt-times">
                  ${d.attemptedAt.map((at) => html`<li>${when(at)}</li>`)}
                </ol>`
              : '—'
          }
        </dd>
        ${
          d.resentFrom
            ? html`<dt>Renvoi de</dt>
                <dd><a href="${DELIVERIES}/${d.resentFrom}">${d.resentFrom}</a></dd>`
            : ''
        }
      </dl>
      <h2>Corps envoyé</h2>
      <pre id="payload">${JSON.stringify(d.payload, null, 2)}</pre>
      <button type="button" data-copy="payload">Copier</button>
      <h2>Renvoyer</h2>
      ${
        !d.endpointDeleted && !d.endpointDisabled
          ? html`<p>Une nouvelle livraison (nouvel identifiant <code>Service-Delivery</code>) du même événement (même <code>id</code>), à la même adresse.</p>
              ${button(session, `${DELIVERIES}/${d.id}/renvoyer`, 'Renvoyer l’événement')}`
          : html`<p>L’adresse de cette livraison est désactivée ou supprimée : rien ne peut lui être renvoyé.</p>`
      }
      <p><a href="${DELIVERIES}">Journal des livraisons</a></p>`,
  );
}
