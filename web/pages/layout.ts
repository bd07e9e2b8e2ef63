import { Html, html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { mayOpen, type PageFamily } from '../../domain/developers/roles.js';

export const BASE = '/dashboard';

// The pages' dates, from the one formatting module.
export { when, whenLong } from './format.js';

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
      <a class="nav-home" href="${BASE}" data-menu-path="">Accueil</a>
      ${groups.map(
        (g) =>
          html`<div class="nav-group" data-menu-group="${g.group}">
            <span class="nav-title">${g.group}</span>
            <ul>
              ${g.entries.map((entry) => html`<li><a href="${BASE}${entry.path}" data-menu-path="${entry.path}">${entry.text}</a></li>`)}
            </ul>
          </div>`,
      )}
    </nav>
  </details>`;
}

/**
 * The menu's entry of a page's path: the entry whose path is the longest prefix of it, on a
 * segment's boundary (/envois/lots/verifications/… is « Envoi en nombre », /envois/… « Envois »);
 * the home page's entry only for the home page itself.
 */
export function menuEntryOf(path: string): { path: string; group: string | null } | undefined {
  const inner = path.startsWith(BASE) ? path.slice(BASE.length).replace(/\/$/, '') : undefined;
  if (inner === undefined) return undefined;
  if (inner === '') return { path: '', group: null };
  let best: { path: string; group: string } | undefined;
  for (const { group, entries } of MENU)
    for (const entry of entries)
      if ((inner === entry.path || inner.startsWith(`${entry.path}/`)) && entry.path.length > (best?.path.length ?? -1)) best = { path: entry.path, group };
  return best;
}

/**
 * The current page marked in a page's menu (web/kit.ts, for every page answered): its link
 * `aria-current="page"`, its group `data-current`; both styled (web/assets.ts).
 */
export function markCurrentPage(page: string, path: string): string {
  const entry = menuEntryOf(path);
  if (!entry) return page;
  const marked = page.replace(`data-menu-path="${entry.path}"`, `data-menu-path="${entry.path}" aria-current="page"`);
  return entry.group === null ? marked : marked.replace(`data-menu-group="${entry.group}"`, `data-menu-group="${entry.group}" data-current`);
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
 * by the CSP), for a page waiting on something that lands by itself (a top-up's credit);
 * `withoutScript`: only in a browser without script (in <noscript>), the page's script following
 * the page in place otherwise (a CSV file's check).
 */
export function layout(title: string, session: Session | undefined, body: Html, refresh?: { url: string; seconds: number; withoutScript?: boolean }): string {
  const refreshTag = refresh ? html`<meta http-equiv="refresh" content="${String(refresh.seconds)}; url=${refresh.url}" />` : '';
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
        ${refresh?.withoutScript ? html`<noscript>${refreshTag}</noscript>` : refreshTag}
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
