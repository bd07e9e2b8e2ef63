import type { Db } from '../../db/knex.js';
import { recordAudit, type Actor } from '../access/audit.js';
import { hashPassword } from './passwords.js';
import type { Role } from './roles.js';
import { deleteUserSessions } from './sessions.js';
import { budgets, reserve } from './throttle.js';
import { newToken, normalEmail, TOKEN_FORMAT, tokenHash } from './users.js';

/**
 * The members of an account (developer_users.role) and their invitations (developer_invitations),
 * issue 25 item 9. Every change is in the audit log, in its transaction. Changes of one account's
 * team are serialized (an advisory lock per account), so that the last owner is always counted
 * right, even when two owners demote each other at the same moment.
 */

export const INVITATION_LIFETIME_MS = 7 * 24 * 3_600_000;

export interface Member {
  id: string;
  email: string;
  role: Role;
  since: Date;
}
export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

export async function listTeam(db: Db, accountId: string): Promise<{ members: Member[]; invitations: PendingInvitation[] }> {
  const members = await db('developer_users').where({ account_id: accountId }).orderBy('created_at').select('id', 'email', 'role', 'created_at');
  const invitations = await db('developer_invitations')
    .where({ account_id: accountId })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .orderBy('created_at', 'desc')
    .select('id', 'email', 'role', 'created_at', 'expires_at');
  return {
    members: members.map((m) => ({ id: m.id, email: m.email, role: m.role, since: m.created_at })),
    invitations: invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, createdAt: i.created_at, expiresAt: i.expires_at })),
  };
}

/** One team change at a time per account, until the transaction ends. */
const lockTeam = (trx: Db, accountId: string) => trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`team:${accountId}`]);

/** The actor still is an owner of the account (checked under the lock: a demoted owner cannot act any more). */
async function isOwner(trx: Db, accountId: string, userId: string): Promise<boolean> {
  return (await trx('developer_users').where({ id: userId, account_id: accountId, role: 'owner' }).first('id')) !== undefined;
}

const ownerCount = async (trx: Db, accountId: string): Promise<number> => {
  const [{ n }] = await trx('developer_users').where({ account_id: accountId, role: 'owner' }).count({ n: '*' });
  return Number(n);
};

/**
 * Invites `email` into the account with `role`: a single-use link (7 days) to email. A newer
 * invitation of the same address voids the earlier ones. `member` when the address already is
 * a member of this account.
 */
export async function inviteMember(
  db: Db,
  actor: Actor & { kind: 'developer' },
  input: { accountId: string; email: string; role: Role },
): Promise<{ kind: 'invited'; email: string; token: string } | { kind: 'member' } | { kind: 'forbidden' }> {
  const email = normalEmail(input.email);
  const token = newToken();
  return db.transaction(async (trx) => {
    await lockTeam(trx, input.accountId);
    if (!(await isOwner(trx, input.accountId, actor.userId))) return { kind: 'forbidden' as const };
    if (await trx('developer_users').where({ account_id: input.accountId, email }).first('id')) return { kind: 'member' as const };
    await trx('developer_invitations').where({ account_id: input.accountId, email }).whereNull('used_at').update({ used_at: trx.fn.now() });
    const [invitation] = await trx('developer_invitations')
      .insert({
        account_id: input.accountId,
        email,
        role: input.role,
        token_hash: tokenHash(token),
        invited_by: actor.userId,
        expires_at: new Date(Date.now() + INVITATION_LIFETIME_MS),
      })
      .returning('id');
    await recordAudit(trx, actor, {
      accountId: input.accountId,
      action: 'team.invited',
      target: { type: 'invitation', id: invitation.id },
      details: { email, role: input.role },
    });
    return { kind: 'invited' as const, email, token };
  });
}

export type InvitationState =
  | { kind: 'valid'; email: string; role: Role; accountId: string }
  /** Unknown, expired, used or voided. */
  | { kind: 'invalid' }
  /** The address already is a user (of this account or another): one account per user. */
  | { kind: 'taken'; email: string };

async function findInvitation(db: Db, token: string, lock = false): Promise<{ id: string; email: string; role: Role; account_id: string } | undefined> {
  if (!TOKEN_FORMAT.test(token)) return undefined;
  const query = db('developer_invitations')
    .where({ token_hash: tokenHash(token) })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .first('id', 'email', 'role', 'account_id');
  return lock ? query.forUpdate() : query;
}

/** What an invitation link leads to (without using it). */
export async function invitationState(db: Db, token: string): Promise<InvitationState> {
  const invitation = await findInvitation(db, token);
  if (!invitation) return { kind: 'invalid' };
  if (await db('developer_users').where({ email: invitation.email }).first('id')) return { kind: 'taken', email: invitation.email };
  return { kind: 'valid', email: invitation.email, role: invitation.role, accountId: invitation.account_id };
}

/**
 * Accepts an invitation (used once): a new user with the invited address (confirmed: the link
 * proves it) and `password`, member of the inviting account with the invited role. One hash of
 * the client address's budget (`throttled` once spent).
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password: string; address: string },
): Promise<{ kind: 'joined'; userId: string; accountId: string } | { kind: 'invalid' } | { kind: 'throttled' } | { kind: 'taken'; email: string }> {
  if (!(await findInvitation(db, input.token))) return { kind: 'invalid' };
  if (!(await reserve(db, [budgets.hash(input.address)]))) return { kind: 'throttled' };
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (trx) => {
      const invitation = await findInvitation(trx, input.token, true);
      if (!invitation) return { kind: 'invalid' as const };
      if (await trx('developer_users').where({ email: invitation.email }).first('id')) return { kind: 'taken' as const, email: invitation.email };
      await lockTeam(trx, invitation.account_id);
      await trx('developer_invitations').where({ id: invitation.id }).update({ used_at: trx.fn.now() });
      const [user] = await trx('developer_users')
        .insert({
          account_id: invitation.account_id,
          email: invitation.email,
          password_hash: passwordHash,
          role: invitation.role,
          email_confirmed_at: trx.fn.now(),
        })
        .returning('id');
      await recordAudit(
        trx,
        { kind: 'developer', userId: user.id, email: invitation.email, address: input.address },
        {
          accountId: invitation.account_id,
          action: 'team.joined',
          target: { type: 'user', id: user.id },
          details: { email: invitation.email, role: invitation.role },
        },
      );
      return { kind: 'joined' as const, userId: user.id as string, accountId: invitation.account_id };
    });
  } catch (error) {
    // The address signed up (or accepted another invitation) at the same moment.
    if ((error as { code?: string }).code === '23505') return { kind: 'invalid' };
    throw error;
  }
}

export type TeamChange = 'done' | 'not_found' | 'last_owner' | 'forbidden';

/** Gives a member another role; the last owner of the account cannot be demoted (`last_owner`). */
export async function changeRole(db: Db, actor: Actor & { kind: 'developer' }, input: { accountId: string; userId: string; role: Role }): Promise<TeamChange> {
  return db.transaction(async (trx) => {
    await lockTeam(trx, input.accountId);
    if (!(await isOwner(trx, input.accountId, actor.userId))) return 'forbidden';
    const member = await trx('developer_users').where({ id: input.userId, account_id: input.accountId }).first('id', 'email', 'role');
    if (!member) return 'not_found';
    if (member.role === input.role) return 'done';
    if (member.role === 'owner' && (await ownerCount(trx, input.accountId)) <= 1) return 'last_owner';
    await trx('developer_users').where({ id: member.id }).update({ role: input.role });
    await recordAudit(trx, actor, {
      accountId: input.accountId,
      action: 'team.role_changed',
      target: { type: 'user', id: member.id },
      details: { email: member.email, from: member.role, to: input.role },
    });
    return 'done';
  });
}

/** Removes a member from the account: the user goes, their sessions closed; never the last owner (`last_owner`). */
export async function removeMember(db: Db, actor: Actor & { kind: 'developer' }, input: { accountId: string; userId: string }): Promise<TeamChange> {
  return db.transaction(async (trx) => {
    await lockTeam(trx, input.accountId);
    if (!(await isOwner(trx, input.accountId, actor.userId))) return 'forbidden';
    const member = await trx('developer_users').where({ id: input.userId, account_id: input.accountId }).first('id', 'email', 'role');
    if (!member) return 'not_found';
    if (member.role === 'owner' && (await ownerCount(trx, input.accountId)) <= 1) return 'last_owner';
    await deleteUserSessions(trx, member.id);
    await trx('developer_users').where({ id: member.id }).delete();
    await recordAudit(trx, actor, {
      accountId: input.accountId,
      action: 'team.removed',
      target: { type: 'user', id: member.id },
      details: { email: member.email, role: member.role },
    });
    return 'done';
  });
}

/** A closed account's invitations erased (the invited addresses): within the closing's transaction. */
export async function eraseAccountInvitations(trx: Db, accountId: string): Promise<number> {
  return trx('developer_invitations').where({ account_id: accountId }).delete();
}
