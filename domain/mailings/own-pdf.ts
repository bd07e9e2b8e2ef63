import { createHash } from 'node:crypto';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFFlateStream, PDFName, PDFRawStream, PDFStream, type PDFObject } from 'pdf-lib';
import { Unprocessable, unprocessable } from '../errors.js';
import { contentInWindow, WINDOW_ZONE_MM } from './pdf-window.js';
import type { XObjectBounds } from '../../lib/pdf/painted-marks.js';
import { fontsDrawingText, type TextFontResources } from '../../lib/pdf/text-fonts.js';

/**
 * The customer's own PDF (letter.pdf): every check that decides whether it can be printed and
 * posted as it is, before anything is charged. pdf-lib parses it (a real parse of the objects and
 * cross-references, not only the `%PDF-` header). Each refusal is a 422 whose `details.reason` is
 * one of OWN_PDF_REFUSALS, with `details.field` "letter.pdf" and what was found.
 */

/** Where the address goes: a sheet of ours in front (default), or the window zone of the customer's page 1. */
export type AddressPlacement = 'insert_blank_page' | 'first_page';
export const ADDRESS_PLACEMENTS: readonly AddressPlacement[] = ['insert_blank_page', 'first_page'];

export const OWN_PDF_LIMITS = {
  /**
   * Sheets of the customer's pages in one envelope: Maileva's published maximum ("6 à 45 feuilles
   * (hors feuille porte-adresse) : enveloppe C4"); our address sheet comes on top.
   */
  maxSheets: 45,
  /** A4 portrait is 595.28 × 841.89 pt; a page may differ by this much in each dimension (rounding of exporters). */
  sizeTolerancePt: 3,
  /** What fits in SPEC.md's 1 MB body once base64 encoded (4/3) with the rest of the request. */
  approxMaxBytes: 750_000,
  /**
   * What a file's decoded content may weigh when its operators are read for fonts (pages and forms
   * together): a letter's text is a few kilobytes a page, and reading takes about a quarter of a
   * second a megabyte; a compressed stream can inflate a thousandfold, and is decoded no further.
   */
  fontCheckContentBytes: 4_000_000,
} as const;

export const A4_PT = { width: 595.28, height: 841.89 } as const;

/** The stable names of the refusals (`details.reason`). */
export const OWN_PDF_REFUSALS = [
  'unreadable',
  'encrypted',
  'no_pages',
  'active_content',
  'page_size',
  'too_many_sheets',
  'font_not_embedded',
  'window_not_blank',
] as const;
export type OwnPdfRefusal = (typeof OWN_PDF_REFUSALS)[number];

const refuse = (reason: OwnPdfRefusal, message: string, found: Record<string, unknown> = {}): Unprocessable =>
  unprocessable(message, { field: 'letter.pdf', reason, ...found }, 'pdf_refused');

/** What the checks found out about an accepted PDF. */
export interface OwnPdfFacts {
  pages: number;
  sha256: string;
}

/** Sheets of paper the customer's pages take (duplex: two pages a sheet), without our address sheet. */
export function customerSheets(pages: number, duplex: boolean): number {
  return duplex ? Math.ceil(pages / 2) : pages;
}

/** Sheets in the envelope: the customer's, plus our address sheet unless the address is on page 1. */
export function envelopeSheets(pages: number, duplex: boolean, placement: AddressPlacement): number {
  return customerSheets(pages, duplex) + (placement === 'insert_blank_page' ? 1 : 0);
}

/** Actions that run code or reach outside the document. */
const ACTIVE_ACTIONS = new Set(['JavaScript', 'Launch', 'SubmitForm', 'ImportData', 'RichMediaExecute']);

/** The first action found anywhere in the file (OpenAction, AA, annotations, outlines, name trees), read object by object. */
function activeContent(doc: PDFDocument): { action: string; object: string } | undefined {
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  if (names?.has(PDFName.of('JavaScript'))) return { action: 'JavaScript', object: 'Names/JavaScript' };
  const visit = (value: PDFObject | undefined, depth: number): string | undefined => {
    if (depth > 32) return undefined;
    if (value instanceof PDFDict || value instanceof PDFStream) {
      const dict = value instanceof PDFStream ? value.dict : value;
      const kind = dict.get(PDFName.of('S'));
      if (kind instanceof PDFName && ACTIVE_ACTIONS.has(kind.decodeText())) return kind.decodeText();
      if (dict.has(PDFName.of('JS'))) return 'JavaScript';
      for (const [, entry] of dict.entries()) {
        const found = visit(entry, depth + 1);
        if (found) return found;
      }
    } else if (value instanceof PDFArray) {
      for (const entry of value.asArray()) {
        const found = visit(entry, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  };
  // Every indirect object is enumerated, so references need not be followed.
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    const action = visit(object, 0);
    if (action) return { action, object: `${ref.objectNumber} ${ref.generationNumber} R` };
  }
  return undefined;
}

/** A font's own file, or the descendant's for a composite (Type0) font. Type3 fonts are drawn by the document itself. */
function fontEmbedded(doc: PDFDocument, font: PDFDict): boolean {
  const subtype = font.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText();
  if (subtype === 'Type3') return true;
  if (subtype === 'Type0') {
    const descendant = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookupMaybe(0, PDFDict);
    return descendant ? fontEmbedded(doc, descendant) : false;
  }
  const descriptor = font.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
  return !!descriptor && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.has(PDFName.of(key)));
}

/** The fonts not embedded that a page reaches: its resources' (Font, ExtGState), and those of the form XObjects they hold. */
function fontsReached(doc: PDFDocument, page: PDFDict | undefined, embedded: (font: PDFDict) => boolean): PDFDict[] {
  const reached = new Set<PDFDict>();
  const seen = new Set<PDFDict>();
  const walk = (resources: PDFDict | undefined): void => {
    if (!resources || seen.has(resources)) return;
    seen.add(resources);
    for (const [, entry] of resources.lookupMaybe(PDFName.of('Font'), PDFDict)?.entries() ?? []) {
      const font = doc.context.lookup(entry);
      if (font instanceof PDFDict && !embedded(font)) reached.add(font);
    }
    // An ExtGState may set the font itself (its Font entry, [font size]).
    for (const [, entry] of resources.lookupMaybe(PDFName.of('ExtGState'), PDFDict)?.entries() ?? []) {
      const state = doc.context.lookup(entry);
      const font = state instanceof PDFDict ? state.lookupMaybe(PDFName.of('Font'), PDFArray)?.lookup(0) : undefined;
      if (font instanceof PDFDict && !embedded(font)) reached.add(font);
    }
    for (const [, entry] of resources.lookupMaybe(PDFName.of('XObject'), PDFDict)?.entries() ?? []) {
      const xobject = doc.context.lookup(entry);
      if (xobject instanceof PDFStream && xobject.dict.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText() === 'Form')
        walk(xobject.dict.lookupMaybe(PDFName.of('Resources'), PDFDict));
    }
  };
  walk(page);
  return [...reached];
}

/** A stream's names read through pdf-lib for lib/pdf/text-fonts.ts; a form without resources uses its parent's (PDF 1.1). */
function textFontResources(doc: PDFDocument, resources: PDFDict | undefined, budget: { bytesLeft: number }): TextFontResources<PDFDict> {
  const entry = (category: string, name: string): PDFObject | undefined =>
    doc.context.lookup(resources?.lookupMaybe(PDFName.of(category), PDFDict)?.get(PDFName.of(name)));
  return {
    font: (name) => {
      const font = entry('Font', name);
      return font instanceof PDFDict ? font : undefined;
    },
    stateFont: (name) => {
      // An ExtGState's Font is [font size].
      const state = entry('ExtGState', name);
      const font = state instanceof PDFDict ? state.lookupMaybe(PDFName.of('Font'), PDFArray)?.lookup(0) : undefined;
      return font instanceof PDFDict ? font : undefined;
    },
    form: (name) => {
      const form = entry('XObject', name);
      if (!(form instanceof PDFStream) || form.dict.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText() !== 'Form') return undefined;
      return {
        key: form,
        content: () => streamContent(form, budget),
        resources: textFontResources(doc, form.dict.lookupMaybe(PDFName.of('Resources'), PDFDict) ?? resources, budget),
      };
    },
  };
}

/**
 * The fonts not embedded that draw text, each named once at the first page it draws on. A font a
 * page only selects draws nothing and passes (reportlab selects Helvetica on every page). The
 * operators are read only on pages that reach a font not embedded and not yet named: most files
 * embed all theirs and no content stream is decoded for them. A page whose content cannot be decoded, or is past
 * OWN_PDF_LIMITS.fontCheckContentBytes, is judged by the fonts it reaches, as if each drew text.
 */
function fontsNotEmbedded(doc: PDFDocument): { page: number; font: string }[] {
  const known = new Map<PDFDict, boolean>();
  const embedded = (font: PDFDict): boolean => known.get(font) ?? known.set(font, fontEmbedded(doc, font)).get(font)!;
  const missing: { page: number; font: string }[] = [];
  const named = new Set<PDFDict>();
  const budget = { bytesLeft: OWN_PDF_LIMITS.fontCheckContentBytes };
  doc.getPages().forEach((page, i) => {
    const resources = page.node.Resources();
    // Only a font not yet named can add to the refusal.
    const reached = fontsReached(doc, resources, embedded).filter((font) => !named.has(font));
    if (!reached.length) return;
    let drawing: PDFDict[];
    try {
      drawing = [...fontsDrawingText(pageContent(doc, i, budget), textFontResources(doc, resources, budget))].filter((font) => !embedded(font));
    } catch {
      drawing = reached;
    }
    for (const font of drawing) {
      if (named.has(font)) continue;
      named.add(font);
      missing.push({ page: i + 1, font: font.lookupMaybe(PDFName.of('BaseFont'), PDFName)?.decodeText() ?? '(unnamed)' });
    }
  });
  return missing;
}

/** The bounds of page 1's form XObjects by name (images are drawn in the unit square, `Do` needs nothing else). */
function formBounds(doc: PDFDocument): XObjectBounds {
  const xobjects = doc.getPage(0).node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  return (name) => {
    const xobject = xobjects?.lookup(PDFName.of(name));
    if (!(xobject instanceof PDFStream) || xobject.dict.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText() !== 'Form') return undefined;
    const numbers = (key: string): number[] | undefined =>
      xobject.dict
        .lookupMaybe(PDFName.of(key), PDFArray)
        ?.asArray()
        .map((n) => Number(doc.context.lookup(n)?.toString()));
    const bbox = numbers('BBox') ?? [0, 0, 0, 0];
    const matrix = numbers('Matrix') ?? [1, 0, 0, 1, 0, 0];
    return { bbox: bbox as [number, number, number, number], matrix: matrix as [number, number, number, number, number, number] };
  };
}

/** More decoded content than the budget left (OWN_PDF_LIMITS.fontCheckContentBytes). */
class ContentOverBudget extends Error {}

/** The decoded content of a page (its streams joined), for reading its operators; with a budget, no more than it leaves. */
export function pageContent(doc: PDFDocument, index: number, budget?: { bytesLeft: number }): Uint8Array {
  const contents = doc.getPage(index).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  const parts: Uint8Array[] = [];
  for (const stream of streams) if (stream instanceof PDFStream) parts.push(streamContent(stream, budget), new Uint8Array([0x0a]));
  return Buffer.concat(parts);
}

/** A stream's decoded content (a page's, a form's); with a budget, taken from it, and ContentOverBudget past it. */
function streamContent(stream: PDFStream, budget?: { bytesLeft: number }): Uint8Array {
  let content: Uint8Array;
  if (stream instanceof PDFRawStream && stream.dict.has(PDFName.of('Filter'))) {
    // pdf-lib decodes Flate, LZW, ASCIIHex, ASCII85 and RunLength, block by block as it is read:
    // with a budget, read in chunks and stopped past it rather than inflated whole.
    const decoder = decodePDFRawStream(stream);
    if (!budget) return decoder.decode();
    const chunks: Uint8Array[] = [];
    let length = 0;
    const read = (): Uint8Array => decoder.getBytes(65_536) as Uint8Array;
    for (let chunk = read(); chunk.length; chunk = read()) {
      chunks.push(chunk);
      length += chunk.length;
      if (length > budget.bytesLeft) throw new ContentOverBudget();
    }
    content = Buffer.concat(chunks);
  } else {
    // A stream without filters is its own content; one pdf-lib made itself (a document built in memory) keeps it unencoded.
    content = stream instanceof PDFFlateStream ? stream.getUnencodedContents() : stream.getContents();
  }
  if (budget) {
    if (content.length > budget.bytesLeft) throw new ContentOverBudget();
    budget.bytesLeft -= content.length;
  }
  return content;
}

/**
 * Checks the customer's PDF in order (each a refusal naming what is wrong): it parses, is not
 * encrypted, has pages, runs nothing, has A4 portrait pages, fits the envelope, embeds its fonts
 * and, with the address on page 1, leaves the window zone blank.
 */
export async function inspectOwnPdf(bytes: Uint8Array, options: { duplex: boolean; placement: AddressPlacement }): Promise<OwnPdfFacts> {
  try {
    return await inspect(bytes, options);
  } catch (error) {
    if (error instanceof Unprocessable) throw error;
    // pdf-lib met a structure it cannot read (a broken page tree, a missing object) past the parse.
    throw refuse('unreadable', `letter.pdf cannot be read: ${(error as Error).message.slice(0, 200)}`);
  }
}

async function inspect(bytes: Uint8Array, options: { duplex: boolean; placement: AddressPlacement }): Promise<OwnPdfFacts> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, throwOnInvalidObject: true, updateMetadata: false });
  } catch (error) {
    throw refuse('unreadable', `letter.pdf is not a readable PDF: ${(error as Error).message.slice(0, 200)}`);
  }
  if (doc.isEncrypted) throw refuse('encrypted', 'letter.pdf is encrypted (password or permissions): send it without encryption so it can be printed.');
  let pageCount: number;
  try {
    pageCount = doc.getPageCount();
  } catch (error) {
    throw refuse('unreadable', `letter.pdf has an unreadable page tree: ${(error as Error).message.slice(0, 200)}`);
  }
  if (pageCount === 0) throw refuse('no_pages', 'letter.pdf has no page.');
  // Filing copies the pages after our address sheet: a file whose pages cannot be copied is refused now, not at filing.
  await (await PDFDocument.create()).copyPages(doc, doc.getPageIndices());
  const active = activeContent(doc);
  if (active)
    throw refuse(
      'active_content',
      `letter.pdf carries a ${active.action} action (${active.object}): remove scripts and actions, a printed letter runs nothing.`,
      active,
    );
  const tolerance = OWN_PDF_LIMITS.sizeTolerancePt;
  const wrongSizes = doc
    .getPages()
    .map((page, i) => {
      const { width, height } = page.getSize();
      const turned = page.getRotation().angle % 180 !== 0;
      const [w, h] = turned ? [height, width] : [width, height];
      return { page: i + 1, widthPt: Math.round(w * 100) / 100, heightPt: Math.round(h * 100) / 100 };
    })
    .filter((p) => Math.abs(p.widthPt - A4_PT.width) > tolerance || Math.abs(p.heightPt - A4_PT.height) > tolerance);
  if (wrongSizes.length)
    throw refuse(
      'page_size',
      `letter.pdf pages must be A4 portrait (595.28 × 841.89 pt, ± ${tolerance} pt): page ${wrongSizes[0]!.page} is ${wrongSizes[0]!.widthPt} × ${wrongSizes[0]!.heightPt} pt.`,
      { pages: wrongSizes.slice(0, 20), expected: { widthPt: A4_PT.width, heightPt: A4_PT.height, tolerancePt: tolerance } },
    );
  const sheets = customerSheets(pageCount, options.duplex);
  if (sheets > OWN_PDF_LIMITS.maxSheets)
    throw refuse(
      'too_many_sheets',
      `letter.pdf takes ${sheets} sheets (${pageCount} pages${options.duplex ? ', duplex' : ''}); at most ${OWN_PDF_LIMITS.maxSheets} fit an envelope.`,
      {
        pages: pageCount,
        sheets,
        maxSheets: OWN_PDF_LIMITS.maxSheets,
      },
    );
  const missingFonts = fontsNotEmbedded(doc);
  if (missingFonts.length)
    throw refuse(
      'font_not_embedded',
      `letter.pdf draws text in fonts it does not embed (${missingFonts[0]!.font}, page ${missingFonts[0]!.page}): embed every font that draws text.`,
      {
        fonts: missingFonts.slice(0, 20),
      },
    );
  if (options.placement === 'first_page') {
    const drawn = contentInWindow(pageContent(doc, 0), doc.getPage(0).getSize().height, formBounds(doc));
    if (drawn)
      throw refuse(
        'window_not_blank',
        `addressPlacement first_page needs the address window of page 1 blank; it holds ${drawn.kind} (${WINDOW_ZONE_MM.description}).`,
        { window: WINDOW_ZONE_MM, found: drawn },
      );
  }
  return { pages: pageCount, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * What is filed, the customer's pages copied unchanged: with insert_blank_page, our address sheet
 * in front (and a blank back in duplex, so the customer's page 1 starts a sheet); with first_page,
 * `address` (a page printing only the recipient's block) drawn over page 1, whose window zone was
 * checked blank: the page's own content streams stay as they are, one is added after them.
 */
export async function composeOwnPdf(customer: Uint8Array, address: Uint8Array, options: { duplex: boolean; placement: AddressPlacement }): Promise<Uint8Array> {
  const source = await PDFDocument.load(customer, { updateMetadata: false });
  if (options.placement === 'first_page') {
    const composed = await PDFDocument.create({ updateMetadata: false });
    for (const page of await composed.copyPages(source, source.getPageIndices())) composed.addPage(page);
    // Only the window zone of the printed address is taken (the form's bounding box): whatever the
    // browser paints elsewhere (a page background) never covers the customer's page.
    const printed = (await PDFDocument.load(address, { updateMetadata: false })).getPage(0);
    const mm = 72 / 25.4;
    const height = printed.getSize().height;
    const zone = {
      left: WINDOW_ZONE_MM.left * mm,
      right: WINDOW_ZONE_MM.right * mm,
      top: height - WINDOW_ZONE_MM.top * mm,
      bottom: height - WINDOW_ZONE_MM.bottom * mm,
    };
    const stamp = await composed.embedPage(printed, zone);
    const first = composed.getPage(0);
    first.drawPage(stamp, { x: zone.left, y: first.getSize().height - WINDOW_ZONE_MM.bottom * mm });
    return composed.save({ useObjectStreams: false });
  }
  const composed = await PDFDocument.load(address, { updateMetadata: false });
  while (composed.getPageCount() > 1) composed.removePage(composed.getPageCount() - 1);
  if (options.duplex) composed.addPage([A4_PT.width, A4_PT.height]);
  for (const page of await composed.copyPages(source, source.getPageIndices())) composed.addPage(page);
  return composed.save({ useObjectStreams: false });
}

/** Page 1 of a PDF alone (the developer space's preview). */
export async function firstPageOf(pdf: Uint8Array): Promise<Uint8Array> {
  const source = await PDFDocument.load(pdf, { updateMetadata: false });
  const preview = await PDFDocument.create();
  const [page] = await preview.copyPages(source, [0]);
  preview.addPage(page!);
  return preview.save();
}
