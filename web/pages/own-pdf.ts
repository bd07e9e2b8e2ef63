import { html, type Html } from '../html.js';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { BASE } from './layout.js';
import { count } from './format.js';

/** The address of page 1 of an own-PDF mailing, alone (its preview). */
export const previewUrl = (id: string): string => `${BASE}/envois/${id}/apercu`;

/** Under an own-PDF mailing's title: a preview of page 1, its SHA-256 and the sheets posted. Nothing for other letters. */
export function ownPdfDetails(s: Mailing): Html | '' {
  const document = s.document;
  if (document?.kind !== 'pdf') return '';
  return html`<div class="own-pdf">
    <small
      >PDF fourni · ${document.pages === undefined ? '—' : count(document.pages)} page(s) ·
      <span class="sheets">${document.sheets === undefined ? '—' : count(document.sheets)}</span> feuille(s) sous pli</small
    ><br />
    <small>SHA-256 <code class="sha256">${document.sha256 ?? ''}</code></small
    ><br />
    <iframe class="pdf-preview" src="${previewUrl(s.id)}" title="Page 1 de ${s.title}" width="210" height="297" loading="lazy"></iframe>
  </div>`;
}

/**
 * Under a catalogue or free-form mailing's details: the letter it printed, rendered again from its
 * layout (the same route as an own PDF's page 1). Nothing once its personal data is erased.
 */
export function printedLetterPreview(s: Mailing): Html | '' {
  if (!s.document || s.document.kind === 'pdf' || s.erasedAt) return '';
  return html`<div class="letter-preview">
    <iframe class="pdf-preview" src="${previewUrl(s.id)}" title="Aperçu du courrier imprimé : ${s.title}" width="210" height="297" loading="lazy"></iframe>
  </div>`;
}
