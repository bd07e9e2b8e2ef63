import type { Knex } from 'knex';

/**
 * Team members (issue 25 item 9): an account has several users, each with a role (existing users
 * are the owners of their accounts), and single-use invitations (7 days) emailed to an address
 * that becomes a member of the inviting account when the link is accepted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE developer_users DROP CONSTRAINT developer_users_account_id_unique;
    CREATE INDEX developer_users_account ON developer_users (account_id);
    ALTER TABLE developer_users ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'developer', 'billing'));

    CREATE TABLE developer_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id),
      -- Lower-cased: the address the link was sent to, fixed at sign-up.
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'developer', 'billing')),
      -- SHA-256 of the emailed token, as developer_tokens: the token itself is never stored.
      token_hash bytea NOT NULL UNIQUE,
      invited_by uuid REFERENCES developer_users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      -- Accepted, or voided by a newer invitation of the same address: used once.
      used_at timestamptz
    );
    CREATE INDEX developer_invitations_account ON developer_invitations (account_id, created_at DESC);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE developer_invitations;
    DELETE FROM developer_users WHERE role <> 'owner';
    ALTER TABLE developer_users DROP COLUMN role;
    DROP INDEX developer_users_account;
    ALTER TABLE developer_users ADD CONSTRAINT developer_users_account_id_unique UNIQUE (account_id);
  `);
}
