import type { Knex } from 'knex';

/**
 * An account's postal settings (issue 55, parts 3 and 5): its return envelope at the operator
 * (Maileva's reference id and type, both or neither) and how long the operator archives its letters,
 * per Maileva API (mail v2: 0, 1, 3, 6 or 10 years; registered mail v2: 3, 6 or 10). Null: not
 * configured (no return envelope; the operator's default archive, 0 and 3 years, in the mode's price).
 * The envelope format the operator chose for a letter (Maileva's output-only `envelope_type`:
 * DL, C4, C6), kept beside its postage (`shipments.operator_envelope_type`, null until told).
 * The bundled simulator records the operator's options each letter was filed with
 * (`operator_filings.options`, null for letters filed before). Nullable columns without a default:
 * no table rewrite.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE accounts
      ADD COLUMN return_envelope_type text CONSTRAINT accounts_return_envelope_type_check CHECK (return_envelope_type IN ('FRANKING_ENVELOPE', 'PREPAID_ENVELOPE')),
      ADD COLUMN return_envelope_id uuid,
      ADD COLUMN archive_years_simple smallint CONSTRAINT accounts_archive_years_simple_check CHECK (archive_years_simple IN (0, 1, 3, 6, 10)),
      ADD COLUMN archive_years_registered smallint CONSTRAINT accounts_archive_years_registered_check CHECK (archive_years_registered IN (3, 6, 10)),
      ADD CONSTRAINT accounts_return_envelope_whole CHECK ((return_envelope_type IS NULL) = (return_envelope_id IS NULL));
    ALTER TABLE operator_filings ADD COLUMN options jsonb;
    ALTER TABLE shipments ADD COLUMN operator_envelope_type text;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE shipments DROP COLUMN operator_envelope_type;
    ALTER TABLE operator_filings DROP COLUMN options;
    ALTER TABLE accounts
      DROP CONSTRAINT accounts_return_envelope_whole,
      DROP COLUMN archive_years_registered,
      DROP COLUMN archive_years_simple,
      DROP COLUMN return_envelope_id,
      DROP COLUMN return_envelope_type;
  `);
}
