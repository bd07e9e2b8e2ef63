import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { SimulatedOperator } from '../../activities/operator/simulator.js';
import { SIMULATOR_PRODUCER } from '../../activities/operator/simulator-documents.js';
import type { Mode, ProofKind } from '../../domain/mailings/states.js';
import { recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';

/** A one-page letter as the simulator is handed it. */
async function letterPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([595.28, 841.89]);
  return pdf.save();
}

describe("the simulated operator's documents (its own proofs, as Maileva's)", () => {
  const stepDelayMs = 60_000;
  let operator: SimulatedOperator;
  before(() => {
    operator = new SimulatedOperator(stack().db, { stepDelayMs, failFirstFilings: 0 });
  });

  async function filed(mode: Mode): Promise<{ shipmentId: string; trackingNumber: string }> {
    const mailingId = randomUUID();
    const trackingNumber = `1A${Date.now()}`;
    await operator.file({
      shipmentId: mailingId,
      mode,
      trackingNumber,
      pdf: await letterPdf(),
      title: 'Lettre',
      sender: { ...sender, country: 'FR' },
      recipient: { ...recipient, country: 'FR' },
      options: {},
    });
    return { shipmentId: mailingId, trackingNumber };
  }

  async function titleOf(mailingId: string, mode: Mode, kind: ProofKind): Promise<string | undefined> {
    const bytes = await operator.proof(mailingId, mode, kind);
    if (!bytes) return undefined;
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getProducer()).to.equal(SIMULATOR_PRODUCER);
    return pdf.getTitle();
  }

  it('has a deposit proof for registered and AR letters, an acknowledgment for AR letters only, nothing for simple letters or returns', async () => {
    const found: Record<string, (string | undefined)[]> = {};
    for (const mode of ['simple', 'registered', 'ar'] as const) {
      const { shipmentId: mailingId, trackingNumber } = await filed(mode);
      found[mode] = (await Promise.all((['filing', 'delivery', 'return'] as const).map((kind) => titleOf(mailingId, mode, kind)))).map((title) =>
        title?.replace(trackingNumber, '<tracking>'),
      );
    }
    expect(found).to.deep.equal({
      simple: [undefined, undefined, undefined],
      registered: ['Preuve de dépôt <tracking>', undefined, undefined],
      ar: ['Preuve de dépôt <tracking>', 'Avis de réception <tracking>', undefined],
    });
  });

  it('dates the acknowledgment when its path reaches delivered, by its own clock; the same document when asked again', async () => {
    const { shipmentId: mailingId } = await filed('ar');
    const { filed_at: filedAt } = await stack().db('operator_filings').where({ shipment_id: mailingId }).first('filed_at');
    const signed = await PDFDocument.load((await operator.proof(mailingId, 'ar', 'delivery'))!, { updateMetadata: false });
    // paid → printed at filing, then posted, in_transit, delivered: three steps later.
    expect(signed.getCreationDate()!.getTime()).to.equal(Math.floor((filedAt.getTime() + 3 * stepDelayMs) / 1000) * 1000);
    const again = await PDFDocument.load((await operator.proof(mailingId, 'ar', 'delivery'))!, { updateMetadata: false });
    expect(again.getCreationDate()).to.deep.equal(signed.getCreationDate());
  });

  it('has none for a letter it took before it kept what its documents show, nor for one it never took', async () => {
    const shipmentId = randomUUID();
    await stack().db('operator_filings').insert({ shipment_id: shipmentId, attempts: 1, pages: 1, filed_at: new Date() });
    expect(await operator.proof(shipmentId, 'ar', 'filing')).to.equal(undefined);
    expect(await operator.proof(randomUUID(), 'ar', 'filing')).to.equal(undefined);
  });
});
