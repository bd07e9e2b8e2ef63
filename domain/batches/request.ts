import type { MailingAddressInput, MailingRequest, SiretRecipientInput } from '../mailings/request.js';
import { unprocessable } from '../errors.js';
import type { ConsumerConsent } from '../mailings/electronic.js';

/** One row of a batch: its recipient, the values of the letter's fields, its own reference. */
export interface BatchRow {
  recipient: MailingAddressInput | SiretRecipientInput;
  fields?: Record<string, string | number>;
  reference?: string;
  /** With channel electronic (or options.emailCopy): the recipient's email. */
  recipientEmail?: string;
  /** With channel electronic and a consumer recipient: its prior consent (over the batch's). */
  consent?: ConsumerConsent;
}

/** The body of POST /v1/mailing-batches, once validated (api/schemas/batches.ts). */
export interface BatchRequest {
  mode: MailingRequest['mode'];
  letter: MailingRequest['letter'];
  sender: MailingRequest['sender'];
  options: MailingRequest['options'];
  sendAt?: string;
  /** paper (the default) or electronic, for every row (domain/mailings/electronic-request.ts checks each). */
  channel?: MailingRequest['channel'];
  electronic?: MailingRequest['electronic'];
  rows: BatchRow[];
  /** Checks every row and answers the report and the price; nothing is created or charged. */
  dryRun?: boolean;
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]{1,64})\s*\}\}/g;

/** A free-form letter's `{{variable}}` filled from the row's fields (422 field_missing names the first one absent). */
function fill(text: string, fields: Record<string, string | number>, index: number): string {
  return text.replace(VARIABLE, (_, name: string) => {
    const value = fields[name];
    if (value === undefined)
      throw unprocessable(`The letter uses {{${name}}}, and row ${index} has no field ${name}.`, { field: `rows[${index}].fields.${name}` }, 'field_missing');
    return String(value);
  });
}

/**
 * The mailing request of one row, as POST /v1/mailings would take it: a catalogue letter's fields
 * completed by the row's (the row's win), a free-form letter's variables filled, an own PDF as is.
 */
export function rowMailingRequest(batch: BatchRequest, index: number): MailingRequest {
  const row = batch.rows[index]!;
  const fields = row.fields ?? {};
  const { letter } = batch;
  const rowLetter: MailingRequest['letter'] =
    'slug' in letter
      ? { ...letter, fields: { ...letter.fields, ...fields } }
      : 'body' in letter
        ? { title: fill(letter.title, fields, index), body: fill(letter.body, fields, index) }
        : letter;
  return {
    mode: batch.mode,
    letter: rowLetter,
    sender: batch.sender,
    recipient: row.recipient,
    ...(row.reference !== undefined ? { reference: row.reference } : {}),
    ...(row.recipientEmail !== undefined ? { recipientEmail: row.recipientEmail } : {}),
    options: batch.options,
    ...(batch.sendAt !== undefined ? { sendAt: batch.sendAt } : {}),
    ...(batch.channel !== undefined ? { channel: batch.channel } : {}),
    ...(batch.electronic ? { electronic: { ...batch.electronic, ...(row.consent ? { consent: row.consent } : {}) } } : {}),
  };
}
