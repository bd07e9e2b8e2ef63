import type { AddressPlacement } from './own-pdf.js';
import type { Mode } from './states.js';

/** A postal address as POST /v1/mailings takes it (validated by api/schemas/mailings.ts). */
export interface MailingAddressInput {
  name: string;
  lines: string[];
  postcode: string;
  city: string;
  country: 'FR';
}

/** The body of POST /v1/mailings (DESIGN.md §2), once validated. */
export interface MailingRequest {
  mode: Mode;
  letter:
    | { slug: string; provider?: string; fields: Record<string, string | number> }
    | { title: string; body: string }
    /** The customer's own PDF, base64 (domain/mailings/own-pdf.ts). */
    | { pdf: string; title?: string };
  sender: MailingAddressInput;
  recipient?: MailingAddressInput;
  recipientEmail?: string;
  reference?: string;
  options: { color: boolean; duplex: boolean; emailCopy: boolean; addressPlacement?: AddressPlacement };
  /** The day the letter is filed (YYYY-MM-DD, Europe/Paris); absent: at once (domain/mailings/send-date.ts). */
  sendAt?: string;
}
