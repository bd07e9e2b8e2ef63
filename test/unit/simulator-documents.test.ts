import { expect } from 'chai';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFRawStream, type PDFPage } from 'pdf-lib';
import { SIMULATOR_PRODUCER, simulatorDocument, type SimulatorDocument } from '../../activities/operator/simulator-documents.js';

/** The strings a page shows, in order: its content streams' hex strings (WinAnsi) drawn with Tj. */
function shownText(page: PDFPage): string[] {
  const contents = page.node.Contents();
  const streams = contents && 'asArray' in contents ? contents.asArray() : [contents];
  const text: string[] = [];
  for (const ref of streams) {
    const stream = page.doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) throw new Error('unexpected content stream');
    const source = Buffer.from(inflateSync(stream.contents)).toString('latin1');
    for (const [, hex] of source.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) text.push(Buffer.from(hex!, 'hex').toString('latin1'));
  }
  return text;
}

const deposit: SimulatorDocument = {
  kind: 'deposit_proof',
  mode: 'ar',
  trackingNumber: '1A00123456789',
  senderLines: ['ACME SAS', '12 rue de la Paix', '75002 PARIS'],
  recipientLines: ['Mme Zoë Łukasz', '3 avenue Foch', '69006 LYON'],
  at: new Date('2026-11-27T17:37:00Z'),
  pages: 2,
};

describe("the simulated operator's documents", () => {
  it('a deposit proof: one A4 page naming the letter, its deposit and both addresses, marked as simulated', async () => {
    const pdf = await PDFDocument.load(await simulatorDocument(deposit), { updateMetadata: false });
    expect(pdf.getTitle()).to.equal('Preuve de dépôt 1A00123456789');
    expect(pdf.getProducer()).to.equal(SIMULATOR_PRODUCER);
    expect(pdf.getPageCount()).to.equal(1);
    const [page] = pdf.getPages();
    expect(page!.getSize()).to.deep.equal({ width: 595.28, height: 841.89 });
    expect(shownText(page!)).to.deep.equal([
      'Opérateur postal simulé (document de test, sans valeur légale)',
      'Preuve de dépôt',
      'Lettre recommandée avec accusé de réception',
      'N° de suivi : 1A00123456789',
      'Déposée le 27 novembre 2026 à 18:37 (heure de Paris)',
      '2 pages',
      'Destinataire',
      // Ł is not in the standard font's WinAnsi set: shown as "?", the document still made.
      'Mme Zoë ?ukasz',
      '3 avenue Foch',
      '69006 LYON',
      'Expéditeur',
      'ACME SAS',
      '12 rue de la Paix',
      '75002 PARIS',
    ]);
  });

  it('an acknowledgment of receipt: signed at its own time, without a page count', async () => {
    const { pages: _pages, ...signed } = deposit;
    const pdf = await PDFDocument.load(await simulatorDocument({ ...signed, kind: 'acknowledgment', at: new Date('2026-12-01T08:05:00Z') }));
    expect(pdf.getTitle()).to.equal('Avis de réception 1A00123456789');
    const text = shownText(pdf.getPages()[0]!);
    expect(text.slice(1, 5)).to.deep.equal([
      'Avis de réception',
      'Lettre recommandée avec accusé de réception',
      'N° de suivi : 1A00123456789',
      'Distribuée et signée le 1 décembre 2026 à 09:05 (heure de Paris)',
    ]);
    expect(text).not.to.include('2 pages');
  });
});
