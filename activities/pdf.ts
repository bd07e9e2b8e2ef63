import type { LetterDocument } from '../domain/letters/render.js';
import { type BrowserPool } from './pdf/browser.js';
import { letterHtml } from './pdf/letter-html.js';
import { FONT_STACKS } from './pdf/fonts.js';

const FOOTER = `<div style="width:100%;font-size:8pt;font-family:${FONT_STACKS.serif};text-align:center;color:#444"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`;

/** Pages of a PDF made by Chromium (each page object says /Type /Page). */
export function pdfPageCount(pdf: Uint8Array): number {
  return (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type\s*\/Page(?![s\w])/g) ?? []
  ).length;
}

/** Lays a letter out on A4 and prints it; letters longer than a page get page numbers. */
export async function printLetter(pool: BrowserPool, document: LetterDocument): Promise<Uint8Array> {
  const html = letterHtml(document);
  const single = await pool.print(html);
  return pdfPageCount(single) > 1 ? pool.print(html, { footerTemplate: FOOTER }) : single;
}

export function pdfActivities(pool: BrowserPool) {
  return {
    /** POST /v1/letters/{slug}/pdf. */
    renderLetterPdf: (document: LetterDocument): Promise<Uint8Array> => printLetter(pool, document),
  };
}
