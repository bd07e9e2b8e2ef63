import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFString,
  StandardFonts,
  beginText,
  concatTransformationMatrix,
  drawObject,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  fill,
  setFontAndSize,
  showText,
} from 'pdf-lib';
import { projectRoot } from '../../lib/paths.js';

/**
 * PDFs made in the tests with pdf-lib, the way a customer's software would: A4 pages of text in a
 * really embedded TrueType font (Liberation Sans, shipped with PDF.js: a FontFile2 stream), plus the
 * faults the API must refuse.
 */

export const A4: [number, number] = [595.28, 841.89];
export const US_LETTER: [number, number] = [612, 792];
const MM = 72 / 25.4;

const require = createRequire(import.meta.url);
const liberationSans = (): Buffer => readFileSync(require.resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf'));

export interface PdfOptions {
  pages?: number;
  size?: [number, number];
  /** Text drawn at this place of page 1 (mm from the left and from the top), besides each page's heading. */
  page1TextAt?: { leftMm: number; topMm: number; text: string };
  /** A filled rectangle on page 1 (mm from the left and from the top, width and height in mm). */
  page1BoxAt?: { leftMm: number; topMm: number; widthMm: number; heightMm: number };
  /** Helvetica, one of the 14 standard fonts, left out of the file (as pdf-lib's StandardFonts are). */
  standardFont?: boolean;
}

/** A literal string operand `( … )` (pdf-lib types showText's operand as a hex string; both are valid operands). */
const literal = (text: string): PDFHexString => PDFString.of(text) as unknown as PDFHexString;

/** Embeds Liberation Sans as a TrueType font with WinAnsi encoding (its file in a FontFile2 stream). */
function embedTrueType(doc: PDFDocument) {
  const ttf = liberationSans();
  const file = doc.context.register(doc.context.flateStream(ttf, { Length1: ttf.length }));
  const descriptor = doc.context.register(
    doc.context.obj({
      Type: 'FontDescriptor',
      FontName: 'LiberationSans',
      Flags: 32,
      FontBBox: [-203, -303, 1050, 910],
      ItalicAngle: 0,
      Ascent: 905,
      Descent: -212,
      CapHeight: 729,
      StemV: 80,
      FontFile2: file,
    }),
  );
  return doc.context.register(
    doc.context.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: 'LiberationSans',
      FirstChar: 32,
      LastChar: 126,
      Widths: Array.from({ length: 95 }, () => 556),
      Encoding: 'WinAnsiEncoding',
      FontDescriptor: descriptor,
    }),
  );
}

/** A text PDF: each page says its number at the top left (outside the address window) and at the bottom. */
export async function textPdf(options: PdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = options.standardFont
    ? doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: StandardFonts.Helvetica, Encoding: 'WinAnsiEncoding' }))
    : embedTrueType(doc);
  const [width, height] = options.size ?? A4;
  const at = (leftMm: number, topMm: number) => moveText(leftMm * MM, height - topMm * MM);
  for (let n = 1; n <= (options.pages ?? 1); n++) {
    const page = doc.addPage([width, height]);
    page.node.setFontDictionary(PDFName.of('F1'), font);
    page.pushOperators(beginText(), setFontAndSize('F1', 12), at(20, 20), showText(literal(`Page ${n} du document client`)), endText());
    page.pushOperators(beginText(), setFontAndSize('F1', 10), at(20, 280), showText(literal(`Fin de la page ${n}`)), endText());
    if (n === 1 && options.page1TextAt) {
      const { leftMm, topMm, text } = options.page1TextAt;
      page.pushOperators(beginText(), setFontAndSize('F1', 11), at(leftMm, topMm), showText(literal(text)), endText());
    }
    if (n === 1 && options.page1BoxAt) {
      const { leftMm, topMm, widthMm, heightMm } = options.page1BoxAt;
      page.pushOperators(
        pushGraphicsState(),
        rectangle(leftMm * MM, height - (topMm + heightMm) * MM, widthMm * MM, heightMm * MM),
        fill(),
        popGraphicsState(),
      );
    }
  }
  return doc.save();
}

/**
 * A two-page text PDF whose page 2 draws a form XObject holding Helvetica (not embedded) in its own
 * resources: the form draws a line in it, or (`drawsText: false`) only selects it.
 */
export async function helveticaFormPdf(options: { drawsText: boolean }): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf({ pages: 2 }));
  const helvetica = doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: StandardFonts.Helvetica, Encoding: 'WinAnsiEncoding' });
  const content = options.drawsText ? 'BT /H 10 Tf 0 5 Td (Signature) Tj ET' : 'BT /H 10 Tf ET 0 0 100 20 re S';
  const form = doc.context.register(
    doc.context.stream(content, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 20], Resources: { Font: { H: helvetica } } }),
  );
  const page = doc.getPage(1);
  page.node.setXObject(PDFName.of('Fm1'), form);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(1, 0, 0, 1, 60, 300), drawObject('Fm1'), popGraphicsState());
  return doc.save();
}

/** A one-page text PDF that draws a line in Helvetica (not embedded) set by an ExtGState's Font entry (`/GS1 gs`), not by Tf. */
export async function helveticaGraphicsStatePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf());
  const helvetica = doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: StandardFonts.Helvetica, Encoding: 'WinAnsiEncoding' }));
  const page = doc.getPage(0);
  page.node.setExtGState(PDFName.of('GS1'), doc.context.obj({ Type: 'ExtGState', Font: [helvetica, 12] }));
  page.node.addContentStream(doc.context.register(doc.context.flateStream('q /GS1 gs BT 60 400 Td (Helvetica) Tj ET Q')));
  return doc.save();
}

/**
 * A one-page text PDF that also selects Helvetica (not embedded) without drawing in it, as
 * reportlab does, its content stream padded with blanks to `contentBytes` once decoded.
 */
export async function helveticaSelectedPdf(options: { contentBytes: number }): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf());
  const page = doc.getPage(0);
  page.node.setFontDictionary(
    PDFName.of('H'),
    doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: StandardFonts.Helvetica, Encoding: 'WinAnsiEncoding' })),
  );
  const selected = 'BT /H 12 Tf ET\n';
  const padding = ' '.repeat(Math.max(options.contentBytes - selected.length, 0));
  page.node.addContentStream(doc.context.register(doc.context.flateStream(selected + padding)));
  return doc.save();
}

/**
 * A PDF made by reportlab (test/fixtures/own-pdfs/, made by its reportlab_pdfs.py): `embedded`
 * draws all its text in an embedded TrueType font though reportlab selects Helvetica on every
 * page; `helvetica` draws one line of page 2 in Helvetica, not embedded.
 */
export const reportlabPdf = (name: 'embedded' | 'helvetica'): Uint8Array =>
  readFileSync(join(projectRoot, 'test', 'fixtures', 'own-pdfs', `reportlab-${name}.pdf`));

/** The same PDF with an Encrypt dictionary in its trailer (standard security handler, RC4 40 bits): what every reader takes as encrypted. */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf());
  doc.context.trailerInfo.Encrypt = doc.context.register(
    doc.context.obj({ Filter: 'Standard', V: 1, R: 2, O: PDFHexString.of('28bf4e5e4e758a41'.repeat(4)), U: PDFHexString.of('0'.repeat(64)), P: -44 }),
  );
  return doc.save({ useObjectStreams: false });
}

/** A PDF that runs JavaScript when opened (the catalog's OpenAction). */
export async function javascriptPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf());
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of("app.alert('hello')") }));
  return doc.save();
}

/** A PDF whose link annotation launches a program. */
export async function launchPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf());
  const launch = { S: 'Launch', F: PDFString.of('calc.exe') };
  const link = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [50, 50, 200, 80], A: launch }));
  doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([link]));
  return doc.save();
}

/** Not a PDF, though it starts like one. */
export const malformedPdf = (): Uint8Array =>
  Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\nthis is not a PDF, only its first bytes\n', 'latin1');

/** A PDF as letter.pdf carries it. */
export const base64 = (pdf: Uint8Array): string => Buffer.from(pdf).toString('base64');
