import type { Db, Tx } from '../../db/knex.js';
import { documentBytes, documentStore, sha256Hex, type StoredDocument } from '../documents/store.js';
import { NotFound } from '../errors.js';
import { PROOF_LABELS, type ProofKind } from './states.js';

/**
 * The PDF of a mailing's proof, or undefined while it is not available: the download behind the
 * API's signed proof links (GET /v1/proof-files/{token}) and the developer space's proof links.
 * `accountId` restricts it to that account's mailings (the developer space's sessions).
 */
export async function proofPdf(db: Db, mailingId: string, kind: ProofKind, accountId?: string): Promise<Buffer | undefined> {
  let q = db('shipment_proofs as p').where({ 'p.shipment_id': mailingId, 'p.kind': kind });
  if (accountId !== undefined) q = q.join('shipments as s', 's.id', 'p.shipment_id').andWhere('s.account_id', accountId);
  const proof = (await q.where((w) => w.whereNotNull('p.pdf').orWhereNotNull('p.object_key')).first('p.pdf', 'p.object_key')) as
    { pdf: Buffer | null; object_key: string | null } | undefined;
  // In the document store (DOCUMENT_STORE=s3), its row names the object: DocumentStoreUnavailable while the store is down.
  return proof && documentBytes(proof);
}

/**
 * The CTE that stores a proof once (a retried print keeps the first), its parameters named by the
 * statement that adds it: the PDF's bytes, or the object that holds them and its size.
 */
export function storeProofCte(mailingId: string, kind: string, pdf: string, objectKey: string, objectSize: string): string {
  return `stored_proof AS (
    INSERT INTO shipment_proofs (shipment_id, kind, pdf, object_key, object_size) VALUES (${mailingId}, ${kind}, ${pdf}, ${objectKey}, ${objectSize}::integer)
    ON CONFLICT (shipment_id, kind) DO NOTHING
  )`;
}

/**
 * A proof's PDF made storable: its bytes for the row, or (DOCUMENT_STORE=s3) put in the store
 * first, before the row that names it. A proof already stored (a retried activity) keeps its own:
 * nothing is put then. DocumentStoreUnavailable while the store is down (the activity is retried).
 */
export async function storableProof(db: Db, mailingId: string, kind: ProofKind, pdf: Uint8Array): Promise<StoredDocument> {
  const store = documentStore();
  if (store.kind !== 'postgres' && (await db('shipment_proofs').where({ shipment_id: mailingId, kind }).first('kind'))) {
    // The statement's row conflicts and is not written; its columns must still be complete (NOT NULL is checked first).
    const sha256 = sha256Hex(pdf);
    return { sha256, pdf: null, objectKey: sha256, objectSize: pdf.byteLength };
  }
  return store.put(pdf);
}

/** Whether a proof names the object `key` (domain/documents/deletions.ts). */
export async function proofNamesObject(trx: Tx, key: string): Promise<boolean> {
  return Boolean(await trx('shipment_proofs').where({ object_key: key }).first('kind'));
}

/** A page of proofs whose bytes are still in their rows (`admin documents migrate`). */
export async function proofsInRows(db: Db, limit: number, accountId?: string): Promise<{ shipmentId: string; kind: ProofKind }[]> {
  const query = db('shipment_proofs').whereNotNull('pdf').orderBy(['shipment_id', 'kind']).limit(limit).select('shipment_id', 'kind');
  if (accountId) query.whereIn('shipment_id', db('shipments').where({ account_id: accountId }).select('id'));
  const rows = (await query) as {
    shipment_id: string;
    kind: ProofKind;
  }[];
  return rows.map((row) => ({ shipmentId: row.shipment_id, kind: row.kind }));
}

/**
 * Moves one proof's bytes out of its row into the store: the object is put first, then the row
 * names it and drops its bytes, under the row's lock (a proof erased or moved meanwhile is left as it is).
 */
export async function moveProofToStore(db: Db, mailingId: string, kind: ProofKind): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = (await trx('shipment_proofs').where({ shipment_id: mailingId, kind }).whereNotNull('pdf').forUpdate().first('pdf')) as
      { pdf: Buffer } | undefined;
    if (!row) return false;
    const stored = await documentStore().put(row.pdf);
    await trx('shipment_proofs').where({ shipment_id: mailingId, kind }).update({ pdf: null, object_key: stored.objectKey, object_size: stored.objectSize });
    return true;
  });
}

/** A proof's SHA-256 (of its PDF as stored), and whether its PDF was erased; undefined when there is no such proof. */
export async function proofHash(db: Db, mailingId: string, kind: ProofKind): Promise<{ sha256: string; erased: boolean } | undefined> {
  const proof = (await db('shipment_proofs')
    .where({ shipment_id: mailingId, kind })
    .first('sha256', db.raw('pdf IS NULL AND object_key IS NULL AS erased'))) as { sha256: string; erased: boolean } | undefined;
  return proof && { sha256: proof.sha256, erased: proof.erased };
}

/** The SHA-256 of a proof whose PDF was erased with its mailing's personal data (domain/privacy/erasure.ts); undefined otherwise. */
export async function erasedProofHash(db: Db, mailingId: string, kind: ProofKind): Promise<string | undefined> {
  const proof = (await db('shipment_proofs').where({ shipment_id: mailingId, kind }).whereNull('pdf').whereNull('object_key').first('sha256')) as
    { sha256: string } | undefined;
  return proof?.sha256;
}

/** NotFound `proof_erased`: the proof's PDF was erased; `details` gives its kind and SHA-256, to check a copy kept elsewhere. */
export function proofErased(mailingId: string, kind: ProofKind, sha256: string): NotFound {
  return new NotFound(
    `The ${PROOF_LABELS[kind].toLowerCase()} of mailing ${mailingId} was erased with its personal data; its SHA-256 is kept to check a copy you kept.`,
    { kind, sha256 },
    'proof_erased',
  );
}
