import { html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { PASSWORD_MIN_LENGTH } from '../../domain/developers/passwords.js';
import { BASE, csrfField, layout, message, type Message } from './layout.js';

export function signUpPage(session: Session, m?: Message, email = ''): string {
  return layout(
    'Créer un compte',
    session,
    html`${message(m)}
      <form method="post" action="${BASE}/inscription">
        ${csrfField(session)} <label for="email">Adresse e-mail</label
        ><input id="email" name="email" type="email" required autocomplete="email" value="${email}" />
        <label for="password">Mot de passe (${PASSWORD_MIN_LENGTH} caractères au moins)</label>
        <input id="password" name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password" />
        <p><button type="submit">Créer mon compte</button></p>
      </form>
      <p>Déjà inscrit ? <a href="${BASE}/connexion">Se connecter</a></p>`,
  );
}

export function signInPage(session: Session, m?: Message, email = ''): string {
  return layout(
    'Se connecter',
    session,
    html`${message(m)}
      <form method="post" action="${BASE}/connexion">
        ${csrfField(session)} <label for="email">Adresse e-mail</label
        ><input id="email" name="email" type="email" required autocomplete="email" value="${email}" /> <label for="password">Mot de passe</label
        ><input id="password" name="password" type="password" required autocomplete="current-password" />
        <p><button type="submit">Se connecter</button></p>
      </form>
      <p><a href="${BASE}/mot-de-passe-oublie">Mot de passe oublié ?</a> · <a href="${BASE}/inscription">Créer un compte</a></p>`,
  );
}

export function forgotPage(session: Session, m?: Message): string {
  return layout(
    'Mot de passe oublié',
    session,
    html`${message(m)}
      <form method="post" action="${BASE}/mot-de-passe-oublie">
        ${csrfField(session)} <label for="email">Adresse e-mail du compte</label><input id="email" name="email" type="email" required autocomplete="email" />
        <p><button type="submit">Recevoir un lien</button></p>
      </form>`,
  );
}

export function resetPage(session: Session, token: string, m?: Message): string {
  return layout(
    'Nouveau mot de passe',
    session,
    html`${message(m)}
      <form method="post" action="${BASE}/nouveau-mot-de-passe">
        ${csrfField(session)}<input type="hidden" name="token" value="${token}" />
        <label for="password">Nouveau mot de passe (${PASSWORD_MIN_LENGTH} caractères au moins)</label>
        <input id="password" name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password" />
        <p><button type="submit">Enregistrer</button></p>
      </form>`,
  );
}

export function secondFactorPage(session: Session, m?: Message): string {
  return layout(
    'Code de vérification',
    session,
    html`${message(m)}
      <form method="post" action="${BASE}/connexion/code">
        ${csrfField(session)} <label for="code">Code à 6 chiffres de votre application d’authentification, ou un code de secours</label>
        <input id="code" name="code" type="text" required autocomplete="one-time-code" inputmode="text" maxlength="20" />
        <p><button type="submit">Valider</button></p>
      </form>
      <p>Cette étape expire 5 minutes après le mot de passe.</p>`,
  );
}
