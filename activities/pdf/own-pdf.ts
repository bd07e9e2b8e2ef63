import { composeOwnPdf } from '../../domain/mailings/own-pdf.js';
import type { StoredOwnPdf } from '../../domain/mailings/own-pdf-store.js';
import type { PostalAddress } from '../../domain/catalogue/catalogue.js';
import type { BrowserPool } from './browser.js';
import { addressSheetHtml } from './address-sheet-html.js';

/**
 * What the operator is handed for an own PDF: our address sheet (printed by the browser like every
 * letter, with its embedded fonts) in front of the customer's pages, copied unchanged; with
 * addressPlacement first_page, the customer's file itself, byte for byte.
 */
export async function printOwnPdf(
  browsers: BrowserPool,
  stored: StoredOwnPdf,
  letter: { sender: PostalAddress; recipient: PostalAddress; options: { duplex?: boolean } },
): Promise<Uint8Array> {
  const sheet = stored.addressPlacement === 'insert_blank_page' ? await browsers.print(addressSheetHtml(letter.sender, letter.recipient)) : undefined;
  return composeOwnPdf(stored.pdf, sheet, letter.options.duplex === true);
}
