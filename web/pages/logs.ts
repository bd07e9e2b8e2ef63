import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { KeySummary } from '../../domain/access/keys.js';
import type { AuditAction, AuditEntry } from '../../domain/access/audit.js';
import { REQUEST_LOG_RETENTION_DAYS, STATUS_CLASSES, type RequestLogEntry } from '../../domain/access/request-log.js';
import { BASE, layout, message, type Message } from './layout.js';
import { BILLING_LABELS } from './billing-profile.js';
import type { BillingField } from '../../domain/billing/profiles.js';
import { count, whenToTheSecond } from './format.js';

export const JOURNAL = `${BASE}/journal`;
export const AUDIT = `${BASE}/audit`;

/** To the second: a log is read call by call. */
const at = whenToTheSecond;

const keyLabel = (key: { mode: string; last4: string } | undefined): string => (key ? `svc_${key.mode}_…${key.last4}` : 'clé inconnue');

export interface JournalFilters {
  key: string;
  status: string;
}

export function journalUrl(filters: JournalFilters, cursor?: string): string {
  const query = new URLSearchParams();
  if (filters.key) query.set('cle', filters.key);
  if (filters.status) query.set('statut', filters.status);
  if (cursor) query.set('apres', cursor);
  const text = query.toString();
  return text ? `${JOURNAL}?${text}` : JOURNAL;
}

function journalFilters(filters: JournalFilters, keys: KeySummary[]): Html {
  const option = (value: string, text: string, selected: string): Html =>
    html`<option value="${value}" ${value === selected ? html`selected` : ''}>${text}</option>`;
  return html`<form method="get" action="${JOURNAL}" class="filters">
    <label for="cle">Clé</label>
    <select id="cle" name="cle">
      ${option('', 'toutes', filters.key)} ${keys.map((k) => option(k.id, `${keyLabel(k)}${k.revokedAt ? ' (révoquée)' : ''}`, filters.key))}
    </select>
    <label for="statut">Statut HTTP</label>
    <select id="statut" name="statut">
      ${option('', 'tous', filters.status)} ${STATUS_CLASSES.map((c) => option(c, c, filters.status))}
    </select>
    <p><button type="submit">Filtrer</button></p>
  </form>`;
}

/** The account's API calls of the last days, newest first: what a developer looks at first when an integration fails. */
export function journalPage(
  session: Session,
  input: { filters: JournalFilters; keys: KeySummary[]; entries: RequestLogEntry[]; nextCursor: string | null; m?: Message },
): string {
  const keys = new Map(input.keys.map((k) => [k.id, k]));
  return layout(
    'Journal des appels',
    session,
    html`${message(input.m)}
      <p>
        Les appels à l’API faits avec les clés de ce compte pendant les ${count(REQUEST_LOG_RETENTION_DAYS)} derniers jours, les plus récents d’abord (ils
        apparaissent en une à deux secondes) : méthode, chemin, statut, durée et identifiant de requête. Citez l’identifiant (en-tête <code>Request-Id</code> de
        la réponse) au support. Ni les paramètres de requête, ni les en-têtes, ni les corps ne sont enregistrés.
      </p>
      ${journalFilters(input.filters, input.keys)}
      ${
        input.entries.length
          ? html`<table id="request-log">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Requête</th>
                  <th>Statut</th>
                  <th>Durée</th>
                  <th>Clé</th>
                  <th>Identifiant de requête</th>
                </tr>
              </thead>
              <tbody>
                ${input.entries.map(
                  (e) =>
                    html`<tr data-request-id="${e.requestId}" data-status="${e.status}" data-key-id="${e.keyId}">
                      <td>${at(e.at)}</td>
                      <td><code class="method">${e.method}</code> <code class="path">${e.path}</code></td>
                      <td class="status">${e.status}</td>
                      <td>${count(e.durationMs)} ms</td>
                      <td>${keyLabel(keys.get(e.keyId))}</td>
                      <td><code class="request-id" id="r-${e.requestId}">${e.requestId}</code></td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p id="no-requests">Aucun appel ne correspond.</p>`
      }
      ${input.nextCursor ? html`<p><a id="next-page" href="${journalUrl(input.filters, input.nextCursor)}">Appels plus anciens</a></p>` : ''}`,
  );
}

const ACTION_TEXT: Record<AuditAction, string> = {
  'key.created': 'Clé créée',
  'key.revoked': 'Clé révoquée',
  'key.revealed': 'Clé de test affichée à nouveau',
  'webhook.created': 'Webhook déclaré',
  'webhook.disabled': 'Webhook désactivé',
  'webhook.enabled': 'Webhook réactivé',
  'webhook.deleted': 'Webhook supprimé',
  'webhook.secret_rotated': 'Secret de webhook renouvelé',
  'production.requested': 'Accès à la production demandé',
  'production.checked': 'Entreprise vérifiée dans l’annuaire',
  'production.refused': 'Demande de production refusée',
  'account.live_enabled': 'Production ouverte',
  'account.suspended': 'Compte suspendu',
  'account.unsuspended': 'Compte réactivé',
  'account.ai_enabled': 'Fonctions d’IA activées',
  'account.ai_disabled': 'Fonctions d’IA désactivées',
  'account.exported': 'Export des données du compte',
  'account.closing_requested': 'Clôture du compte demandée',
  'account.closing_confirmed': 'Clôture du compte confirmée',
  'account.closing_canceled': 'Clôture du compte annulée',
  'account.closed': 'Compte clôturé',
  'password.reset': 'Mot de passe réinitialisé',
  'password.changed': 'Mot de passe changé',
  'email.change_requested': 'Changement d’adresse e-mail demandé',
  'email.changed': 'Adresse e-mail changée',
  '2fa.enabled': 'Double authentification activée',
  '2fa.disabled': 'Double authentification désactivée',
  '2fa.recovery_code_used': 'Code de secours utilisé',
  'signin.succeeded': 'Connexion',
  'signin.failed': 'Connexion refusée (mot de passe erroné)',
  'billing_profile.created': 'Profil de facturation renseigné',
  'billing_profile.updated': 'Profil de facturation modifié',
  'team.invited': 'Membre invité',
  'team.joined': 'Invitation acceptée',
  'team.role_changed': 'Rôle d’un membre changé',
  'team.removed': 'Membre retiré',
  'account.retention_changed': 'Durée de conservation des envois changée',
  'account.return_envelope_changed': 'Enveloppe retour du compte changée',
  'account.archive_changed': 'Durée d’archivage chez l’opérateur changée',
  'mailing.erased': 'Données personnelles d’un envoi effacées',
  'sender_identity.requested': 'Vérification de l’identité d’expéditeur (LRE) demandée',
};

function target(e: AuditEntry): string {
  const d = e.details;
  switch (e.targetType) {
    case 'key':
      return typeof d.last4 === 'string' ? keyLabel({ mode: String(d.mode), last4: d.last4 }) : 'clé';
    case 'webhook':
      return typeof d.url === 'string' ? d.url : 'webhook';
    case 'production_request':
      return typeof d.siret === 'string' ? `SIRET ${d.siret}` : 'demande';
    case 'user':
      return typeof d.email === 'string' ? d.email : 'utilisateur';
    case 'invitation':
      return typeof d.email === 'string' ? `invitation de ${d.email}` : 'invitation';
    case 'account':
      return Array.isArray(d.changed) ? `profil de facturation (${d.changed.map((f: string) => BILLING_LABELS[f as BillingField] ?? f).join(', ')})` : 'compte';
    default:
      return 'compte';
  }
}

function actor(e: AuditEntry): string {
  if (e.actorType === 'developer') return e.actorLabel ?? 'développeur';
  if (e.actorType === 'operator') return `opérateur (${e.actorLabel ?? 'admin'})`;
  return 'le service';
}

/** Changes to the account's keys, webhooks and access, and its sign-ins, newest first. */
export function auditPage(session: Session, input: { entries: AuditEntry[]; nextCursor: string | null; m?: Message }): string {
  return layout(
    'Journal d’audit',
    session,
    html`${message(input.m)}
      <p>
        Chaque changement des clés, des webhooks et de l’accès de ce compte, et chaque connexion, avec son auteur et l’adresse d’où il a été fait. Une entrée
        est écrite avec le changement lui-même (la même transaction) et n’est jamais modifiée ni effacée.
      </p>
      ${
        input.entries.length
          ? html`<table id="audit-log">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Action</th>
                  <th>Objet</th>
                  <th>Auteur</th>
                  <th>Adresse</th>
                </tr>
              </thead>
              <tbody>
                ${input.entries.map(
                  (e) =>
                    html`<tr data-audit-id="${e.id}" data-action="${e.action}" data-target-id="${e.targetId ?? ''}" data-actor="${e.actorType}">
                      <td>${at(e.at)}</td>
                      <td>${ACTION_TEXT[e.action] ?? e.action}</td>
                      <td class="target">${target(e)}</td>
                      <td class="actor">${actor(e)}</td>
                      <td class="address">${e.clientAddress ?? '—'}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p id="no-entries">Aucune entrée pour l’instant.</p>`
      }
      ${input.nextCursor ? html`<p><a id="next-page" href="${AUDIT}?apres=${encodeURIComponent(input.nextCursor)}">Entrées plus anciennes</a></p>` : ''}`,
  );
}
