import type { Db } from '../../db/knex.js';
import { unprocessable } from '../errors.js';
import { postalSettings, type PostalSettings } from '../access/postal-settings.js';
import {
  ARCHIVE_INCLUDED_YEARS,
  ARCHIVE_YEARS,
  isArchiveYears,
  type ArchiveApi,
  type PostalOptionsRequest,
  type ResolvedPostalOptions,
} from './postal-choices.js';
import { priceLine, type PriceLine } from './pricing.js';
import type { Mode } from './states.js';
import type { MailingRequest } from './request.js';

/**
 * The operator's envelope, address sheet and archive options of a paper mailing (issue 55, parts
 * 3 to 5; docs/operators.md, "Envelope, return envelope and archive"): checked against the mode's
 * operator API and the account's settings (domain/access/postal-settings.ts), priced, and resolved
 * into what the mailing's options record for its filing (the account's return envelope, the archive
 * duration that applies), so that the filing activity sends them to the operator without a lookup.
 */

export { ENVELOPE_WINDOWS, type EnvelopeWindows, type PostalOptionsRequest, type ResolvedPostalOptions } from './postal-choices.js';

export const archiveApiOf = (mode: Mode): ArchiveApi => (mode === 'simple' ? 'simple' : 'registered');

const MAIL_V2_ONLY = ['envelopeWindows', 'printSenderAddress'] as const;

/**
 * The checks, then the resolved options and the price lines they add: 422 option_not_available for
 * an option the mode's operator API does not offer (or any of them on the electronic channel), 422
 * return_envelope_not_configured for a return envelope the account has not configured.
 */
export function resolvePostalOptions(
  request: Pick<MailingRequest, 'mode' | 'channel'> & { options: PostalOptionsRequest },
  settings: PostalSettings | null,
): { resolved: ResolvedPostalOptions; lines: PriceLine[] } {
  const { options, mode } = request;
  const notAvailable = (field: string, message: string, details: Record<string, unknown> = {}) =>
    unprocessable(message, { field: `options.${field}`, ...details }, 'option_not_available');
  if (request.channel === 'electronic') {
    const asked = (['returnEnvelope', 'archiveYears', ...MAIL_V2_ONLY] as const).find((name) =>
      name === 'returnEnvelope' ? options.returnEnvelope === true : options[name] !== undefined,
    );
    if (asked) throw notAvailable(asked, `options.${asked} is a postal operator's option: an electronic registered letter has none.`);
    return { resolved: {}, lines: [] };
  }
  for (const name of MAIL_V2_ONLY)
    if (options[name] !== undefined && mode !== 'simple')
      throw notAvailable(name, `options.${name} is offered for simple letters only (the operator's mail API); mode ${mode} has no such choice.`);
  const api = archiveApiOf(mode);
  if (options.archiveYears !== undefined && !isArchiveYears(api, options.archiveYears))
    throw notAvailable('archiveYears', `options.archiveYears for mode ${mode} is one of ${ARCHIVE_YEARS[api].join(', ')} (years).`, {
      allowed: ARCHIVE_YEARS[api],
    });
  const resolved: ResolvedPostalOptions = {};
  const lines: PriceLine[] = [];
  if (options.returnEnvelope === true) {
    if (!settings?.returnEnvelope)
      throw unprocessable(
        'options.returnEnvelope slips the account’s return envelope into the letter, and this account has none configured: an owner sets it in the developer space (Paramètres, « Courrier »).',
        { field: 'options.returnEnvelope' },
        'return_envelope_not_configured',
      );
    resolved.returnEnvelopeRef = settings.returnEnvelope;
    lines.push(priceLine('mailing.return_envelope', 1));
  }
  const archiveYears = options.archiveYears ?? settings?.archiveYears[api] ?? undefined;
  if (archiveYears !== undefined) {
    resolved.archiveYears = archiveYears;
    const extra = archiveYears - ARCHIVE_INCLUDED_YEARS[api];
    if (extra > 0) lines.push(priceLine('mailing.archive_year', extra));
  }
  return { resolved, lines };
}

/** The account's settings when the request may need them: a paper letter (its archive default) or any option asked. */
export async function settingsForRequest(
  db: Db,
  accountId: string | undefined,
  request: Pick<MailingRequest, 'channel'>,
  known?: PostalSettings,
): Promise<PostalSettings | null> {
  if (!accountId || request.channel === 'electronic') return null;
  // Known with the API key (its record is kept current on every change of the account): no read.
  return known ?? postalSettings(db, accountId);
}
