import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { Mailing } from '../../domain/mailings/mailing.js';
import type { MailingBatch } from '../../domain/batches/batches.js';
import { isFinalMailing, STATUS_LABELS, STATUSES } from '../../domain/mailings/states.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';
import { sendDateNote } from './mailing-send-date.js';
import { mailingWarnings } from './mailing-warnings.js';
import { ownPdfDetails } from './own-pdf.js';
import { mailingStatusBadge } from './badges.js';
import { count, euros } from './format.js';

export interface MailingFilters {
  env: 'test' | 'live';
  status: string;
  reference: string;
  /** Only the mailings of this batch (a batch sent from /envois/lots); '' for all. */
  batch: string;
}

/** The address of this list with these filters (and a cursor for the next page). */
export function mailingsUrl(filters: MailingFilters, cursor?: string): string {
  const query = new URLSearchParams({ env: filters.env });
  if (filters.status) query.set('status', filters.status);
  if (filters.reference) query.set('reference', filters.reference);
  if (filters.batch) query.set('batch', filters.batch);
  if (cursor) query.set('cursor', cursor);
  return `${BASE}/envois?${query}`;
}

function filterForm(filters: MailingFilters, referenceMax: number): Html {
  const option = (value: string, text: string, selected: string): Html =>
    html`<option value="${value}" ${value === selected ? html`selected` : ''}>${text}</option>`;
  return html`<form method="get" action="${BASE}/envois" class="filters">
    <label for="env">Environnement</label>
    <select id="env" name="env">
      ${option('test', 'test (sandbox)', filters.env)} ${option('live', 'production', filters.env)}
    </select>
    <label for="status">Statut</label>
    <select id="status" name="status">
      ${option('', 'tous', filters.status)} ${STATUSES.map((s) => option(s, STATUS_LABELS[s], filters.status))}
    </select>
    <label for="reference">Référence (exacte)</label>
    <input id="reference" name="reference" type="text" maxlength="${referenceMax}" value="${filters.reference}" />
    ${filters.batch ? html`<input type="hidden" name="batch" value="${filters.batch}" />` : ''}
    <p><button type="submit">Filtrer</button></p>
  </form>`;
}

/**
 * What the row says of the mailing's personal data: erased (when), or a button that erases it once
 * the mailing is final (owners only, as POST /v1/mailings/{id}/erase; docs/retention.md).
 */
export function erasure(session: Session, s: Mailing): Html | string {
  if (s.erasedAt)
    return html`<br /><small class="erased" data-erased-at="${s.erasedAt}">Données personnelles effacées le ${when(new Date(s.erasedAt))}</small>`;
  if (!isFinalMailing(s) || session.user?.role !== 'owner') return '';
  return html`<form class="erase" method="post" action="${BASE}/envois/${s.id}/effacer">
    ${csrfField(session)}
    <button type="submit" title="Destinataire, contenu, PDF et preuves ; restent le montant, l’historique, le suivi et les empreintes">
      Effacer les données personnelles
    </button>
  </form>`;
}

/** An electronic registered letter says so, with its provider's number and what became of the paper fallback. */
export function channelNote(s: Mailing): Html | string {
  if (s.channel !== 'electronic' || !s.electronic) return '';
  const { fallback, fallbackUsed, providerReference } = s.electronic;
  const fallbackText =
    fallback !== 'paper' ? '' : fallbackUsed ? ' · non acceptée : envoyée par courrier recommandé' : ' · par courrier si elle n’est pas acceptée';
  return html`<br /><small class="channel" data-channel="electronic" data-fallback-used="${String(fallbackUsed)}"
      >Lettre recommandée électronique${providerReference ? ` n° ${providerReference}` : ''}${fallbackText}</small
    >`;
}

function row(session: Session, s: Mailing): Html {
  return html`<tr data-mailing-id="${s.id}">
    <td>${when(new Date(s.createdAt))}</td>
    <td>
      <a href="${BASE}/envois/${s.id}" class="mailing-link">${s.title}</a><br /><small>${s.modeLabel} · ${euros(s.amountCents)} HT</small
      >${channelNote(s)}${ownPdfDetails(s)}
    </td>
    <td>${s.reference || '—'}</td>
    <td>${s.recipient.join(', ')}${mailingWarnings(s)}</td>
    <td class="status" data-status="${s.status}">
      ${mailingStatusBadge(s.status)}
      <ol class="events">
        ${s.events.map((e) => html`<li>${when(new Date(e.at))} : ${e.label}</li>`)}
      </ol>
      <small>Suivi ${s.trackingNumber}</small>${sendDateNote(s)}${erasure(session, s)}
    </td>
    <td class="proofs">
      ${
        s.proofs.length
          ? s.proofs.map((p) =>
              s.erasedAt
                ? html`<span data-proof="${p.kind}">${p.label} (PDF effacé)</span><br />`
                : html`<a href="${BASE}/envois/${s.id}/preuves/${p.kind}" data-proof="${p.kind}">${p.label} (PDF)</a><br />`,
            )
          : '—'
      }
    </td>
  </tr>`;
}

export interface BatchProgress {
  batch: MailingBatch;
  finished: number;
}

/**
 * A batch's progress: how many of its mailings have reached their end, and how many are in each
 * status (the same badges as the list). While it runs, the page's script (web/assets.ts) reads the
 * page again every few seconds and replaces this section and the list (`data-live`); the section
 * is a polite live region, so a screen reader hears the new counts.
 */
function batchProgress({ batch, finished }: BatchProgress): Html {
  const running = finished < batch.mailingCount;
  const counts = STATUSES.filter((status) => batch.counts[status]);
  return html`<section
    id="batch-progress"
    data-live
    data-follow="${running ? 'running' : 'done'}"
    data-batch-progress="${running ? 'running' : 'done'}"
    aria-live="polite"
  >
    <h2>Avancement du lot</h2>
    <p>
      <label for="batch-progress-bar">Courriers arrivés au bout de leur parcours</label>
      <progress id="batch-progress-bar" max="${batch.mailingCount}" value="${finished}">${count(finished)} sur ${count(batch.mailingCount)}</progress>
      <span id="batch-progress-count">${count(finished)} sur ${count(batch.mailingCount)}</span>
      ${running ? html`<span class="muted">(la page suit le lot pendant qu’il avance)</span>` : html`<span>: le lot est terminé.</span>`}
    </p>
    <ul class="batch-counts">
      ${counts.map((status) => html`<li data-count-status="${status}">${mailingStatusBadge(status)} ${count(batch.counts[status]!)}</li>`)}
    </ul>
  </section>`;
}

/** The account's mailings (read-only but for the erasure of a final one), one environment at a time, with filters and pages. */
export function mailingsPage(
  session: Session,
  input: {
    filters: MailingFilters;
    referenceMax: number;
    mailings: Mailing[];
    nextCursor: string | null;
    m?: Message;
    /** The batch of a `batch` filter, with how many of its mailings have reached their end. */
    progress?: BatchProgress;
  },
): string {
  const { filters, mailings } = input;
  return layout(
    'Envois',
    session,
    html`${message(input.m)}
      <p>
        Les courriers envoyés par l’API ou depuis cet espace, avec leur suivi et leurs preuves. Les envois de test (clés svc_test_) ne partent jamais.
        <a href="${BASE}/envois/nouveau" id="send-letter">Envoyer une lettre</a>
      </p>
      <p><a id="batch-link" href="${BASE}/envois/lots">Envoyer une lettre à plusieurs destinataires (fichier CSV)</a></p>
      ${filters.batch ? html`<p id="batch-filter">Courriers du lot <code>${filters.batch}</code> · <a href="${mailingsUrl({ ...filters, batch: '' })}">tous les envois</a></p>` : ''}
      ${input.progress ? batchProgress(input.progress) : ''} ${filterForm(filters, input.referenceMax)}
      ${
        mailings.length
          ? html`<table id="mailings" data-live>
              <thead>
                <tr>
                  <th>Créé</th>
                  <th>Courrier</th>
                  <th>Référence</th>
                  <th>Destinataire</th>
                  <th>Statut et suivi</th>
                  <th>Preuves</th>
                </tr>
              </thead>
              <tbody>
                ${mailings.map((s) => row(session, s))}
              </tbody>
            </table>`
          : html`<p id="no-mailings">Aucun envoi ${filters.env === 'live' ? 'de production' : 'de test'} ne correspond.</p>`
      }
      ${input.nextCursor ? html`<p><a id="next-page" href="${mailingsUrl(filters, input.nextCursor)}">Envois plus anciens</a></p>` : ''}`,
  );
}
