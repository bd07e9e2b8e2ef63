import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { mayOpen, type PageFamily } from '../../domain/developers/roles.js';

export const BASE = '/dashboard';

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
export const when = (date: Date | null): string => (date ? dateFormat.format(date) : '—');

export const csrfField = (session: Session): Html => html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;

export interface Message {
  kind: 'notice' | 'error';
  text: string;
}

export const message = (m: Message | undefined): Html =>
  m ? html`<p class="${m.kind}" role="${m.kind === 'error' ? 'alert' : 'status'}">${m.text}</p>` : html``;

/** The signed-in menu: one entry per page family (each routes module adds its own), shown when the user's role opens it. */
const MENU: ReadonlyArray<{ path: string; text: string; family: PageFamily }> = [
  { path: '', text: 'Accueil', family: 'home' },
  { path: '/cles', text: 'Clés d’API', family: 'keys' },
  { path: '/webhooks', text: 'Webhooks', family: 'webhooks' },
  { path: '/envois', text: 'Envois', family: 'mailings' },
  { path: '/envois/nouveau', text: 'Envoyer une lettre', family: 'mailings' },
  { path: '/demandes', text: 'Demandes', family: 'requests' },
  { path: '/production', text: 'Production', family: 'production' },
  { path: '/solde', text: 'Solde et recharges', family: 'balance' },
  { path: '/facturation', text: 'Facturation', family: 'billing' },
  { path: '/journal', text: 'Journal des appels', family: 'logs' },
  { path: '/audit', text: 'Audit', family: 'audit' },
  { path: '/equipe', text: 'Équipe', family: 'team' },
  { path: '/donnees', text: 'Données et clôture', family: 'account' },
  { path: '/parametres', text: 'Paramètres du compte', family: 'settings' },
  { path: '/identite-expediteur', text: 'Identité d’expéditeur', family: 'settings' },
  { path: '/confidentialite', text: 'Données personnelles', family: 'privacy' },
];

/**
 * A page. `refresh`: the page loads `url` again after `seconds` (a meta refresh: no script, allowed
 * by the CSP), for a page waiting on something that lands by itself (a top-up's credit).
 */
export function layout(title: string, session: Session | undefined, body: Html, refresh?: { url: string; seconds: number }): string {
  const nav = session?.user
    ? html`<nav>
          ${MENU.filter((entry) => mayOpen(session.user!.role, entry.family)).map((entry) => html`<a href="${BASE}${entry.path}">${entry.text}</a>`)}
        </nav>
        <span>${session.user.email}</span>
        <form method="post" action="${BASE}/deconnexion">${csrfField(session)}<button type="submit">Se déconnecter</button></form>`
    : html`<nav><a href="${BASE}/connexion">Se connecter</a><a href="${BASE}/inscription">Créer un compte</a></nav>`;
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
        <header><strong>Espace développeur</strong>${nav}</header>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.value;
}

export function infoPage(session: Session | undefined, title: string, m: Message, link?: { href: string; text: string }): string {
  return layout(title, session, html`${message(m)}${link ? html`<p><a href="${link.href}">${link.text}</a></p>` : ''}`);
}
