import type { Filing } from './postal-operator.js';

/**
 * The sending fields of the operator's options a mailing asked (issue 55, parts 3 to 5;
 * docs/operators.md), with the names of Maileva's documents (test/fixtures/maileva/mail-v2.yaml,
 * registered-mail-v2.yaml, `sending_creation`): `return_envelope` and `archiving_duration` on both
 * APIs, `envelope_windows_type` and `print_sender_address` on mail v2 only (the checks at creation,
 * domain/mailings/postal-options.ts, refuse them for a registered letter). A field the mailing did
 * not ask is not sent: Maileva's default applies, as before these options existed.
 */
export function mailevaOptionFields(filing: Pick<Filing, 'mode' | 'options'>): Record<string, unknown> {
  const { options } = filing;
  const fields: Record<string, unknown> = {};
  if (options.returnEnvelopeRef) fields.return_envelope = { type: options.returnEnvelopeRef.type, id: options.returnEnvelopeRef.id };
  if (options.archiveYears !== undefined) fields.archiving_duration = options.archiveYears;
  if (filing.mode === 'simple') {
    if (options.envelopeWindows) fields.envelope_windows_type = options.envelopeWindows === 'double' ? 'DOUBLE' : 'SIMPLE';
    if (options.printSenderAddress !== undefined) fields.print_sender_address = options.printSenderAddress;
  }
  return fields;
}
