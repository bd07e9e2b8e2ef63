import { Html, html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { mayOpen, type PageFamily } from '../../domain/developers/roles.js';

export const BASE = '/dashboard';

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
export const when = (date: Date | null): string => (date ? dateFormat.format(date) : '—');
const longDateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
/** A date in words, Paris time (« 2 décembre 2026 à 14:40 »): a mailing's timeline. */
export const whenLong = (date: Date): string => longDateFormat.format(date);

export const csrfField = (session: Session): Html => html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;

export interface Message {
  kind: 'notice' | 'error';
  text: string;
}

export const message = (m: Message | undefined): Html =>
  m ? html`<p class="${m.kind}" role="${m.kind === 'error' ? 'alert' : 'status'}">${m.text}</p>` : html``;

/** The signed-in menu, grouped by task: one entry per page (each routes module adds its own), shown when the user's role opens it. */
const MENU: ReadonlyArray<{ group: string; entries: ReadonlyArray<{ path: string; text: string; family: PageFamily }> }> = [
  {
    group: 'Envoyer',
    entries: [
      { path: '/envois/nouveau', text: 'Envoyer une lettre', family: 'mailings' },
      { path: '/envois/lots', text: 'Envoi en nombre', family: 'mailings' },
    ],
  },
  {
    group: 'Suivre',
    entries: [
      { path: '/envois', text: 'Envois', family: 'mailings' },
      { path: '/demandes', text: 'Demandes', family: 'requests' },
    ],
  },
  {
    group: 'Intégrer',
    entries: [
      { path: '/cles', text: 'Clés d’API', family: 'keys' },
      { path: '/webhooks', text: 'Webhooks', family: 'webhooks' },
      { path: '/journal', text: 'Journal des appels', family: 'logs' },
      { path: '/production', text: 'Production', family: 'production' },
    ],
  },
  {
    group: 'Facturation',
    entries: [
      { path: '/solde', text: 'Solde et recharges', family: 'balance' },
      { path: '/facturation', text: 'Facturation', family: 'billing' },
    ],
  },
  {
    group: 'Compte',
    entries: [
      { path: '/parametres', text: 'Paramètres du compte', family: 'settings' },
      { path: '/identite-expediteur', text: 'Identité d’expéditeur', family: 'settings' },
      { path: '/equipe', text: 'Équipe', family: 'team' },
      { path: '/audit', text: 'Audit', family: 'audit' },
      { path: '/donnees', text: 'Données et clôture', family: 'account' },
      { path: '/confidentialite', text: 'Données personnelles', family: 'privacy' },
    ],
  },
];

function menu(session: Session): Html {
  const role = session.user!.role;
  const groups = MENU.map((g) => ({ group: g.group, entries: g.entries.filter((entry) => mayOpen(role, entry.family)) })).filter((g) => g.entries.length);
  // Open: without script, the menu shows; app.js folds it on a narrow screen, behind its "Menu" button.
  return html`<details class="menu" open>
    <summary>Menu</summary>
    <nav aria-label="Menu principal">
      <a class="nav-home" href="${BASE}">Accueil</a>
      ${groups.map(
        (g) =>
          html`<div class="nav-group">
            <span class="nav-title">${g.group}</span>
            <ul>
              ${g.entries.map((entry) => html`<li><a href="${BASE}${entry.path}">${entry.text}</a></li>`)}
            </ul>
          </div>`,
      )}
    </nav>
  </details>`;
}

/**
 * Every table of a page in a container that scrolls sideways when the table is wider than the
 * screen (the page itself never does), and every block of code (which scrolls too): focusable, so
 * that a keyboard scrolls them as well.
 */
function scrollables(body: Html): Html {
  return new Html(
    body.value
      .replace(/<pre(?![^>]*tabindex)/g, '<pre tabindex="0"')
      .replace(/<table\b/g, '<div class="table-scroll" tabindex="0" role="region" aria-label="Tableau (défile horizontalement)"><table')
      .replace(/<\/table>/g, '</table></div>'),
  );
}

/**
 * A page. `refresh`: the page loads `url` again after `seconds` (a meta refresh: no script, allowed
 * by the CSP), for a page waiting on something that lands by itself (a top-up's credit).
 */
export function layout(title: string, session: Session | undefined, body: Html, refresh?: { url: string; seconds: number }): string {
  const nav = session?.user
    ? html`<div class="account-bar">
          <span class="user">${session.user.email}</span>
          <form method="post" action="${BASE}/deconnexion">${csrfField(session)}<button type="submit" class="secondary">Se déconnecter</button></form>
        </div>
        ${menu(session)}`
    : html`<nav aria-label="Menu principal" class="nav-anonymous">
        <a href="${BASE}/connexion">Se connecter</a><a href="${BASE}/inscription">Créer un compte</a>
      </nav>`;
  return html`<!doctype html>
    <html lang="fr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Espace développeur</title>
        ${refresh ? html`<meta http-equiv="refresh" content="${String(refresh.seconds)}; url=${refresh.url}" />` : ''}
        <link rel="stylesheet" href="${BASE}/static/app.css" />
        <script src="${BASE}/static/app.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#contenu">Aller au contenu</a>
        <header>
          <a class="brand" href="${BASE}">svc-postal <span>Espace développeur</span></a>
          ${nav}
        </header>
        <main id="contenu" tabindex="-1">
          <h1>${title}</h1>
          ${scrollables(body)}
        </main>
      </body>
    </html>`.value;
}

export function infoPage(session: Session | undefined, title: string, m: Message, link?: { href: string; text: string }): string {
  return layout(title, session, html`${message(m)}${link ? html`<p><a href="${link.href}">${link.text}</a></p>` : ''}`);
}
