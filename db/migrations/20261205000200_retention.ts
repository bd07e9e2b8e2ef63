import type { Knex } from 'knex';

/**
 * Retention and erasure of a mailing's personal data (issue 53, domain/privacy/):
 * - `accounts.retention_days`: how long a final mailing keeps its personal data, within the bounds
 *   of domain/privacy/retention.ts (30 days to 10 years, default 5 years and a day);
 * - `shipments.erased_at`: when its personal data was erased (null: not erased);
 * - `shipment_proofs.sha256`: each proof's SHA-256, computed by the database as it is stored (and
 *   for the proofs already stored), so that it stays when the PDF is erased (`pdf` becomes null; a
 *   proof stored once its mailing is erased keeps only its hash);
 * - `pdf_documents.pdf` nullable: a customer's PDF is erased once no mailing that is not erased
 *   prints it; its row (its SHA-256) stays, as the mailings that printed it name it;
 * - the audit log may lose entries older than a year (AUDIT_LOG_RETENTION_DAYS), and nothing else.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE accounts ADD COLUMN retention_days integer NOT NULL DEFAULT 1827
      CONSTRAINT accounts_retention_days_bounds CHECK (retention_days BETWEEN 30 AND 3653);
    ALTER TABLE shipments ADD COLUMN erased_at timestamptz(3);

    ALTER TABLE shipment_proofs ADD COLUMN sha256 text;
    UPDATE shipment_proofs SET sha256 = encode(sha256(pdf), 'hex');
    ALTER TABLE shipment_proofs ALTER COLUMN sha256 SET NOT NULL;
    ALTER TABLE shipment_proofs ALTER COLUMN pdf DROP NOT NULL;
    CREATE FUNCTION shipment_proof_sha256() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.pdf IS NOT NULL THEN NEW.sha256 := encode(sha256(NEW.pdf), 'hex'); END IF;
      -- A proof printed after its mailing was erased keeps its hash, not its bytes. The lock waits
      -- for an erasure under way (it holds the row FOR UPDATE) and reads what it committed.
      IF EXISTS (SELECT 1 FROM shipments WHERE id = NEW.shipment_id AND erased_at IS NOT NULL FOR KEY SHARE) THEN NEW.pdf := NULL; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER shipment_proof_sha256 BEFORE INSERT ON shipment_proofs
      FOR EACH ROW EXECUTE FUNCTION shipment_proof_sha256();

    ALTER TABLE pdf_documents ALTER COLUMN pdf DROP NOT NULL;

    CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND OLD.created_at < now() - interval '365 days' THEN RETURN OLD; END IF;
      RAISE EXCEPTION 'audit_log is append-only';
    END $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only';
    END $$;
    DELETE FROM pdf_documents d WHERE d.pdf IS NULL AND NOT EXISTS (SELECT 1 FROM shipment_pdfs p WHERE p.sha256 = d.sha256);
    DROP TRIGGER IF EXISTS shipment_proof_sha256 ON shipment_proofs;
    DROP FUNCTION IF EXISTS shipment_proof_sha256();
    ALTER TABLE shipment_proofs DROP COLUMN sha256;
    ALTER TABLE shipments DROP COLUMN erased_at;
    ALTER TABLE accounts DROP COLUMN retention_days;
  `);
}
