import { composeOwnPdf } from '../../domain/mailings/own-pdf.js';
import type { StoredOwnPdf } from '../../domain/mailings/own-pdf-store.js';
import type { PostalAddress } from '../../domain/catalogue/catalogue.js';
import type { BrowserPool } from './browser.js';
import { addressSheetHtml } from './address-sheet-html.js';

/**
 * What the operator is handed for an own PDF: the customer's pages, copied unchanged, with the
 * address printed by the browser like every letter (fonts embedded): a sheet in front
 * (insert_blank_page), or the recipient's block alone drawn in the blank window zone of page 1
 * (first_page).
 */
export async function printOwnPdf(
  browsers: BrowserPool,
  stored: StoredOwnPdf,
  letter: { sender: PostalAddress; recipient: PostalAddress; options: { duplex?: boolean } },
): Promise<Uint8Array> {
  const placement = stored.addressPlacement;
  const address = await browsers.print(addressSheetHtml(placement === 'insert_blank_page' ? letter.sender : null, letter.recipient));
  try {
    return await composeOwnPdf(stored.pdf, address, { duplex: letter.options.duplex === true, placement });
  } catch (error) {
    throw new OwnPdfCompositionError(`the customer's PDF cannot be composed with its address: ${(error as Error).message}`);
  }
}

/** pdf-lib could not put the customer's pages after the address: the same file fails the same way every time. */
export class OwnPdfCompositionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OwnPdfCompositionError';
  }
}
