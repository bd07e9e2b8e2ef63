import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { Field, LetterData } from '../../domain/catalogue/catalogue.js';
import type { MailingPrice } from '../../domain/mailings/pricing.js';
import { MODE_LABELS, MODES } from '../../domain/mailings/states.js';
import type { MailingAddressInput, MailingRequest } from '../../domain/mailings/request.js';
import { BASE, csrfField, layout, message, type Message } from './layout.js';
import { count, euros } from './format.js';

/** Where a letter is sent from (the form, its review, its preview). */
export const SEND_URL = `${BASE}/envois/nouveau`;
export const SEND_PREVIEW_URL = `${SEND_URL}/apercu`;

/** The three ways to write the letter. */
export const LETTER_KINDS = ['catalogue', 'libre', 'pdf'] as const;
export type LetterKind = (typeof LETTER_KINDS)[number];

const KIND_TITLES: Record<LetterKind, string> = {
  catalogue: 'Une lettre du catalogue',
  libre: 'Une lettre libre',
  pdf: 'Votre PDF',
};

/** A refusal shown next to its part of the form ('' : above the form), with the address base's suggestions if any. */
export interface FieldError {
  key: string;
  text: string;
  suggestions?: MailingAddressInput[];
}

/** The catalogue letter being filled: its fields, without those the addresses fill. */
export interface ChosenLetter {
  letter: Pick<LetterData, 'slug' | 'title' | 'providers'>;
  provider: string;
  fields: Field[];
}

export interface SendFormView {
  kind: LetterKind;
  /** The posted (or initial) values, by form field name. */
  values: URLSearchParams;
  letters: Pick<LetterData, 'slug' | 'title'>[];
  chosen?: ChosenLetter;
  liveEnabled: boolean;
  errors?: FieldError[];
  m?: Message;
}

const value = (values: URLSearchParams, name: string): string => values.get(name) ?? '';

function errorsFor(errors: FieldError[] | undefined, key: string): Html {
  const mine = (errors ?? []).filter((e) => e.key === key);
  return html`${mine.map(
    (e) =>
      html`<div class="error field-error" role="alert" data-field="${key}">
        ${e.text}
        ${
          e.suggestions?.length
            ? html`<ul class="suggestions">
                ${e.suggestions.map(
                  (s) =>
                    html`<li>
                      <span class="suggestion">${[...s.lines, `${s.postcode} ${s.city}`].join(', ')}</span>
                      <button type="submit" name="suggestion" value="${JSON.stringify({ lines: s.lines, postcode: s.postcode, city: s.city })}">
                        Utiliser cette adresse
                      </button>
                    </li>`,
                )}
              </ul>`
            : ''
        }
      </div>`,
  )}`;
}

function addressFieldset(prefix: 'sender' | 'recipient', legend: string, values: URLSearchParams, errors: FieldError[] | undefined, optional: boolean): Html {
  const id = (part: string): string => `${prefix}_${part}`;
  return html`<fieldset id="${prefix}">
    <legend>${legend}${optional ? ' (facultatif : l’adresse du fournisseur est imprimée)' : ''}</legend>
    ${errorsFor(errors, prefix)}
    <label for="${id('name')}">Nom</label>
    <input id="${id('name')}" name="${id('name')}" type="text" maxlength="200" value="${value(values, id('name'))}" />
    <label for="${id('lines')}">Adresse (une ligne par ligne : numéro et voie, complément…)</label>
    <textarea id="${id('lines')}" name="${id('lines')}" rows="3">${value(values, id('lines'))}</textarea>
    <label for="${id('postcode')}">Code postal</label>
    <input id="${id('postcode')}" name="${id('postcode')}" type="text" maxlength="10" value="${value(values, id('postcode'))}" />
    <label for="${id('city')}">Commune</label>
    <input id="${id('city')}" name="${id('city')}" type="text" maxlength="100" value="${value(values, id('city'))}" />
  </fieldset>`;
}

function catalogueInput(field: Field, values: URLSearchParams): Html {
  const name = `f_${field.name}`;
  const current = values.get(name) ?? (field.default === undefined ? '' : String(field.default));
  if (field.type === 'enum')
    return html`<select id="${name}" name="${name}">
      <option value="">—</option>
      ${(field.options ?? []).map((o) => html`<option value="${o.value}" ${o.value === current ? html`selected` : ''}>${o.label}</option>`)}
    </select>`;
  if (field.type === 'multiline' || field.type === 'address') return html`<textarea id="${name}" name="${name}" rows="3">${current}</textarea>`;
  return html`<input id="${name}" name="${name}" type="${field.type === 'date' ? 'date' : 'text'}" value="${current}" />`;
}

function letterPart(view: SendFormView): Html {
  const { values, errors } = view;
  if (view.kind === 'libre')
    return html`<fieldset id="letter">
      <legend>La lettre</legend>
      ${errorsFor(errors, 'letter')}
      <label for="title">Objet</label>
      <input id="title" name="title" type="text" maxlength="200" value="${value(values, 'title')}" />
      ${errorsFor(errors, 'title')}
      <label for="body">Texte (une ligne vide entre les paragraphes)</label>
      <textarea id="body" name="body" rows="12">${value(values, 'body')}</textarea>
      ${errorsFor(errors, 'body')}
    </fieldset>`;
  if (view.kind === 'pdf')
    return html`<fieldset id="letter">
      <legend>Le PDF</legend>
      <p><small>A4 portrait, polices incorporées, sans chiffrement ni script, 750 Ko au plus (voir la documentation des PDF fournis).</small></p>
      <label for="pdf_file">Fichier PDF</label>
      <input id="pdf_file" type="file" accept="application/pdf" data-base64-into="pdf" />
      <input type="hidden" id="pdf" name="pdf" value="${value(values, 'pdf')}" />
      ${values.get('pdf') ? html`<p><small id="pdf-kept">Le PDF déjà choisi est conservé ; choisissez un fichier pour le remplacer.</small></p>` : ''}
      ${errorsFor(errors, 'pdf')}
      <label for="pdf_title">Titre de l’envoi (facultatif)</label>
      <input id="pdf_title" name="pdf_title" type="text" maxlength="200" value="${value(values, 'pdf_title')}" />
      <label for="placement">Adresse</label>
      <select id="placement" name="placement">
        <option value="insert_blank_page" ${value(values, 'placement') !== 'first_page' ? html`selected` : ''}>
          sur une feuille porte-adresse ajoutée devant (une feuille de plus)
        </option>
        <option value="first_page" ${value(values, 'placement') === 'first_page' ? html`selected` : ''}>
          dans la fenêtre de la page 1 (zone laissée vierge)
        </option>
      </select>
      ${errorsFor(errors, 'placement')}
      <label><input type="checkbox" name="color" value="1" ${values.get('color') ? html`checked` : ''} /> Couleur</label>
      <label><input type="checkbox" name="duplex" value="1" ${values.get('duplex') ? html`checked` : ''} /> Recto verso</label>
    </fieldset>`;
  const chosen = view.chosen;
  if (!chosen) return html``;
  return html`<fieldset id="letter">
    <legend>${chosen.letter.title}</legend>
    <input type="hidden" name="slug" value="${chosen.letter.slug}" />
    <input type="hidden" name="provider" value="${chosen.provider}" />
    ${errorsFor(errors, 'letter')}
    ${chosen.fields.map(
      (field) =>
        html`<label for="f_${field.name}">${field.label}${field.required ? ' *' : ''}</label> ${catalogueInput(field, values)}
          ${field.help ? html`<small>${field.help}</small>` : ''} ${errorsFor(errors, `f_${field.name}`)}`,
    )}
  </fieldset>`;
}

/** The catalogue's letter and provider, chosen by a GET form (the fields depend on them). */
function letterPicker(view: SendFormView): Html {
  const slug = view.chosen?.letter.slug ?? '';
  return html`<form method="get" action="${SEND_URL}" class="filters" id="letter-picker">
    <input type="hidden" name="type" value="catalogue" />
    <label for="lettre">Lettre</label>
    <select id="lettre" name="lettre">
      <option value="">—</option>
      ${view.letters.map((l) => html`<option value="${l.slug}" ${l.slug === slug ? html`selected` : ''}>${l.title}</option>`)}
    </select>
    ${
      view.chosen?.letter.providers.length
        ? html`<label for="fournisseur">Destinataire</label>
            <select id="fournisseur" name="fournisseur">
              <option value="">une autre adresse (ci-dessous)</option>
              ${view.chosen.letter.providers.map((p) => html`<option value="${p.slug}" ${p.slug === view.chosen!.provider ? html`selected` : ''}>${p.name}</option>`)}
            </select>`
        : ''
    }
    <p><button type="submit">Choisir</button></p>
  </form>`;
}

function sendingPart(view: SendFormView): Html {
  const { values, errors } = view;
  const env = value(values, 'env') || 'test';
  return html`<fieldset id="sending">
    <legend>Envoi</legend>
    <label for="mode">Mode</label>
    <select id="mode" name="mode">
      ${MODES.map((mode) => html`<option value="${mode}" ${mode === value(values, 'mode') ? html`selected` : ''}>${MODE_LABELS[mode]}</option>`)}
    </select>
    ${errorsFor(errors, 'mode')}
    <p>
      <label><input type="radio" name="env" value="test" ${env === 'test' ? html`checked` : ''} /> Test (simulé, gratuit)</label>
      <label
        ><input type="radio" name="env" value="live" ${env === 'live' ? html`checked` : ''} /> Production (posté et débité du
        solde)${view.liveEnabled ? '' : html` — <small>la production n’est pas encore ouverte pour ce compte</small>`}</label
      >
    </p>
    ${errorsFor(errors, 'env')}
    <label for="address_check">Vérification de l’adresse du destinataire par la Base Adresse Nationale</label>
    <select id="address_check" name="address_check">
      ${[
        ['', 'celle du compte'],
        ['strict', 'stricte : une adresse non confirmée est refusée'],
        ['lenient', 'souple : une adresse non confirmée part telle quelle, avec un avertissement'],
      ].map(([v, text]) => html`<option value="${v}" ${v === value(values, 'address_check') ? html`selected` : ''}>${text}</option>`)}
    </select>
    <label for="send_at">Date d’envoi (facultatif : dès la confirmation sinon)</label>
    <input id="send_at" name="send_at" type="date" value="${value(values, 'send_at')}" />
    ${errorsFor(errors, 'send_at')}
    <label for="reference">Votre référence (facultatif, 30 caractères au plus)</label>
    <input id="reference" name="reference" type="text" maxlength="30" value="${value(values, 'reference')}" />
    ${errorsFor(errors, 'reference')}
  </fieldset>`;
}

/** How the review and the list name a mailing's channel (and its paper fallback). */
export function channelLabel(request: Pick<MailingRequest, 'channel' | 'electronic'>): string {
  if (request.channel !== 'electronic') return 'courrier postal';
  return `lettre recommandée électronique${request.electronic?.fallback === 'paper' ? ', puis par courrier si elle n’est pas acceptée' : ''}`;
}

/**
 * The channel (issue 54): posted, or a qualified electronic registered letter (modes registered and
 * ar), with what the law asks of its recipient: an email address, whether it is a professional, and
 * for a consumer the sender's statement of its prior consent (CPCE L100); and the paper fallback.
 */
function channelPart(values: URLSearchParams, errors: FieldError[] | undefined): Html {
  const channel = value(values, 'channel') || 'paper';
  const kind = value(values, 'recipient_kind') || 'professional';
  const radio = (name: string, v: string, current: string, text: string): Html =>
    html`<label><input type="radio" name="${name}" value="${v}" ${v === current ? html`checked` : ''} /> ${text}</label>`;
  return html`<fieldset id="channel">
    <legend>Canal</legend>
    ${errorsFor(errors, 'channel')}
    <p>
      ${radio('channel', 'paper', channel, 'Courrier postal')}
      ${radio('channel', 'electronic', channel, 'Lettre recommandée électronique qualifiée (recommandé ou avec AR uniquement)')}
    </p>
    <p>
      <small>
        La lettre recommandée électronique qualifiée a l’effet d’un recommandé papier (CPCE, art. L100) : le destinataire est prévenu par courriel et a 15 jours
        pour l’accepter ou la refuser. Elle part au nom de l’identité d’expéditeur vérifiée du compte (page « Identité d’expéditeur »).
      </small>
    </p>
    <div id="electronic">
      ${errorsFor(errors, 'electronic')}
      <label for="recipient_email">Courriel du destinataire (canal électronique)</label>
      <input id="recipient_email" name="recipient_email" type="email" maxlength="254" value="${value(values, 'recipient_email')}" />
      ${errorsFor(errors, 'recipient_email')}
      <p>
        ${radio('recipient_kind', 'professional', kind, 'Le destinataire est un professionnel')}
        ${radio('recipient_kind', 'consumer', kind, 'Le destinataire est un particulier')}
      </p>
      <p><small>Un particulier doit avoir accepté au préalable de recevoir des recommandés électroniques : indiquez quand et comment.</small></p>
      ${errorsFor(errors, 'consent')}
      <label for="consent_date">Date de son consentement (particulier)</label>
      <input id="consent_date" name="consent_date" type="date" value="${value(values, 'consent_date')}" />
      <label for="consent_means">Comment il l’a donné (particulier), ex. « article 12 du bail signé le 10/01/2026 »</label>
      <input id="consent_means" name="consent_means" type="text" maxlength="500" value="${value(values, 'consent_means')}" />
      <label
        ><input type="checkbox" name="fallback" value="paper" ${values.get('fallback') ? html`checked` : ''} /> S’il refuse, ne la réclame pas sous 15 jours ou
        si le courriel n’arrive pas : l’envoyer par courrier recommandé (son prix est réservé à la création et remboursé s’il ne sert pas)</label
      >
    </div>
  </fieldset>`;
}

/** /envois/nouveau: the three ways, then the form of the chosen one. */
export function sendFormPage(session: Session, view: SendFormView): string {
  const withRecipientOptional = view.kind === 'catalogue' && !!view.chosen?.provider;
  const form =
    view.kind !== 'catalogue' || view.chosen
      ? html`<form method="post" action="${SEND_URL}" id="send-form">
          ${csrfField(session)}
          <input type="hidden" name="type" value="${view.kind}" />
          <input type="hidden" name="key" value="${value(view.values, 'key')}" />
          ${errorsFor(view.errors, '')} ${letterPart(view)} ${addressFieldset('sender', 'Expéditeur', view.values, view.errors, false)}
          ${addressFieldset('recipient', 'Destinataire', view.values, view.errors, withRecipientOptional)} ${sendingPart(view)}
          ${channelPart(view.values, view.errors)}
          <p><button type="submit" name="step" value="review" id="review">Voir le prix et l’aperçu</button></p>
        </form>`
      : '';
  return layout(
    'Envoyer une lettre',
    session,
    html`<p id="send-kinds">
        ${LETTER_KINDS.map((kind) =>
          kind === view.kind
            ? html`<strong>${KIND_TITLES[kind]}</strong> · `
            : html`<a href="${SEND_URL}?type=${kind}" data-kind="${kind}">${KIND_TITLES[kind]}</a> · `,
        )}
        <a href="${BASE}/envois">Envois</a>
      </p>
      ${message(view.m)} ${view.kind === 'catalogue' ? letterPicker(view) : ''} ${form}`,
  );
}

export interface SendReviewView {
  /** Every posted field, carried on as hidden inputs to the confirmation and the preview. */
  values: URLSearchParams;
  title: string;
  modeLabel: string;
  channelLabel: string;
  env: 'test' | 'live';
  recipient: string[];
  price: MailingPrice;
  m?: Message;
}

/** The review: the price (what live debits; test is free), a preview of the PDF, confirm or change. */
export function sendReviewPage(session: Session, view: SendReviewView): string {
  const hidden = [...view.values.entries()]
    .filter(([name]) => name !== '_csrf' && name !== 'step')
    .map(([name, v]) => html`<input type="hidden" name="${name}" value="${v}" />`);
  const { price } = view;
  return layout(
    'Vérifier et envoyer',
    session,
    html`${message(view.m)}
      <dl id="review-summary">
        <dt>Lettre</dt>
        <dd>${view.title}</dd>
        <dt>Mode</dt>
        <dd>${view.modeLabel}</dd>
        <dt>Canal</dt>
        <dd id="review-channel">${view.channelLabel}</dd>
        <dt>Destinataire</dt>
        <dd>${view.recipient.join(', ')}</dd>
        <dt>Environnement</dt>
        <dd data-env="${view.env}">${view.env === 'test' ? 'test (simulé, rien n’est débité)' : 'production : posté et débité du solde'}</dd>
        <dt>Prix</dt>
        <dd id="price" data-amount-cents="${price.amountCents}">
          ${euros(price.amountCents)} HT + ${euros(price.vatCents)}
          TVA${price.sheets ? ` · ${count(price.sheets)} feuille(s)` : ''}${view.env === 'test' ? ' (prix en production ; gratuit en test)' : ''}
        </dd>
      </dl>
      <form method="post" action="${SEND_URL}" id="confirm-form">
        ${csrfField(session)} ${hidden}
        <p>
          <button type="submit" name="step" value="confirm" id="confirm">Confirmer l’envoi</button>
          <button type="submit" name="step" value="edit" id="edit">Modifier</button>
          <button type="submit" formaction="${SEND_PREVIEW_URL}" formtarget="send-preview" id="show-preview" data-autoclick>Afficher l’aperçu</button>
        </p>
      </form>
      <iframe name="send-preview" id="send-preview" class="pdf-preview" title="Aperçu de la lettre" width="420" height="594"></iframe>`,
  );
}
