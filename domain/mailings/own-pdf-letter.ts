import { unprocessable } from '../errors.js';
import type { AddressedMailingRequest, MailingRequest } from './request.js';
import type { PreparedLetter } from './letter.js';
import { customerSheets, envelopeSheets, inspectOwnPdf, type AddressPlacement, type OwnPdfFacts } from './own-pdf.js';
import type { StoredOwnPdf } from './own-pdf-store.js';
import { ownPdfPrice, type MailingPrice } from './pricing.js';

/** The title of an own PDF sent without one. */
export const OWN_PDF_DEFAULT_TITLE = 'Document PDF';

/** An own-PDF letter once checked: what the mailing shows, what is stored, what it costs. */
export interface PreparedOwnPdf {
  letter: Omit<PreparedLetter, 'layout'>;
  stored: StoredOwnPdf;
  price: MailingPrice;
}

type OwnPdfLetter = { pdf: string; title?: string };
type OwnPdfRequest = AddressedMailingRequest & { letter: OwnPdfLetter };

export const isOwnPdfRequest = <R extends Pick<MailingRequest, 'letter'>>(request: R): request is R & { letter: OwnPdfLetter } => 'pdf' in request.letter;

/**
 * The rows of a batch share one letter object (domain/batches/request.ts): its PDF is decoded and
 * checked once for all of them, not once per row. Keyed weakly, so a request's PDF goes with it.
 */
const inspections = new WeakMap<OwnPdfLetter, Map<string, Promise<{ pdf: Buffer; facts: OwnPdfFacts }>>>();

function inspectedOnce(letter: OwnPdfLetter, duplex: boolean, placement: AddressPlacement): Promise<{ pdf: Buffer; facts: OwnPdfFacts }> {
  let byOptions = inspections.get(letter);
  if (!byOptions) inspections.set(letter, (byOptions = new Map()));
  const key = `${duplex}:${placement}`;
  let inspection = byOptions.get(key);
  if (!inspection) {
    const pdf = Buffer.from(letter.pdf, 'base64');
    inspection = inspectOwnPdf(pdf, { duplex, placement }).then((facts) => ({ pdf, facts }));
    byOptions.set(key, inspection);
  }
  return inspection;
}

/**
 * letter.pdf of POST /v1/mailings (and of its quote): decoded, checked (domain/mailings/own-pdf.ts),
 * priced by its sheets. Nothing is charged or stored here.
 */
export async function prepareOwnPdf(request: OwnPdfRequest): Promise<PreparedOwnPdf> {
  if (!request.recipient) throw unprocessable('A PDF letter needs a recipient address.', { field: 'recipient' });
  const placement: AddressPlacement = request.options.addressPlacement ?? 'insert_blank_page';
  const { duplex, color } = request.options;
  const { pdf, facts } = await inspectedOnce(request.letter, duplex, placement);
  const sheets = envelopeSheets(facts.pages, duplex, placement);
  const title = request.letter.title?.trim() || OWN_PDF_DEFAULT_TITLE;
  const recipient = request.recipient;
  return {
    letter: {
      title,
      recipient: {
        name: recipient.name.trim(),
        lines: recipient.lines.map((l) => l.trim()),
        postcode: recipient.postcode.trim(),
        city: recipient.city.trim(),
        country: recipient.country,
      },
      // The text of a PDF is not extracted: the PDF itself is the letter (its SHA-256 identifies it).
      document: { kind: 'pdf', title, text: '', sha256: facts.sha256, pages: facts.pages, sheets, addressPlacement: placement },
      warnings: [],
    },
    stored: { pdf, sha256: facts.sha256, pages: facts.pages, addressPlacement: placement },
    price: ownPdfPrice(request.mode, {
      pages: facts.pages,
      customerSheets: customerSheets(facts.pages, duplex),
      envelopeSheets: sheets,
      color,
      postage: request.options.postage,
    }),
  };
}
