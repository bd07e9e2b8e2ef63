import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Typed keys of the search attributes that lib/temporal.ts registers (safe to use in workflows). */
export const ACCOUNT_ID = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const MAILING_REFERENCE = defineSearchAttributeKey('MailingReference', SearchAttributeType.KEYWORD);
export const MAILING_MODE = defineSearchAttributeKey('MailingMode', SearchAttributeType.KEYWORD);
export const MAILING_STATUS = defineSearchAttributeKey('MailingStatus', SearchAttributeType.KEYWORD);
export const MAILING_TEST = defineSearchAttributeKey('MailingTest', SearchAttributeType.BOOL);
