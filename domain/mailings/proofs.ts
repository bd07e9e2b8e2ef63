import type { Db } from '../../db/knex.js';
import type { ProofKind } from './states.js';

/**
 * The PDF of a mailing's proof, or undefined while it is not available: the download behind the
 * API's signed proof links (GET /v1/proof-files/{token}) and the developer space's proof links.
 * `accountId` restricts it to that account's mailings (the developer space's sessions).
 */
export async function proofPdf(db: Db, shipmentId: string, kind: ProofKind, accountId?: string): Promise<Buffer | undefined> {
  let q = db('shipment_proofs as p').where({ 'p.shipment_id': shipmentId, 'p.kind': kind });
  if (accountId !== undefined) q = q.join('shipments as s', 's.id', 'p.shipment_id').andWhere('s.account_id', accountId);
  const proof = await q.first('p.pdf');
  return proof?.pdf as Buffer | undefined;
}

/** Stores a printed proof once (a retried print keeps the first). */
export async function storeProof(db: Db, shipmentId: string, kind: ProofKind, pdf: Uint8Array): Promise<void> {
  await db('shipment_proofs')
    .insert({ shipment_id: shipmentId, kind, pdf: Buffer.from(pdf) })
    .onConflict(['shipment_id', 'kind'])
    .ignore();
}
