import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfFacts {
  pages: number;
  /** Width and height of each page, in points. */
  pageSizes: [number, number][];
  /** The text of every page, pages separated by a form feed. */
  text: string;
  /** Each font the pages draw with: its PDF name (e.g. AAAAAA+Tinos-Regular) and whether the file embeds it. */
  fonts: { name: string; embedded: boolean }[];
}

/** Reads a PDF with Mozilla's PDF.js (a registry package: no system PDF tools needed). */
export async function readPdf(bytes: Uint8Array): Promise<PdfFacts> {
  const document = await getDocument({ data: new Uint8Array(bytes), fontExtraProperties: true, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const facts: PdfFacts = { pages: document.numPages, pageSizes: [], text: '', fonts: [] };
    const texts: string[] = [];
    const fonts = new Map<string, boolean>();
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const [x0, y0, x1, y1] = page.view;
      facts.pageSizes.push([x1 - x0, y1 - y0]);
      const content = await page.getTextContent();
      texts.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      const operators = await page.getOperatorList();
      operators.fnArray.forEach((fn, i) => {
        if (fn !== OPS.setFont) return;
        const font = page.commonObjs.get(operators.argsArray[i][0]) as { name: string; missingFile: boolean };
        fonts.set(font.name, !font.missingFile);
      });
    }
    facts.text = texts.join('\f');
    facts.fonts = [...fonts].map(([name, embedded]) => ({ name, embedded }));
    return facts;
  } finally {
    await document.destroy();
  }
}
