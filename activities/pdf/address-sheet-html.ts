import type { PostalAddress } from '../../domain/catalogue/catalogue.js';
import { addressLines } from '../../domain/mailings/mailing.js';
import { escapeHtml as escape } from '../../lib/html.js';
import { FONT_STACKS } from './fonts.js';

/**
 * The lines printed in the window: name, lines, then postcode and city with the city in upper case
 * (postal norm); abroad, in the destination's order, then the country line.
 */
export function addressSheetLines(address: PostalAddress): string[] {
  return addressLines({ ...address, city: address.city.toUpperCase() });
}

/**
 * The address sheet put in front of a customer's PDF: the sender top left and the recipient where
 * a DL/C5 window envelope shows it, at the very place our own letters print it
 * (activities/pdf/letter-html.ts: 110 mm from the left, 50 mm from the top). Nothing else. Without
 * a sender, the recipient's block alone: what is drawn in the blank window zone of a customer's
 * page 1 (addressPlacement first_page).
 */
export function addressSheetHtml(sender: PostalAddress | null, recipient: PostalAddress): string {
  const block = (address: PostalAddress): string => addressSheetLines(address).map(escape).join('<br>');
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Feuille porte-adresse</title>
<style>
  @page { size: A4; margin: 20mm; }
  html, body { margin: 0; padding: 0; }
  html, body { background: transparent; }
  body { font-family: ${FONT_STACKS.sans}; font-size: 11pt; line-height: 1.35; color: #000; }
  .head { position: relative; height: 82mm; }
  .sender { position: absolute; top: 0; left: 0; width: 85mm; }
  .recipient { position: absolute; top: 30mm; left: 90mm; width: 80mm; height: 38mm; overflow: hidden; }
</style></head>
<body><div class="head">${sender ? `<div class="sender">${block(sender)}</div>` : ''}<div class="recipient">${block(recipient)}</div></div></body></html>`;
}
