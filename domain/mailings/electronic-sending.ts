import type { Db } from '../../db/knex.js';
import type { LetterDocument } from '../letters/render.js';
import type { ElectronicRecipient } from './electronic.js';
import type { MailingElectronic, PostalAddress } from './mailing.js';
import type { MailingStatus } from './states.js';

/**
 * What sending a mailing's electronic letter takes from our records (the `shipments` row; its sender:
 * domain/developers/sender-identity.ts), and the provider's ids kept beside it. Activities hold no SQL: this
 * module does (docs/where-things-live.md, the `shipments` table).
 */

/** A mailing's electronic letter, ready for the provider but its PDF (printed by the activity). */
export interface ElectronicLetter {
  status: MailingStatus;
  test: boolean;
  recipient: ElectronicRecipient;
  /** The notice's line: no content of the letter (the law keeps the sender unnamed until accepted, CPCE R53-3). */
  subject: string;
  layout: LetterDocument | null;
}

/** A mailing's electronic letter (undefined: no such electronic mailing). */
export async function electronicLetterOf(db: Db, mailingId: string): Promise<ElectronicLetter | undefined> {
  const row = (await db('shipments')
    .where({ id: mailingId, channel: 'electronic' })
    .first('status', 'test', 'recipient', 'recipient_email', 'electronic', 'tracking_number', 'layout')) as
    | {
        status: MailingStatus;
        test: boolean;
        recipient: PostalAddress;
        recipient_email: string | null;
        electronic: MailingElectronic;
        tracking_number: string;
        layout: LetterDocument | null;
      }
    | undefined;
  if (!row) return undefined;
  const who = { email: row.recipient_email ?? '', firstName: '', lastName: row.recipient.name };
  const recipient: ElectronicRecipient =
    row.electronic.recipientKind === 'professional'
      ? { ...who, company: row.recipient.name, professional: true }
      : { ...who, professional: false, consent: row.electronic.consent ?? { date: '', means: '' } };
  return { status: row.status, test: row.test, recipient, subject: `Lettre recommandée électronique n° ${row.tracking_number}`, layout: row.layout };
}

/** The provider's number of the letter, shown by the Mailing (electronic.providerReference); kept once. */
export async function rememberProviderReference(db: Db, mailingId: string, reference: string): Promise<void> {
  await db('shipments')
    .where({ id: mailingId, channel: 'electronic' })
    .whereRaw(`electronic->>'providerReference' IS NULL`)
    .update({ electronic: db.raw(`jsonb_set(electronic, '{providerReference}', to_jsonb(?::text))`, [reference]) });
}

/** AR24's ids of a mailing's sender user and letter (activities/lre/ar24.ts's records). */
export async function lreReference(db: Db, mailingId: string): Promise<{ userId: string | null; mailId: string | null }> {
  const row = (await db('shipments').where({ id: mailingId }).first('lre_user_id', 'lre_mail_id')) as
    { lre_user_id: string | null; lre_mail_id: string | null } | undefined;
  return { userId: row?.lre_user_id ?? null, mailId: row?.lre_mail_id ?? null };
}

export async function rememberLreReference(db: Db, mailingId: string, reference: { userId: string; mailId?: string }): Promise<void> {
  await db('shipments')
    .where({ id: mailingId })
    .update({ lre_user_id: reference.userId, ...(reference.mailId ? { lre_mail_id: reference.mailId } : {}) });
}
