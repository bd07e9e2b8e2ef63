import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { KeySummary } from '../../domain/access/keys.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';

/** A key just created, shown once, with a curl call to copy. */
function newKeyBlock(key: string, apiUrl: string): Html {
  const curl = `curl ${apiUrl}/v1/catalogue \\\n  -H "Authorization: Bearer ${key}"`;
  return html`<div class="secret">
    ${
      key.startsWith('svc_live_')
        ? html`<p><strong>Votre nouvelle clé de production</strong> : copiez-la maintenant, elle ne sera plus affichée.</p>`
        : html`<p><strong>Votre nouvelle clé de test</strong> : copiez-la ; vous pourrez l’afficher à nouveau depuis <a href="${BASE}/cles">Clés d’API</a>.</p>`
    }
    <pre id="new-key">${key}</pre>
    <button type="button" data-copy="new-key">Copier</button>
    <p>Essayez-la :</p>
    <pre id="curl-example">${curl}</pre>
    <button type="button" data-copy="curl-example">Copier</button>
  </div>`;
}

export function homePage(
  session: Session,
  input: { newKey: string | undefined; apiUrl: string; liveEnabled: boolean; activeKeys: number; overview?: Html },
): string {
  return layout(
    'Accueil',
    session,
    html`${input.newKey ? newKeyBlock(input.newKey, input.apiUrl) : ''} ${input.overview ?? ''}
      <p>
        Production : ${input.liveEnabled ? 'ouverte' : 'pas encore ouverte (les clés svc_live_ répondent 403 live_not_enabled)'}.
        <a href="${BASE}/production">Accès à la production</a>
      </p>
      <p>${input.activeKeys} clé(s) active(s). <a href="${BASE}/cles">Gérer les clés d’API</a></p>
      <p>Appel d’essai (remplacez la clé) :</p>
      <pre id="curl-generic">curl ${input.apiUrl}/v1/catalogue -H "Authorization: Bearer svc_test_…"</pre>
      <button type="button" data-copy="curl-generic">Copier</button>
      ${quickstart(input.apiUrl)}`,
  );
}

/** From a test key to a test letter posted and followed, in three calls; the reference is /docs. */
function quickstart(apiUrl: string): Html {
  const mailing = `curl ${apiUrl}/v1/mailings \
  -H "Authorization: Bearer svc_test_…" -H "Content-Type: application/json" \
  -d '{"mode": "registered",
       "letter": {"title": "Demande de rendez-vous", "body": "Madame, Monsieur,\\n\\nJe souhaite un rendez-vous."},
       "sender": {"name": "Marie Dupont", "lines": ["12 rue des Lilas"], "postcode": "69003", "city": "Lyon"},
       "recipient": {"name": "Mairie de Lyon", "lines": ["1 place de la Comédie"], "postcode": "69001", "city": "Lyon"}}'`;
  const advance = `curl -X POST ${apiUrl}/v1/test/mailings/ID/advance -H "Authorization: Bearer svc_test_…"`;
  return html`<h2 id="quickstart">Démarrer</h2>
    <p>
      La référence complète de l’API (chaque route, ses champs, ses erreurs, des exemples) est la
      <a href="/docs" id="docs-link">documentation de l’API</a> (aussi en <a href="/v1/openapi.json">OpenAPI 3.1</a>). En trois appels, avec votre clé de test
      (gratuite, rien n’est posté) :
    </p>
    <ol class="quickstart">
      <li>Parcourez le catalogue des courriers : l’appel d’essai ci-dessus.</li>
      <li>
        Envoyez un courrier recommandé de test ; la réponse donne son <code>id</code> :
        <pre id="curl-mailing">${mailing}</pre>
        <button type="button" data-copy="curl-mailing">Copier</button>
      </li>
      <li>
        Faites-le avancer d’une étape (imprimé, posté, distribué…), comme La Poste le ferait, et recevez les mêmes webhooks qu’en production (<a
          href="${BASE}/webhooks"
          >déclarez une adresse</a
        >) :
        <pre id="curl-advance">${advance}</pre>
        <button type="button" data-copy="curl-advance">Copier</button>
      </li>
    </ol>`;
}

/** A test key shown again on its account's request. */
function revealedKeyBlock(key: string): Html {
  return html`<div class="secret">
    <p><strong>Votre clé de test</strong> (vous pourrez l’afficher à nouveau ; les clés de production, elles, ne sont montrées qu’une fois) :</p>
    <pre id="revealed-key">${key}</pre>
    <button type="button" data-copy="revealed-key">Copier</button>
  </div>`;
}

export function keysPage(session: Session, input: { keys: KeySummary[]; newKey: string | undefined; revealed?: string; apiUrl: string; m?: Message }): string {
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
              : html`${
                    k.revealable
                      ? html`<form method="post" action="${BASE}/cles/${k.id}/afficher">${csrfField(session)}<button type="submit">Afficher</button></form>`
                      : ''
                  }
                  <form method="post" action="${BASE}/cles/${k.id}/revoquer">${csrfField(session)}<button type="submit">Révoquer</button></form>`
          }
        </td>
      </tr>`,
  );
  return layout(
    'Clés d’API',
    session,
    html`${message(input.m)}${input.newKey ? newKeyBlock(input.newKey, input.apiUrl) : ''}${input.revealed ? revealedKeyBlock(input.revealed) : ''}
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
