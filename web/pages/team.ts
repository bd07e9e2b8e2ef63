import { html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { PASSWORD_MIN_LENGTH } from '../../domain/developers/passwords.js';
import { ROLE_LABELS, ROLES, type Role } from '../../domain/developers/roles.js';
import type { Member, PendingInvitation } from '../../domain/developers/team.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';

const roleOptions = (selected: Role) => ROLES.map((role) => html`<option value="${role}" ${role === selected ? 'selected' : ''}>${ROLE_LABELS[role]}</option>`);

/** `/dashboard/equipe` (owners only): the members, the pending invitations, the invitation form. */
export function teamPage(session: Session, team: { members: Member[]; invitations: PendingInvitation[] }, m?: Message): string {
  const me = session.user!.id;
  return layout(
    'Équipe',
    session,
    html`${message(m)}
      <p>
        Propriétaire : tout. Développeur : clés, webhooks, envois, demandes, journal des appels (ni solde, ni facturation, ni équipe, ni accès à la production).
        Facturation : solde, recharges, factures, profil de facturation (ni clés, ni webhooks).
      </p>
      <h2>Membres</h2>
      <table id="members">
        <thead>
          <tr>
            <th>Adresse</th>
            <th>Rôle</th>
            <th>Depuis</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          ${team.members.map(
            (member) =>
              html`<tr data-email="${member.email}">
                <td>${member.email}${member.id === me ? ' (vous)' : ''}</td>
                <td class="role">${ROLE_LABELS[member.role]}</td>
                <td>${when(member.since)}</td>
                <td>
                  <form class="role-form" method="post" action="${BASE}/equipe/${member.id}/role">
                    ${csrfField(session)}<label for="role-${member.id}">Rôle</label
                    ><select id="role-${member.id}" name="role">
                      ${roleOptions(member.role)}
                    </select>
                    <button type="submit">Changer le rôle</button>
                  </form>
                  <form class="remove-form" method="post" action="${BASE}/equipe/${member.id}/retirer">
                    ${csrfField(session)}<button type="submit">Retirer</button>
                  </form>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h2>Invitations en attente</h2>
      ${
        team.invitations.length === 0
          ? html`<p>Aucune invitation en attente.</p>`
          : html`<table id="invitations">
              <thead>
                <tr>
                  <th>Adresse</th>
                  <th>Rôle</th>
                  <th>Envoyée</th>
                  <th>Expire</th>
                </tr>
              </thead>
              <tbody>
                ${team.invitations.map(
                  (i) =>
                    html`<tr>
                      <td>${i.email}</td>
                      <td>${ROLE_LABELS[i.role]}</td>
                      <td>${when(i.createdAt)}</td>
                      <td>${when(i.expiresAt)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
      <h2>Inviter un membre</h2>
      <form id="invite-form" method="post" action="${BASE}/equipe/inviter">
        ${csrfField(session)} <label for="invite_email">Adresse e-mail</label><input id="invite_email" name="email" type="email" required autocomplete="off" />
        <label for="invite_role">Rôle</label
        ><select id="invite_role" name="role">
          ${roleOptions('developer')}
        </select>
        <p>Un lien d’invitation, valable 7 jours et une seule fois, part vers cette adresse.</p>
        <p><button type="submit">Inviter</button></p>
      </form>`,
  );
}

/** The page of an invitation link: sign-up with the invited address fixed. */
export function joinPage(session: Session, token: string, invitation: { email: string; role: Role }, m?: Message): string {
  return layout(
    'Rejoindre un compte',
    session,
    html`${message(m)}
      <p>Vous êtes invité·e à rejoindre un compte de l’espace développeur avec le rôle <strong>${ROLE_LABELS[invitation.role]}</strong>.</p>
      <form id="join-form" method="post" action="${BASE}/invitation">
        ${csrfField(session)}<input type="hidden" name="token" value="${token}" /> <label for="email">Adresse e-mail</label
        ><input id="email" type="email" value="${invitation.email}" readonly />
        <label for="password">Mot de passe (${PASSWORD_MIN_LENGTH} caractères au moins)</label
        ><input id="password" name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password" />
        <p><button type="submit">Créer mon accès et rejoindre le compte</button></p>
      </form>`,
  );
}
