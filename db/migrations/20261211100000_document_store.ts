import type { Knex } from 'knex';

/**
 * Documents in an object store (DOCUMENT_STORE=s3, domain/documents/): a proof's or own PDF's row
 * names its object by `object_key` (the SHA-256 of its bytes) and `object_size`, its `pdf` null.
 * Rows written before keep their bytes, served as they are until `admin documents migrate` moves
 * them. `document_deletions`: the objects an erasure released, deleted once no row names them
 * (domain/documents/deletions.ts), so an erasure never waits on the store.
 *
 * A proof printed after its mailing was erased keeps its hash, neither bytes nor object: the
 * trigger queues the object it names for deletion.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE shipment_proofs ADD COLUMN object_key text, ADD COLUMN object_size integer;
    ALTER TABLE pdf_documents ADD COLUMN object_key text, ADD COLUMN object_size integer;
    CREATE TABLE document_deletions (object_key text PRIMARY KEY, queued_at timestamptz(3) NOT NULL DEFAULT now());

    CREATE OR REPLACE FUNCTION shipment_proof_sha256() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.pdf IS NOT NULL THEN NEW.sha256 := encode(sha256(NEW.pdf), 'hex');
      ELSIF NEW.object_key IS NOT NULL THEN NEW.sha256 := NEW.object_key; END IF;
      -- A proof printed after its mailing was erased keeps its hash, not its bytes. The lock waits
      -- for an erasure under way (it holds the row FOR UPDATE) and reads what it committed.
      IF EXISTS (SELECT 1 FROM shipments WHERE id = NEW.shipment_id AND erased_at IS NOT NULL FOR KEY SHARE) THEN
        NEW.pdf := NULL;
        IF NEW.object_key IS NOT NULL THEN
          INSERT INTO document_deletions (object_key) VALUES (NEW.object_key) ON CONFLICT DO NOTHING;
          NEW.object_key := NULL;
          NEW.object_size := NULL;
        END IF;
      END IF;
      RETURN NEW;
    END $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION shipment_proof_sha256() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.pdf IS NOT NULL THEN NEW.sha256 := encode(sha256(NEW.pdf), 'hex'); END IF;
      IF EXISTS (SELECT 1 FROM shipments WHERE id = NEW.shipment_id AND erased_at IS NOT NULL FOR KEY SHARE) THEN NEW.pdf := NULL; END IF;
      RETURN NEW;
    END $$;
    DROP TABLE document_deletions;
    ALTER TABLE pdf_documents DROP COLUMN object_key, DROP COLUMN object_size;
    ALTER TABLE shipment_proofs DROP COLUMN object_key, DROP COLUMN object_size;
  `);
}
