import type { Db } from '../../db/knex.js';
import type { ProofKind } from './states.js';

/**
 * The PDF of a mailing's proof, or undefined while it is not available: the download behind the
 * API's signed proof links (GET /v1/proof-files/{token}) and the developer space's proof links.
 * `accountId` restricts it to that account's mailings (the developer space's sessions).
 */
export async function proofPdf(db: Db, mailingId: string, kind: ProofKind, accountId?: string): Promise<Buffer | undefined> {
  let q = db('shipment_proofs as p').where({ 'p.shipment_id': mailingId, 'p.kind': kind });
  if (accountId !== undefined) q = q.join('shipments as s', 's.id', 'p.shipment_id').andWhere('s.account_id', accountId);
  const proof = await q.first('p.pdf');
  return proof?.pdf as Buffer | undefined;
}

/** The CTE that stores a proof once (a retried print keeps the first), its parameters named by the statement that adds it. */
export function storeProofCte(mailingId: string, kind: string, pdf: string): string {
  return `stored_proof AS (
    INSERT INTO shipment_proofs (shipment_id, kind, pdf) VALUES (${mailingId}, ${kind}, ${pdf}) ON CONFLICT (shipment_id, kind) DO NOTHING
  )`;
}
