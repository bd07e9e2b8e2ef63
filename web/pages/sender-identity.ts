import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { BillingProfile } from '../../domain/billing/profiles.js';
import { SENDER_NAME_MAX, type SenderIdentityView, type SenderMissing } from '../../domain/developers/sender-identity.js';
import { BASE, csrfField, layout, message, type Message } from './layout.js';
import { count, dayLong, decimalNumber, whenLong } from './format.js';

/** « 8 décembre 2026 ». */
export const frenchDay = dayLong;

/** What a refused request lacks, in French. */
export const SENDER_MISSING_TEXT: Record<SenderMissing, string> = {
  billing_profile: 'le profil de facturation (raison sociale et adresse de l’entreprise)',
  siret: 'le SIRET de l’entreprise, dans le profil de facturation',
  first_name: 'le prénom du destinataire de la lettre de vérification',
  last_name: 'le nom du destinataire de la lettre de vérification',
};

export function senderMissingText(missing: SenderMissing[]): string {
  return `La vérification ne peut pas être demandée sans ${missing.map((m) => SENDER_MISSING_TEXT[m]).join(', ni ')}.`;
}

export interface SenderIdentityPage {
  view: SenderIdentityView;
  /** The billing profile the sender is made of (none yet: the page says to fill it in). */
  profile: BillingProfile | undefined;
  /** Whether this user may request the check (owners). */
  mayRequest: boolean;
  /** The email the provider's sender user gets when a request is made now (the signed-in user's). */
  email: string;
  /** OPERATOR_STEP_DELAY, for the simulator's explanation. */
  simulatorDelayMs: number;
  form?: { firstName: string; lastName: string };
  m?: Message;
}

const PROVIDER_NAMES = { ar24: 'AR24', simulator: 'le prestataire simulé' } as const;

function seconds(ms: number): string {
  return ms < 1000 ? `${count(ms)} ms` : `${decimalNumber(ms / 1000)} s`;
}

function stateSection(input: SenderIdentityPage): Html {
  const { view } = input;
  const person = view.person;
  const addressee = person ? `${person.firstName} ${person.lastName}` : '';
  if (view.identity === 'verified')
    return html`<p id="sender-state" data-identity="verified" class="notice">
      Identité d’expéditeur <strong>vérifiée</strong> le ${frenchDay(view.verifiedAt!)} par ${PROVIDER_NAMES[view.provider]}. Vos lettres recommandées
      électroniques avec une clé de production partent à son nom.
    </p>`;
  if (view.identity === 'requested') {
    const next =
      view.provider === 'ar24'
        ? html`AR24 poste à l’adresse de l’entreprise, à l’attention de ${addressee}, une lettre recommandée contenant une clé à usage unique (OTP). À sa
            réception, saisissez cette clé sur le site d’AR24, en vous connectant avec l’adresse <strong>${person?.email ?? ''}</strong>. Cette page affiche
            ensuite l’identité vérifiée : elle relit l’état chez AR24 à chaque ouverture.`
        : html`Avec le prestataire simulé (LRE_PROVIDER=simulator, pour les essais locaux), aucune lettre n’est postée : la vérification aboutit seule
          ${seconds(input.simulatorDelayMs)} après la demande (OPERATOR_STEP_DELAY), lue à la prochaine ouverture de cette page.`;
    return html`<p id="sender-state" data-identity="requested">
        Vérification <strong>demandée</strong> le
        ${frenchDay(view.requestedAt!)}${view.provider === 'ar24' ? ' : AR24 poste à cette date la lettre contenant la clé de vérification.' : '.'}
      </p>
      <p id="sender-next">${next}</p>`;
  }
  return html`<p id="sender-state" data-identity="unverified">
    Vérification <strong>non demandée</strong> : vos lettres recommandées électroniques avec une clé de production sont refusées (422
    <code>sender_identity_unverified</code>) tant qu’elle n’a pas abouti.
  </p>`;
}

function senderSection(input: SenderIdentityPage): Html {
  const { profile } = input;
  if (!profile)
    return html`<p id="sender-company">
      Aucun profil de facturation : renseignez d’abord la raison sociale, l’adresse et le SIRET de l’entreprise dans le
      <a href="${BASE}/facturation">profil de facturation</a>.
    </p>`;
  const address = [profile.addressLine1, profile.addressLine2, `${profile.postalCode} ${profile.city}`].filter(Boolean).join(', ');
  return html`<dl id="sender-company">
      <dt>Entreprise</dt>
      <dd>${profile.legalName}</dd>
      <dt>SIRET</dt>
      <dd>${profile.siret ?? html`<span class="error">manquant</span>`}</dd>
      <dt>Adresse</dt>
      <dd>${address}</dd>
    </dl>
    <p>Ces informations viennent du <a href="${BASE}/facturation">profil de facturation</a>.</p>`;
}

function requestSection(session: Session, input: SenderIdentityPage): Html {
  if (input.view.identity !== 'unverified') return html``;
  if (!input.mayRequest) return html`<p id="sender-owner-only">Seul un propriétaire du compte peut demander la vérification.</p>`;
  const form = input.form ?? { firstName: '', lastName: '' };
  return html`<form id="sender-identity-form" method="post" action="${BASE}/identite-expediteur">
    ${csrfField(session)}
    <p>
      La lettre de vérification est adressée à une personne de l’entreprise, qui saisira la clé reçue. Le compte d’expéditeur chez le prestataire porte votre
      adresse <strong>${input.email}</strong>.
    </p>
    <label for="sender_first_name">Prénom du destinataire de la lettre</label
    ><input
      id="sender_first_name"
      name="sender_first_name"
      type="text"
      required
      maxlength="${String(SENDER_NAME_MAX)}"
      autocomplete="given-name"
      value="${form.firstName}"
    />
    <label for="sender_last_name">Nom du destinataire de la lettre</label
    ><input
      id="sender_last_name"
      name="sender_last_name"
      type="text"
      required
      maxlength="${String(SENDER_NAME_MAX)}"
      autocomplete="family-name"
      value="${form.lastName}"
    />
    <p><button type="submit">Demander la vérification de l’identité</button></p>
  </form>`;
}

/** `/dashboard/identite-expediteur`: where the account's sender identity stands, why it is needed, and the request. */
export function senderIdentityPage(session: Session, input: SenderIdentityPage): string {
  const { view } = input;
  return layout(
    'Identité d’expéditeur',
    session,
    html`${message(input.m)}
      <p id="sender-why">
        Une lettre recommandée électronique qualifiée (LRE) a les effets d’une lettre recommandée papier (Code des postes et des communications électroniques,
        art. L100). Pour cela, le prestataire qualifié doit avoir vérifié l’identité de l’expéditeur (art. R53-1 ; règlement eIDAS, art. 44) : un envoi qualifié
        identifie son expéditeur. Cette vérification se fait une fois par compte. Les clés de test n’en ont pas besoin.
      </p>
      <p id="sender-provider">Prestataire : <strong>${view.provider === 'ar24' ? 'AR24' : 'prestataire simulé (essais locaux)'}</strong>.</p>
      <h2>Où en est la vérification</h2>
      ${stateSection(input)}
      ${view.checkedAt ? html`<p id="sender-checked"><small>État relu chez le prestataire le ${whenLong(view.checkedAt)}.</small></p>` : ''}
      <h2>L’expéditeur</h2>
      ${senderSection(input)} ${requestSection(session, input)}`,
  );
}
