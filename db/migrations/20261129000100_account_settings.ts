import type { Knex } from 'knex';

/**
 * Account settings of the developer space (issue 25 item 9): email change links (a token that
 * carries the new address), TOTP two-factor sign-in (the secret sealed with SECRET_KEY, the last
 * time step used, so a code cannot be replayed), hashed single-use recovery codes, and the sign-in
 * step between the right password and the right code (a session that is not signed in yet).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE developer_tokens DROP CONSTRAINT IF EXISTS developer_tokens_purpose_check;
    ALTER TABLE developer_tokens ADD CONSTRAINT developer_tokens_purpose_check CHECK (purpose IN ('confirm_email', 'reset_password', 'change_email'));
    -- The address a change_email link confirms (lower-cased).
    ALTER TABLE developer_tokens ADD COLUMN new_email text;

    CREATE TABLE developer_second_factors (
      user_id uuid PRIMARY KEY REFERENCES developer_users(id) ON DELETE CASCADE,
      -- AES-GCM under SECRET_KEY: the code generator's seed must not leak with a backup.
      secret_sealed text NOT NULL,
      -- Null while waiting for the first code that proves the user's app has the secret.
      enabled_at timestamptz,
      -- The last 30 s step whose code was accepted: a code of that step or an earlier one is refused.
      last_step bigint,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE developer_recovery_codes (
      user_id uuid NOT NULL REFERENCES developer_users(id) ON DELETE CASCADE,
      -- SHA-256 of a random code (60 bits): no slow hash needed for a random secret.
      code_hash bytea NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash)
    );

    -- Between the right password and the right code: the user this session may become, until when.
    ALTER TABLE developer_sessions ADD COLUMN pending_user_id uuid REFERENCES developer_users(id) ON DELETE CASCADE;
    ALTER TABLE developer_sessions ADD COLUMN pending_until timestamptz;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE developer_sessions DROP COLUMN pending_until, DROP COLUMN pending_user_id;
    DROP TABLE developer_recovery_codes;
    DROP TABLE developer_second_factors;
    DELETE FROM developer_tokens WHERE purpose = 'change_email';
    ALTER TABLE developer_tokens DROP COLUMN new_email;
    ALTER TABLE developer_tokens DROP CONSTRAINT developer_tokens_purpose_check;
    ALTER TABLE developer_tokens ADD CONSTRAINT developer_tokens_purpose_check CHECK (purpose IN ('confirm_email', 'reset_password'));
  `);
}
