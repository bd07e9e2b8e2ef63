import type { Knex } from 'knex';

/**
 * The AI features (POST /v1/ai/fill, /v1/ai/letters, /v1/ai/tools/{slug}) send what a live key
 * gives them to the AI provider (LLM_BASE_URL): from now on only for an account that turned them
 * on, in the developer space (its owner) or with `admin account ai-enable`. `ai_enabled_at` is
 * when, `ai_enabled_by` who (the developer's email, the operator, or this migration); both null:
 * off, and a live key's AI call is refused with 403 ai_not_enabled.
 *
 * Accounts that exist when this runs keep AI on: /v1 promises no breaking change, and an
 * integration already calling these endpoints with a live key must not start failing on the day
 * of a deploy. They are marked as enabled by this migration (the developer space shows it, and
 * their owner can turn AI off). Accounts created afterwards start with AI off.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE accounts ADD COLUMN ai_enabled_at timestamptz, ADD COLUMN ai_enabled_by text;
    ALTER TABLE accounts ADD CONSTRAINT accounts_ai_enabled_by_with_at CHECK ((ai_enabled_at IS NULL) = (ai_enabled_by IS NULL));
    UPDATE accounts SET ai_enabled_at = now(), ai_enabled_by = 'migration 20261205000100 (account created before AI consent)';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE accounts DROP CONSTRAINT accounts_ai_enabled_by_with_at, DROP COLUMN ai_enabled_by, DROP COLUMN ai_enabled_at');
}
