import { badge, type BadgeTone } from './badges.js';
import { html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { REQUEST_KINDS, type RequestKind, type RequestStatus, type serviceRequest } from '../../domain/requests/service-requests.js';
import { serviceRequestInputSchema } from '../../api/schemas/requests.js';
import { maxLength } from '../forms.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';

export type RequestForm = Record<'kind' | 'title' | 'description' | 'example' | 'useCase' | 'contactEmail', string>;

export const REQUEST_LABELS: Record<keyof RequestForm, string> = {
  kind: 'Type',
  title: 'Titre',
  description: 'Description',
  example: 'Exemple',
  useCase: 'Cas d’usage',
  contactEmail: 'E-mail de contact',
};

const KIND_LABELS: Record<RequestKind, string> = { letter: 'Lettre', calculator: 'Calculateur', ai_tool: 'Outil d’IA' };
const STATUS_LABELS: Record<RequestStatus, string> = {
  received: 'Reçue',
  in_review: 'À l’étude',
  planned: 'Prévue',
  published: 'Publiée',
  declined: 'Refusée',
};
const REQUEST_TONES: Record<RequestStatus, BadgeTone> = {
  received: 'neutral',
  in_review: 'progress',
  planned: 'progress',
  published: 'success',
  declined: 'danger',
};

export const EMPTY_REQUEST_FORM: RequestForm = { kind: 'letter', title: '', description: '', example: '', useCase: '', contactEmail: '' };

const max = (field: keyof RequestForm): number => maxLength(serviceRequestInputSchema, field)!;

/** The account's service requests (also listed by GET /v1/requests) and a form for a new one. */
export function requestsPage(
  session: Session,
  input: { requests: ReturnType<typeof serviceRequest>[]; nextCursor: string | null; form?: RequestForm; m?: Message },
): string {
  const form = input.form ?? EMPTY_REQUEST_FORM;
  return layout(
    'Demandes de service',
    session,
    html`${message(input.m)}
      <p>
        Une lettre, un calculateur ou un outil d’IA manque au catalogue ? Demandez-le : c’est gratuit. Vos demandes sont aussi listées par GET /v1/requests.
      </p>
      ${
        input.requests.length
          ? html`<table id="requests">
              <thead>
                <tr>
                  <th>Envoyée</th>
                  <th>Type</th>
                  <th>Titre</th>
                  <th>Statut</th>
                </tr>
              </thead>
              <tbody>
                ${input.requests.map(
                  (r) =>
                    html`<tr data-request-id="${r.id}">
                      <td>${when(new Date(r.createdAt))}</td>
                      <td>${KIND_LABELS[r.kind]}</td>
                      <td>${r.title}</td>
                      <td data-status="${r.status}">
                        ${badge(REQUEST_TONES[r.status], STATUS_LABELS[r.status])}${r.statusNote ? html`<br /><small>${r.statusNote}</small>` : ''}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p id="no-requests">Aucune demande pour l’instant.</p>`
      }
      ${input.nextCursor ? html`<p><a id="next-page" href="${BASE}/demandes?cursor=${encodeURIComponent(input.nextCursor)}">Demandes plus anciennes</a></p>` : ''}
      <h2>Nouvelle demande</h2>
      <form method="post" action="${BASE}/demandes">
        ${csrfField(session)}
        <label for="kind">${REQUEST_LABELS.kind}</label>
        <select id="kind" name="kind">
          ${REQUEST_KINDS.map((k) => html`<option value="${k}" ${k === form.kind ? html`selected` : ''}>${KIND_LABELS[k]}</option>`)}
        </select>
        <label for="title">${REQUEST_LABELS.title}</label>
        <input id="title" name="title" type="text" required maxlength="${max('title')}" value="${form.title}" />
        <label for="description">${REQUEST_LABELS.description} : ce qu’il doit faire, pour qui</label>
        <textarea id="description" name="description" rows="5" required maxlength="${max('description')}">${form.description}</textarea>
        <label for="example">${REQUEST_LABELS.example} (facultatif) : une lettre que vous envoyez aujourd’hui, un calcul fait à la main</label>
        <textarea id="example" name="example" rows="4" maxlength="${max('example')}">${form.example}</textarea>
        <label for="useCase">${REQUEST_LABELS.useCase} (facultatif) : où il prend place dans votre produit</label>
        <textarea id="useCase" name="useCase" rows="3" maxlength="${max('useCase')}">${form.useCase}</textarea>
        <label for="contactEmail">${REQUEST_LABELS.contactEmail} (facultatif) : qui prévenir quand son statut change</label>
        <input id="contactEmail" name="contactEmail" type="email" maxlength="${max('contactEmail')}" value="${form.contactEmail}" />
        <p><button type="submit">Envoyer la demande</button></p>
      </form>`,
  );
}
