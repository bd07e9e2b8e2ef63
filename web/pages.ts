import { html, type Html } from './html.js';
import type { Session } from '../domain/developers/sessions.js';
import type { KeySummary } from '../domain/access/keys.js';
import { SCOPES } from '../domain/access/scopes.js';
import { PASSWORD_MIN_LENGTH } from '../domain/developers/passwords.js';

export const BASE = '/dashboard';

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const when = (date: Date | null): string => (date ? dateFormat.format(date) : '—');

export const csrfField = (session: Session): Html => html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;

export interface Message {
  kind: 'notice' | 'error';
  text: string;
}

const message = (m: Message | undefined): Html => (m ? html`<p class="${m.kind}" role="${m.kind === 'error' ? 'alert' : 'status'}">${m.text}</p>` : html``);

export function layout(title: string, session: Session | undefined, body: Html): string {
  const nav = session?.user
    ? html`<nav><a href="${BASE}">Accueil</a><a href="${BASE}/cles">Clés d’API</a></nav>
        <span>${session.user.email}</span>
        <form method="post" action="${BASE}/deconnexion">${csrfField(session)}<button type="submit">Se déconnecter</button></form>`
    : html`<nav><a href="${BASE}/connexion">Se connecter</a><a href="${BASE}/inscription">Créer un compte</a></nav>`;
  return html`<!doctype html>
    <html lang="fr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Espace développeur</title>
        <link rel="stylesheet" href="${BASE}/static/app.css" />
        <script src="${BASE}/static/app.js" defer></script>
      </head>
      <body>
        <header><strong>Espace développeur</strong>${nav}</header>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.value;
}

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

export function infoPage(session: Session | undefined, title: string, m: Message, link?: { href: string; text: string }): string {
  return layout(title, session, html`${message(m)}${link ? html`<p><a href="${link.href}">${link.text}</a></p>` : ''}`);
}

/** A key just created, shown once, with a curl call to copy. */
function newKeyBlock(key: string, apiUrl: string): Html {
  const curl = `curl ${apiUrl}/v1/catalogue \\\n  -H "Authorization: Bearer ${key}"`;
  return html`<div class="secret">
    <p><strong>Votre nouvelle clé ${key.startsWith('svc_live_') ? 'de production' : 'de test'}</strong> : copiez-la maintenant, elle ne sera plus affichée.</p>
    <pre id="new-key">${key}</pre>
    <button type="button" data-copy="new-key">Copier</button>
    <p>Essayez-la :</p>
    <pre id="curl-example">${curl}</pre>
    <button type="button" data-copy="curl-example">Copier</button>
  </div>`;
}

export function homePage(session: Session, input: { newKey: string | undefined; apiUrl: string; liveEnabled: boolean; activeKeys: number }): string {
  return layout(
    'Accueil',
    session,
    html`${input.newKey ? newKeyBlock(input.newKey, input.apiUrl) : ''}
      <p>Production : ${input.liveEnabled ? 'ouverte' : 'pas encore ouverte (les clés svc_live_ répondent 403 live_not_enabled)'}.</p>
      <p>${input.activeKeys} clé(s) active(s). <a href="${BASE}/cles">Gérer les clés d’API</a></p>
      <p>Appel d’essai (remplacez la clé) :</p>
      <pre id="curl-generic">curl ${input.apiUrl}/v1/catalogue -H "Authorization: Bearer svc_test_…"</pre>
      <button type="button" data-copy="curl-generic">Copier</button>`,
  );
}

export function keysPage(session: Session, input: { keys: KeySummary[]; newKey: string | undefined; apiUrl: string; m?: Message }): string {
  const rows = input.keys.map(
    (k) =>
      html`<tr data-key-id="${k.id}">
        <td><code>${k.prefix}…${k.last4}</code></td>
        <td>${k.mode === 'live' ? 'production' : 'test'}</td>
        <td>${k.scopes.join(', ')}</td>
        <td>${when(k.createdAt)}</td>
        <td>${when(k.lastUsedAt)}</td>
        <td>
          ${
            k.revokedAt
              ? html`révoquée le ${when(k.revokedAt)}`
              : html`<form method="post" action="${BASE}/cles/${k.id}/revoquer">${csrfField(session)}<button type="submit">Révoquer</button></form>`
          }
        </td>
      </tr>`,
  );
  return layout(
    'Clés d’API',
    session,
    html`${message(input.m)}${input.newKey ? newKeyBlock(input.newKey, input.apiUrl) : ''}
      <table>
        <thead>
          <tr>
            <th>Clé</th>
            <th>Mode</th>
            <th>Scopes</th>
            <th>Créée</th>
            <th>Dernier usage</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>
      <h2>Créer une clé</h2>
      <form method="post" action="${BASE}/cles">
        ${csrfField(session)}
        <fieldset>
          <legend>Mode</legend>
          <label><input type="radio" name="mode" value="test" checked /> test (sandbox)</label>
          <label><input type="radio" name="mode" value="live" /> production</label>
        </fieldset>
        <fieldset>
          <legend>Scopes</legend>
          ${SCOPES.map((scope) => html`<label><input type="checkbox" name="scopes" value="${scope}" checked /> ${scope}</label>`)}
        </fieldset>
        <button type="submit">Créer la clé</button>
      </form>`,
  );
}
