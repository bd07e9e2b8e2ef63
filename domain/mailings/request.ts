import type { AddressPlacement } from './own-pdf.js';
import type { ConsumerConsent } from './electronic.js';
import type { Channel, Fallback, Mode } from './states.js';
import type { PostalOptionsRequest, ResolvedPostalOptions } from './postal-choices.js';
import type { PostageSpeed } from './postage.js';
import type { ReturnedMail } from './returned-mail.js';

/** `electronic` of POST /v1/mailings: who the recipient is for the law, the consent a consumer gave, and the fallback. */
export interface ElectronicRequest {
  recipientKind: 'professional' | 'consumer';
  consent?: ConsumerConsent;
  fallback: Fallback;
}

/** A postal address as POST /v1/mailings takes it (validated by api/schemas/mailings.ts). */
export interface MailingAddressInput {
  name: string;
  lines: string[];
  postcode: string;
  city: string;
  /** ISO 3166-1 alpha-2: FR (its overseas included), or a recipient abroad (./countries.ts); a sender is FR. */
  country: string;
}

/** A recipient named by its SIRET (domain/mailings/siret-recipient.ts gives its address). */
export interface SiretRecipientInput {
  siret: string;
  name?: string;
}

/** options.addressCheck: refuse an address the national base does not confirm, or post it with a warning. */
export const ADDRESS_CHECKS = ['strict', 'lenient'] as const;
export type AddressCheck = (typeof ADDRESS_CHECKS)[number];

/** The body of POST /v1/mailings (DESIGN.md §2), once validated. */
export interface MailingRequest {
  mode: Mode;
  letter:
    | { slug: string; provider?: string; fields: Record<string, string | number> }
    | { title: string; body: string }
    /** The customer's own PDF, base64 (domain/mailings/own-pdf.ts). */
    | { pdf: string; title?: string };
  sender: MailingAddressInput;
  recipient?: MailingAddressInput | SiretRecipientInput;
  recipientEmail?: string;
  reference?: string;
  options: {
    color: boolean;
    duplex: boolean;
    emailCopy: boolean;
    addressCheck?: AddressCheck;
    addressPlacement?: AddressPlacement;
    /** A simple letter's speed (./postage.ts); absent: fast. */
    postage?: PostageSpeed;
    /** A simple letter that cannot be delivered: back to the sender, or handled digitally (./returned-mail.ts); absent: sender. */
    returnedMail?: ReturnedMail;
  } & PostalOptionsRequest &
    /** Added by the checks (./postal-options.ts), never by a client: what the filing sends to the operator. */
    ResolvedPostalOptions;
  /** The day the letter is filed (YYYY-MM-DD, Europe/Paris); absent: at once (domain/mailings/send-date-check.ts). */
  sendAt?: string;
  /** paper (the default, and absent in requests built before it existed) or electronic (./electronic-request.ts). */
  channel?: Channel;
  /** Required with channel electronic, refused otherwise. */
  electronic?: ElectronicRequest;
}

/** A MailingRequest whose recipient, if any, is an address (a SIRET resolved by the directory). */
export type AddressedMailingRequest = Omit<MailingRequest, 'recipient'> & { recipient?: MailingAddressInput };
