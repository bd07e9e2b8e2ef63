import type { LetterDocument, Segment } from '../../domain/letters/render.js';

import { escapeHtml as escape } from '../../lib/html.js';
import { FONT_STACKS } from './fonts.js';

function html(segments: Segment[]): string {
  return segments
    .map((s) => (s.type === 'text' ? escape(s.text) : s.value === null ? `<span class="missing">[${escape(s.label)}]</span>` : escape(s.value)))
    .join('');
}

/** Paragraphs are separated by a blank line; single line breaks are kept inside a paragraph. */
function paragraphs(segments: Segment[]): string {
  return html(segments)
    .split(/\n\s*\n/)
    .map((p) => `<p>${p.trim()}</p>`)
    .join('\n');
}

/**
 * A French business letter on A4: sender block top left; recipient block where a DL/C5 window
 * envelope shows it (110 mm from the left edge, 50 mm from the top: the letter folded in three);
 * place and date; subject; body; signature.
 */
export function letterHtml(document: LetterDocument): string {
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>${escape(document.title)}</title>
<style>
  @page { size: A4; margin: 20mm 20mm 22mm 20mm; }
  html, body { margin: 0; padding: 0; }
  body { font-family: ${FONT_STACKS.serif}; font-size: 11pt; line-height: 1.45; color: #000; }
  .head { position: relative; height: 82mm; }
  .sender { position: absolute; top: 0; left: 0; width: 85mm; white-space: pre-line; }
  .recipient { position: absolute; top: 30mm; left: 90mm; width: 80mm; height: 38mm; white-space: pre-line; overflow: hidden; }
  .place { position: absolute; top: 72mm; right: 0; }
  .subject { font-weight: bold; margin: 0 0 7mm; }
  .references { margin: -5mm 0 7mm; white-space: pre-line; font-size: 10pt; }
  .body p { margin: 0 0 3.5mm; text-align: justify; white-space: pre-line; orphans: 3; widows: 3; }
  .signature { margin: 12mm 0 0 90mm; white-space: pre-line; }
  .missing { background: #fde2e2; }
</style></head>
<body>
  <div class="head">
    <div class="sender">${html(document.sender)}</div>
    <div class="recipient">${html(document.recipient)}</div>
    <div class="place">${html(document.placeAndDate)}</div>
  </div>
  <div class="subject">Objet : ${html(document.subject)}</div>
  ${document.references.length ? `<div class="references">${html(document.references)}</div>` : ''}
  <div class="body">${paragraphs(document.body)}</div>
  <div class="signature">${html(document.signature)}</div>
</body></html>`;
}
