import type { Db } from '../../db/knex.js';
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
  const proof = await q.whereNotNull('p.pdf').first('p.pdf');
  return proof?.pdf as Buffer | undefined;
}

/** The CTE that stores a proof once (a retried print keeps the first), its parameters named by the statement that adds it. */
export function storeProofCte(mailingId: string, kind: string, pdf: string): string {
  return `stored_proof AS (
    INSERT INTO shipment_proofs (shipment_id, kind, pdf) VALUES (${mailingId}, ${kind}, ${pdf}) ON CONFLICT (shipment_id, kind) DO NOTHING
  )`;
}

/** A proof's SHA-256 (of its PDF as stored), and whether its PDF was erased; undefined when there is no such proof. */
export async function proofHash(db: Db, mailingId: string, kind: ProofKind): Promise<{ sha256: string; erased: boolean } | undefined> {
  const proof = (await db('shipment_proofs').where({ shipment_id: mailingId, kind }).first('sha256', db.raw('pdf IS NULL AS erased'))) as
    { sha256: string; erased: boolean } | undefined;
  return proof && { sha256: proof.sha256, erased: proof.erased };
}

/** The SHA-256 of a proof whose PDF was erased with its mailing's personal data (domain/privacy/erasure.ts); undefined otherwise. */
export async function erasedProofHash(db: Db, mailingId: string, kind: ProofKind): Promise<string | undefined> {
  const proof = (await db('shipment_proofs').where({ shipment_id: mailingId, kind }).whereNull('pdf').first('sha256')) as { sha256: string } | undefined;
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
