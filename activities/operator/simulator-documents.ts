/**
 * The simulated operator's own documents: the deposit proof of a registered letter and the signed
 * acknowledgment of receipt of an AR letter, as Maileva hands its own (activities/operator/maileva.ts).
 * A plain page in a standard font, made in about a millisecond: an operator's document, not ours
 * (ours are printed by the browser, activities/pdf/proof-html.ts).
 */
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { MODE_LABELS, type Mode } from '../../domain/mailings/states.js';

export type SimulatorDocumentKind = 'deposit_proof' | 'acknowledgment';

export interface SimulatorDocument {
  kind: SimulatorDocumentKind;
  mode: Mode;
  trackingNumber: string;
  senderLines: string[];
  recipientLines: string[];
  /** When the letter was deposited, or when its acknowledgment was signed. */
  at: Date;
  /** Sheets of the letter deposited (the deposit proof only). */
  pages?: number;
}

/** Each document's title, also the PDF's Title: what a reader of the file sees first. */
export const SIMULATOR_DOCUMENT_TITLES: Record<SimulatorDocumentKind, string> = {
  deposit_proof: 'Preuve de dépôt',
  acknowledgment: 'Avis de réception',
};

/** The PDF's Producer: tells these documents apart from ours. */
export const SIMULATOR_PRODUCER = 'svc-postal, opérateur postal simulé';

const parisMinute = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' });

export async function simulatorDocument(doc: SimulatorDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const title = SIMULATOR_DOCUMENT_TITLES[doc.kind];
  pdf.setTitle(`${title} ${doc.trackingNumber}`);
  pdf.setProducer(SIMULATOR_PRODUCER);
  pdf.setCreationDate(doc.at);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595.28, 841.89]); // A4 in points
  let y = 780;
  const line = (text: string, font: PDFFont = regular, size = 11, gap = 16): void => {
    page.drawText(encodable(font, text), { x: 56, y, size, font });
    y -= gap;
  };
  line('Opérateur postal simulé (document de test, sans valeur légale)', regular, 9, 28);
  line(title, bold, 18, 24);
  line(MODE_LABELS[doc.mode], regular, 11, 16);
  line(`N° de suivi : ${doc.trackingNumber}`, bold, 11, 28);
  const at = parisMinute.format(doc.at);
  line(doc.kind === 'deposit_proof' ? `Déposée le ${at} (heure de Paris)` : `Distribuée et signée le ${at} (heure de Paris)`, regular, 11, 16);
  if (doc.pages !== undefined) line(`${doc.pages} page${doc.pages > 1 ? 's' : ''}`, regular, 11, 16);
  y -= 12;
  for (const [heading, lines] of [
    ['Destinataire', doc.recipientLines],
    ['Expéditeur', doc.senderLines],
  ] as const) {
    line(heading, bold, 11, 16);
    for (const text of lines) line(text);
    y -= 12;
  }
  // Object streams would deflate a second time for a page of text (about a quarter of its cost).
  return pdf.save({ useObjectStreams: false });
}

const characterSets = new WeakMap<PDFFont, Set<number>>();

/** A standard font encodes WinAnsi only: any other character (a name in another script) shows as "?". */
function encodable(font: PDFFont, text: string): string {
  let known = characterSets.get(font);
  if (!known) characterSets.set(font, (known = new Set(font.getCharacterSet())));
  return [...text].map((c) => (known.has(c.codePointAt(0)!) ? c : '?')).join('');
}
