import { html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { ClosingState } from '../../domain/access/closing.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';
import { count } from './format.js';

/** `/dashboard/donnees`: the export of everything held for the account, and its closing (owners only). */
export function accountDataPage(session: Session, closing: ClosingState | undefined, graceDays: number, m?: Message): string {
  const inGrace = closing?.confirmedAt && !closing.closedAt;
  const asked = closing && !closing.confirmedAt && !closing.closedAt;
  const closingPart = inGrace
    ? html`<p id="closing-state">
          La clôture du compte est <strong>confirmée</strong> : elle prendra effet le <strong>${when(closing.closesAt)}</strong> (ou, si des envois sont encore
          en cours, dès qu’ils seront tous arrivés à leur terme). D’ici là, les clés d’API sont refusées, les webhooks sont arrêtés et aucun nouvel envoi n’est
          possible ; les envois déjà payés vont jusqu’à leur terme.
        </p>
        <form id="closing-cancel-form" method="post" action="${BASE}/donnees/cloture/annuler">
          ${csrfField(session)}
          <p><button type="submit">Annuler la clôture</button></p>
        </form>`
    : html`${
          asked
            ? html`<p id="closing-state">
                Une clôture a été demandée le ${when(closing.requestedAt)} : ouvrez le lien envoyé par e-mail pour la confirmer (valable 48 heures).
              </p>`
            : ''
        }
        <p>
          La clôture se fait en trois temps : vous la demandez ici, vous la confirmez par le lien envoyé par e-mail, puis un délai de ${count(graceDays)} jours
          vous laisse l’annuler. Dès la confirmation, les clés d’API sont refusées, les webhooks s’arrêtent et aucun nouvel envoi n’est possible ; les envois
          déjà payés vont jusqu’à leur terme.
        </p>
        <p>
          À la fin du délai, le crédit prépayé restant vous est remboursé, et les données personnelles que la loi ne nous oblige pas à garder sont effacées
          (adresses e-mail et mots de passe des membres, adresses des webhooks, contenu et destinataires des lettres). Les factures et les écritures du compte
          sont conservées dix ans (article L123-22 du Code de commerce). Pensez à exporter vos données avant.
        </p>
        <form id="closing-form" method="post" action="${BASE}/donnees/cloture">
          ${csrfField(session)} <label for="closing_password">Mot de passe actuel</label
          ><input id="closing_password" name="closing_password" type="password" required autocomplete="current-password" />
          <p><button type="submit">Demander la clôture du compte</button></p>
        </form>`;
  return layout(
    'Données et clôture du compte',
    session,
    html`${message(m)}
      <h2>Exporter les données du compte</h2>
      <p>
        Une archive <code>.tar.gz</code> de tout ce que nous gardons pour ce compte : les envois (lettres, PDF fournis, preuves en PDF, étapes), les webhooks
        (sans leurs secrets) et l’historique de leurs envois, les recharges et leurs factures, les écritures du solde, le profil de facturation, l’équipe, le
        journal d’audit et les demandes. Le fichier <code>manifest.json</code> en donne le détail. L’export est inscrit au journal d’audit.
      </p>
      <form id="export-form" method="post" action="${BASE}/donnees/export">
        ${csrfField(session)}
        <p><button type="submit">Télécharger l’archive</button></p>
      </form>
      <h2>Clôturer le compte</h2>
      ${closingPart}`,
  );
}
