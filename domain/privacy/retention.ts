/**
 * How long each kind of data is kept, and why (issue 53, item 1): one rule per kind, the reason
 * beside the duration. Pure data and pure functions: the schedule (workflows/maintenance.ts,
 * `applyRetention`), the developer space's settings page, the admin CLI and docs/retention.md read
 * them; test/unit/retention.test.ts keeps docs/retention.md's table equal to this list.
 *
 * The principle (GDPR art. 5(1)(e)): what the law requires us to keep (invoices and the ledger), what
 * a customer needs as proof (a mailing's proofs, within the limitation period it relies on), and
 * nothing longer. A mailing's personal data goes once it is final and its account's term is over;
 * what proves and accounts for it (amounts, statuses, tracking number, SHA-256 hashes) stays.
 */

/** The bounds of an account's retention of final mailings (`accounts.retention_days`, checked by the database too). */
export const MAILING_RETENTION_MIN_DAYS = 30;
/** Ten years: the longest limitation period a customer commonly relies on; nothing longer. */
export const MAILING_RETENTION_MAX_DAYS = 3653;
/**
 * Five years and a day from the end of the mailing: the common limitation period (Code civil art.
 * 2224, Code de commerce L110-4 between traders), within which the customer may have to prove that
 * the letter was posted and delivered.
 */
export const MAILING_RETENTION_DEFAULT_DAYS = 1827;

/** Invoices and the ledger (Code de commerce L123-22: « conservés pendant dix ans »). */
export const ACCOUNTING_RETENTION_YEARS = 10;

export interface RetentionRule {
  /** The kind of data, as docs/retention.md names it. */
  data: string;
  /** How long, in words. */
  duration: string;
  /** Why that long. */
  reason: string;
  /** What applies it. */
  appliedBy: string;
}

export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    data: 'Letter content (catalogue fields, free text, own PDF, composed letter)',
    duration: "Until the mailing is final, then the account's retention period (default 5 years, 30 days to 10 years)",
    reason:
      "Needed to print and post the letter, then as the customer's evidence of what was sent within the limitation period it relies on (Code civil art. 2224: five years); no law requires us to keep it",
    appliedBy: 'the `mailing-retention` Schedule (hourly), or at once on request (`POST /v1/mailings/{id}/erase`)',
  },
  {
    data: "Recipient's name, address and email",
    duration: 'Same as the letter content',
    reason: 'Printed on the letter and its proofs; the customer may need to show to whom it was sent',
    appliedBy: 'the `mailing-retention` Schedule, or on request',
  },
  {
    data: 'Proof PDFs (filing, delivery, return)',
    duration: "Same as the letter content; their SHA-256 hash is kept as long as the mailing's record",
    reason: 'They print the addresses; the customer downloads them while the term runs, and its copy can still be checked against the kept hash',
    appliedBy: 'the `mailing-retention` Schedule, or on request',
  },
  {
    data: 'Webhook event payloads (they carry the recipient)',
    duration: '30 days; the recipient is erased from them earlier if the mailing is erased',
    reason: 'Long enough to redeliver and to read the history in the developer space (24 h of retries, then the history)',
    appliedBy: 'the `webhook-history-purge` Schedule (hourly)',
  },
  {
    data: 'Webhook delivery history',
    duration: '30 days',
    reason: 'The developer space shows 30 days of history; nothing personal beyond the payload',
    appliedBy: 'the `webhook-history-purge` Schedule',
  },
  {
    data: 'API request log (method, path, status, time; per key)',
    duration: '7 days',
    reason: 'Support and debugging of the integration; no body, query string or header is logged',
    appliedBy: 'the `maintenance-purge` Schedule (every 10 minutes)',
  },
  {
    data: 'Audit log (changes to keys, webhooks, access; sign-ins with the client address)',
    duration: '1 year',
    reason: 'Security of the account: traceability of access, as the CNIL recommends for logs (six months to one year)',
    appliedBy: 'the `mailing-retention` Schedule deletes entries older than a year',
  },
  {
    data: "Idempotency records (a POST's answer, which may carry the mailing)",
    duration: '24 hours',
    reason: 'The idempotency window of the API',
    appliedBy: 'the `maintenance-purge` Schedule',
  },
  {
    data: "A CSV batch's check in the developer space (the form as posted, its recipients, and the report)",
    duration: '24 hours',
    reason: 'The check is followed, reloaded and confirmed from its page; the batch it confirms is a mailing batch, kept as its mailings are',
    appliedBy: 'the `maintenance-purge` Schedule; erased at once when the account is closed',
  },
  {
    data: 'Invoices, top-ups and the ledger (amounts of every mailing)',
    duration: '10 years from the end of the financial year',
    reason:
      'Code de commerce L123-22: accounting documents and supporting documents are kept ten years (LPF L102 B: six years for tax purposes, covered by the ten)',
    appliedBy: 'kept; an erased mailing keeps its amount, so the ledger still balances',
  },
  {
    data: "Mailing record without personal data (status history, amount, tracking number, documents' and proofs' SHA-256, sender)",
    duration: 'As long as the invoices that bill it (10 years)',
    reason: "Supports the ledger's entries; the sender is the customer's own address, erased with its account",
    appliedBy: 'kept with the account; erased when the account is closed',
  },
  {
    data: "Sender identity for electronic registered letters (the provider's state and dates; the name and email of the person its identity letter is for)",
    duration: 'As long as the account',
    reason: 'A qualified electronic letter names its verified sender (CPCE R53-1); the check is made once per account',
    appliedBy: "kept with the account; the person's name and email erased when the account is closed",
  },
  {
    data: "The postal operator's archive of a posted letter and its proofs (Maileva's, outside this service)",
    duration:
      "The mailing's archive duration: options.archiveYears, else the account's setting, else the operator's default (none for a simple letter, 3 years for a registered one); 0, 1, 3, 6 or 10 years, at least 3 for a registered letter",
    reason:
      'Chosen by the customer, who pays each year beyond the default (mailing.archive_year): the operator, our sub-processor, keeps the printed letter and its proofs that long for the customer to retrieve beyond its own copies',
    appliedBy:
      "the operator, from Maileva's `archiving_duration` sent with each sending (the bundled simulator records it in `operator_filings.options`); our erasure does not reach the operator's archive",
  },
];

/** Whether `days` is an allowed retention period for an account. */
export function isAllowedRetention(days: number): boolean {
  return Number.isInteger(days) && days >= MAILING_RETENTION_MIN_DAYS && days <= MAILING_RETENTION_MAX_DAYS;
}

/** The audit log's entries are kept this long (days). */
export const AUDIT_LOG_RETENTION_DAYS = 365;
