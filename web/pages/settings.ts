import { html, type Html } from '../html.js';
import { postalSettingsSection, type PostalSettingsState } from './postal-settings.js';
import type { Session } from '../../domain/developers/sessions.js';
import { PASSWORD_MIN_LENGTH } from '../../domain/developers/passwords.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';
import type { AiConsent } from '../../domain/access/ai-consent.js';
import { MAILING_RETENTION_DEFAULT_DAYS, MAILING_RETENTION_MAX_DAYS, MAILING_RETENTION_MIN_DAYS } from '../../domain/privacy/retention.js';
import { count, decimalNumber } from './format.js';

/** The AI features of the account: on or off, the provider they send to, and whether this user may change it (owners). */
export interface AiSetting {
  consent: AiConsent;
  provider: { name: string; host: string; hosted: string };
  mayChange: boolean;
}

function aiSection(session: Session, ai: AiSetting): ReturnType<typeof html> {
  const { consent, provider } = ai;
  const state = consent.enabled
    ? html`<p id="ai-state">Les fonctions d’IA sont <strong>activées</strong> depuis le ${when(consent.enabledAt)} (par ${consent.enabledBy ?? '—'}).</p>`
    : html`<p id="ai-state">
        Les fonctions d’IA sont <strong>désactivées</strong> : avec une clé svc_live_, POST /v1/ai/fill, /v1/ai/letters et /v1/ai/tools/… répondent 403
        ai_not_enabled, sans rien envoyer ni facturer.
      </p>`;
  const form = ai.mayChange
    ? html`<form id="ai-form" method="post" action="${BASE}/parametres/ia">
        ${csrfField(session)}<input type="hidden" name="enabled" value="${consent.enabled ? '0' : '1'}" />
        <p><button type="submit">${consent.enabled ? 'Désactiver les fonctions d’IA' : 'Activer les fonctions d’IA'}</button></p>
      </form>`
    : html`<p>Seul un propriétaire du compte peut changer ce réglage.</p>`;
  return html`<h2>Fonctions d’IA</h2>
    ${state}
    <p id="ai-provider">
      Fournisseur : <strong>${provider.name}</strong> (<code>${provider.host}</code>), hébergement : ${provider.hosted}. Une fois activées, le texte qu’une clé
      de production envoie à ces opérations (phrase, description, faits, entrées d’un outil, qui peuvent contenir des données personnelles) est transmis à ce
      fournisseur pour produire la réponse. Les clés de test ne transmettent rien : leurs réponses sont simulées.
    </p>
    ${form}
    <p><a href="${BASE}/confidentialite">Nos sous-traitants et le traitement des données personnelles</a></p>`;
}

/** The account's retention of final mailings, as the settings page shows it (owners may change it). */
export interface RetentionState {
  days: number;
  mayChange: boolean;
}

/** "1827 jours (environ 5 ans)". */
function daysText(days: number): string {
  const years = days / 365.25;
  return years >= 1 ? `${count(days)} jours (environ ${decimalNumber(years)} an${years >= 2 ? 's' : ''})` : `${count(days)} jours`;
}

function retentionSection(session: Session, retention: RetentionState): Html {
  return html`<h2 id="conservation">Conservation des envois</h2>
    <p>
      Une fois un envoi terminé (distribué, retourné, annulé…), ses données personnelles (adresse et e-mail du destinataire, contenu de la lettre, PDF, preuves)
      sont effacées au bout de <strong id="retention-days">${daysText(retention.days)}</strong>. Restent le montant, l’historique des statuts, le numéro de
      suivi et les empreintes SHA-256 du document et des preuves. Les factures sont conservées dix ans (Code de commerce, art. L123-22).
    </p>
    ${
      retention.mayChange
        ? html`<form id="retention-form" method="post" action="${BASE}/parametres/conservation">
            ${csrfField(session)}
            <label for="retention_days"
              >Durée de conservation, en jours (de ${count(MAILING_RETENTION_MIN_DAYS)} à ${count(MAILING_RETENTION_MAX_DAYS)} ;
              ${count(MAILING_RETENTION_DEFAULT_DAYS)} par défaut, le délai de prescription de cinq ans)</label
            ><input
              id="retention_days"
              name="retention_days"
              type="number"
              required
              min="${String(MAILING_RETENTION_MIN_DAYS)}"
              max="${String(MAILING_RETENTION_MAX_DAYS)}"
              step="1"
              value="${String(retention.days)}"
            />
            <p>Raccourcir la durée efface, dans l’heure, les envois terminés depuis plus longtemps.</p>
            <p><button type="submit">Enregistrer la durée</button></p>
          </form>`
        : html`<p>Seul un propriétaire du compte peut changer cette durée.</p>`
    }`;
}

export type TwoFactorState = { kind: 'off' } | { kind: 'waiting'; secret: string; uri: string } | { kind: 'on'; recoveryCodesLeft: number };

/** Each form's fields have names of their own: the page holds three forms that ask the password. */
export function settingsPage(
  session: Session,
  twoFactor: TwoFactorState,
  ai: AiSetting,
  retention: RetentionState,
  postal: PostalSettingsState,
  m?: Message,
): string {
  const user = session.user!;
  const secondFactor =
    twoFactor.kind === 'on'
      ? html`<p>La double authentification est <strong>activée</strong>. Codes de secours restants : ${count(twoFactor.recoveryCodesLeft)}.</p>
          <form id="two-factor-disable-form" method="post" action="${BASE}/parametres/2fa/desactiver">
            ${csrfField(session)} <label for="disable_password">Mot de passe actuel</label
            ><input id="disable_password" name="disable_password" type="password" required autocomplete="current-password" />
            <label for="disable_code">Code de l’application ou code de secours</label
            ><input id="disable_code" name="disable_code" type="text" required autocomplete="one-time-code" maxlength="20" />
            <p><button type="submit">Désactiver la double authentification</button></p>
          </form>`
      : twoFactor.kind === 'waiting'
        ? html`<p>Ajoutez ce compte à votre application d’authentification (Google Authenticator, FreeOTP, Aegis…) avec cette clé :</p>
            <p><code id="totp-secret">${twoFactor.secret}</code></p>
            <p>ou avec ce lien <code>otpauth://</code> : <code id="totp-uri">${twoFactor.uri}</code></p>
            <form id="two-factor-confirm-form" method="post" action="${BASE}/parametres/2fa/confirmer">
              ${csrfField(session)} <label for="confirm_code">Code à 6 chiffres affiché par l’application</label
              ><input id="confirm_code" name="confirm_code" type="text" required inputmode="numeric" autocomplete="one-time-code" maxlength="6" />
              <p><button type="submit">Activer</button></p>
            </form>`
        : html`<p>
              La double authentification est désactivée. Une fois activée, la connexion demande, après le mot de passe, un code à 6 chiffres de votre
              application d’authentification.
            </p>
            <form id="two-factor-start-form" method="post" action="${BASE}/parametres/2fa/activer">
              ${csrfField(session)}
              <p><button type="submit">Activer la double authentification</button></p>
            </form>`;
  return layout(
    'Paramètres du compte',
    session,
    html`${message(m)}
      <h2>Mot de passe</h2>
      <form id="password-form" method="post" action="${BASE}/parametres/mot-de-passe">
        ${csrfField(session)} <label for="current_password">Mot de passe actuel</label
        ><input id="current_password" name="current_password" type="password" required autocomplete="current-password" />
        <label for="new_password">Nouveau mot de passe (${PASSWORD_MIN_LENGTH} caractères au moins)</label
        ><input id="new_password" name="new_password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password" />
        <label for="new_password_again">Nouveau mot de passe, une seconde fois</label
        ><input id="new_password_again" name="new_password_again" type="password" required autocomplete="new-password" />
        <p>Vos autres sessions seront fermées.</p>
        <p><button type="submit">Changer le mot de passe</button></p>
      </form>
      <h2>Adresse e-mail</h2>
      <p>Adresse actuelle : <strong id="current-email">${user.email}</strong></p>
      <form id="email-form" method="post" action="${BASE}/parametres/email">
        ${csrfField(session)} <label for="new_email">Nouvelle adresse</label
        ><input id="new_email" name="new_email" type="email" required autocomplete="email" /> <label for="email_password">Mot de passe actuel</label
        ><input id="email_password" name="email_password" type="password" required autocomplete="current-password" />
        <p>L’adresse change quand vous ouvrez le lien envoyé à la nouvelle adresse (valable 48 heures).</p>
        <p><button type="submit">Changer d’adresse</button></p>
      </form>
      <h2>Double authentification</h2>
      ${secondFactor} ${aiSection(session, ai)} ${retentionSection(session, retention)} ${postalSettingsSection(session, postal)}
      <h2>Identité d’expéditeur</h2>
      <p>
        Les lettres recommandées électroniques demandent que le prestataire ait vérifié l’identité de l’expéditeur :
        <a id="sender-identity-link" href="${BASE}/identite-expediteur">Identité d’expéditeur</a>.
      </p>`,
  );
}

/** The recovery codes, shown on this page only. */
export function recoveryCodesPage(session: Session, codes: string[]): string {
  return layout(
    'Double authentification activée',
    session,
    html`${message({ kind: 'notice', text: 'La double authentification est activée.' })}
      <p>
        Voici vos ${count(codes.length)} codes de secours. Chacun remplace une fois le code de l’application (téléphone perdu…). Conservez-les en lieu sûr : ils
        ne seront plus affichés.
      </p>
      <ul id="recovery-codes">
        ${codes.map((code) => html`<li><code>${code}</code></li>`)}
      </ul>
      <p><a href="${BASE}/parametres">Retour aux paramètres</a></p>`,
  );
}
