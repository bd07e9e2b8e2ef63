import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { Unprocessable } from '../../domain/errors.js';
import { composeOwnPdf, envelopeSheets, firstPageOf, inspectOwnPdf, OWN_PDF_LIMITS, type AddressPlacement } from '../../domain/mailings/own-pdf.js';
import { flatMailingPrice, ownPdfPrice } from '../../domain/mailings/pricing.js';
import { priceOf } from '../../domain/billing/prices.js';
import {
  encryptedPdf,
  helveticaFormPdf,
  helveticaGraphicsStatePdf,
  helveticaSelectedPdf,
  javascriptPdf,
  launchPdf,
  malformedPdf,
  reportlabPdf,
  textPdf,
  US_LETTER,
} from '../support/own-pdfs.js';

const simplex = { duplex: false, placement: 'insert_blank_page' as AddressPlacement };

/** The refusal's details, or a failure when the PDF was accepted. */
async function refusal(pdf: Uint8Array, options = simplex): Promise<Record<string, unknown>> {
  try {
    await inspectOwnPdf(pdf, options);
  } catch (error) {
    expect(error).to.be.instanceOf(Unprocessable);
    expect((error as Unprocessable).code).to.equal('pdf_refused');
    return (error as Unprocessable).details as Record<string, unknown>;
  }
  throw new Error('the PDF was accepted');
}

describe('own PDFs: checks, sheets and price (domain/mailings/own-pdf.ts, pricing.ts)', () => {
  it('accepts an A4 PDF with an embedded font, and gives its pages and SHA-256', async () => {
    const pdf = await textPdf({ pages: 3 });
    const facts = await inspectOwnPdf(pdf, simplex);
    expect(facts).to.deep.equal({ pages: 3, sha256: createHash('sha256').update(pdf).digest('hex') });
  });

  it('refuses bytes that start like a PDF but do not parse, and a truncated PDF', async () => {
    expect(await refusal(malformedPdf())).to.include({ field: 'letter.pdf', reason: 'unreadable' });
    expect(await refusal((await textPdf()).slice(0, 3000))).to.include({ reason: 'unreadable' });
  });

  it('refuses an encrypted PDF', async () => {
    expect(await refusal(await encryptedPdf())).to.include({ reason: 'encrypted' });
  });

  it('refuses JavaScript (OpenAction) and a Launch action in an annotation', async () => {
    expect(await refusal(await javascriptPdf())).to.include({ reason: 'active_content', action: 'JavaScript' });
    expect(await refusal(await launchPdf())).to.include({ reason: 'active_content', action: 'Launch' });
  });

  it('refuses US letter pages, naming the page and its size; accepts A4 within ± 3 pt', async () => {
    const details = await refusal(await textPdf({ size: US_LETTER }));
    expect(details).to.include({ reason: 'page_size' });
    expect(details.pages).to.deep.equal([{ page: 1, widthPt: 612, heightPt: 792 }]);
    await inspectOwnPdf(await textPdf({ size: [597, 840] }), simplex);
    expect(await refusal(await textPdf({ size: [595.28, 846] }))).to.include({ reason: 'page_size' });
    expect(await refusal(await textPdf({ size: [841.89, 595.28] }))).to.include({ reason: 'page_size' });
  });

  it(`refuses more than ${OWN_PDF_LIMITS.maxSheets} sheets; duplex halves them`, async () => {
    const pages46 = await textPdf({ pages: 46 });
    expect(await refusal(pages46)).to.deep.include({ reason: 'too_many_sheets', pages: 46, sheets: 46, maxSheets: 45 });
    expect((await inspectOwnPdf(pages46, { ...simplex, duplex: true })).pages).to.equal(46);
    expect((await inspectOwnPdf(await textPdf({ pages: 30 }), simplex)).pages).to.equal(30);
  });

  it('refuses a font that is not embedded (a standard Helvetica)', async () => {
    const details = await refusal(await textPdf({ standardFont: true }));
    expect(details).to.deep.include({ reason: 'font_not_embedded', fonts: [{ page: 1, font: 'Helvetica' }] });
  });

  it('refuses a font only where it draws text: reportlab selecting Helvetica on every page passes, Helvetica drawing a line is named with its page', async () => {
    expect((await inspectOwnPdf(reportlabPdf('embedded'), simplex)).pages).to.equal(2);
    const details = await refusal(reportlabPdf('helvetica'));
    expect(details).to.deep.include({ reason: 'font_not_embedded', fonts: [{ page: 2, font: 'Helvetica' }] });
  });

  it('reads the form XObjects a page draws: a font drawing text in one is refused, a font only selected there passes', async () => {
    expect(await refusal(await helveticaFormPdf({ drawsText: true }))).to.deep.include({
      reason: 'font_not_embedded',
      fonts: [{ page: 2, font: 'Helvetica' }],
    });
    expect((await inspectOwnPdf(await helveticaFormPdf({ drawsText: false }), simplex)).pages).to.equal(2);
  });

  it("refuses a font set by an ExtGState's Font entry (gs) when it draws text", async () => {
    expect(await refusal(await helveticaGraphicsStatePdf())).to.deep.include({ reason: 'font_not_embedded', fonts: [{ page: 1, font: 'Helvetica' }] });
  });

  it(`reads no more than ${OWN_PDF_LIMITS.fontCheckContentBytes} bytes of decoded content for fonts: past it, a font reached is refused as if it drew text`, async () => {
    expect((await inspectOwnPdf(await helveticaSelectedPdf({ contentBytes: 100_000 }), simplex)).pages).to.equal(1);
    // Five megabytes of blanks, a few kilobytes once compressed: within the budget, the same file would pass.
    const inflating = await helveticaSelectedPdf({ contentBytes: 5_000_000 });
    expect(inflating.length).to.be.below(100_000);
    expect(await refusal(inflating)).to.deep.include({ reason: 'font_not_embedded', fonts: [{ page: 1, font: 'Helvetica' }] });
  });

  it('first_page: refuses text or a drawing in the window zone of page 1, accepts a page that leaves it blank', async () => {
    const firstPage = { duplex: false, placement: 'first_page' as AddressPlacement };
    const text = await refusal(await textPdf({ page1TextAt: { leftMm: 120, topMm: 60, text: 'Mairie de Lyon' } }), firstPage);
    expect(text).to.deep.include({ reason: 'window_not_blank', found: { kind: 'text', operator: 'Tj' } });
    const box = await refusal(await textPdf({ page1BoxAt: { leftMm: 150, topMm: 70, widthMm: 5, heightMm: 5 } }), firstPage);
    expect(box).to.deep.include({ reason: 'window_not_blank', found: { kind: 'drawing', operator: 'f' } });
    // Outside the zone (left of it, below it), and the default placement never looks at it.
    await inspectOwnPdf(await textPdf({ page1TextAt: { leftMm: 20, topMm: 120, text: 'Corps du courrier' } }), firstPage);
    await inspectOwnPdf(await textPdf({ page1BoxAt: { leftMm: 20, topMm: 60, widthMm: 60, heightMm: 20 } }), firstPage);
    await inspectOwnPdf(await textPdf({ page1TextAt: { leftMm: 120, topMm: 60, text: 'Mairie de Lyon' } }), simplex);
  });

  it('counts sheets: pages (simplex) or half of them (duplex), plus the address sheet unless first_page', () => {
    expect(envelopeSheets(5, false, 'insert_blank_page')).to.equal(6);
    expect(envelopeSheets(5, true, 'insert_blank_page')).to.equal(4);
    expect(envelopeSheets(6, true, 'first_page')).to.equal(3);
  });

  it("prices a PDF by its sheets and colour; catalogue and free letters keep their mode's flat price", () => {
    expect(flatMailingPrice('simple')).to.deep.include({ amountCents: 189, sheets: null, pages: null });
    // 6 pages in duplex: 3 sheets of the customer's, in colour, and the address sheet.
    const price = ownPdfPrice('simple', { pages: 6, customerSheets: 3, envelopeSheets: 4, color: true });
    expect(price.lines).to.deep.equal([
      { unit: 'mailing.simple', quantity: 1, amountCents: priceOf('mailing.simple') },
      { unit: 'mailing.sheet', quantity: 3, amountCents: 3 * priceOf('mailing.sheet') },
      { unit: 'mailing.sheet.color', quantity: 3, amountCents: 3 * priceOf('mailing.sheet.color') },
    ]);
    expect(price).to.deep.include({ amountCents: 189 + 3 * 12 + 3 * 25, vatCents: Math.round((189 + 36 + 75) * 0.2), sheets: 4, pages: 6 });
    // One page, address on it: the mode's price alone.
    expect(ownPdfPrice('ar', { pages: 1, customerSheets: 1, envelopeSheets: 1, color: false }).amountCents).to.equal(799);
  });

  it('composes the address sheet (and a blank back in duplex) in front of the pages; first_page draws the address in the window zone of page 1', async () => {
    const customer = await textPdf({ pages: 3 });
    const sheet = await textPdf({ page1TextAt: { leftMm: 120, topMm: 60, text: 'Adresse' } });
    const insert = (duplex: boolean) => ({ duplex, placement: 'insert_blank_page' as AddressPlacement });
    expect((await PDFDocument.load(await composeOwnPdf(customer, sheet, insert(false)))).getPageCount()).to.equal(4);
    expect((await PDFDocument.load(await composeOwnPdf(customer, sheet, insert(true)))).getPageCount()).to.equal(5);
    const firstPage = { duplex: false, placement: 'first_page' as AddressPlacement };
    const stamped = await composeOwnPdf(customer, sheet, firstPage);
    expect((await PDFDocument.load(stamped)).getPageCount()).to.equal(3);
    // The window zone of page 1 was blank; it now holds the address (drawn as a form XObject).
    await inspectOwnPdf(customer, firstPage);
    const found = await refusal(stamped, firstPage);
    expect(found).to.include({ reason: 'window_not_blank' });
    expect(found.found)
      .to.include({ kind: 'drawing' })
      .and.have.property('operator')
      .that.matches(/^Do \/EmbeddedPdfPage/);
    const preview = await PDFDocument.load(await firstPageOf(customer));
    expect(preview.getPageCount()).to.equal(1);
  });
});
