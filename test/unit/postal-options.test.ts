import { expect } from 'chai';
import { ARCHIVE_INCLUDED_YEARS, ARCHIVE_YEARS, type PostalSettings } from '../../domain/access/postal-settings.js';
import { resolvePostalOptions } from '../../domain/mailings/postal-options.js';
import { flatMailingPrice, withOptionLines } from '../../domain/mailings/pricing.js';
import { priceOf } from '../../domain/billing/prices.js';
import { mailevaOptionFields } from '../../activities/operator/maileva-options.js';
import { Unprocessable } from '../../domain/errors.js';
import { loadMailevaSpecs } from '../support/maileva/spec.js';
import type { Mode } from '../../domain/mailings/states.js';

const ENVELOPE = { type: 'PREPAID_ENVELOPE', id: '3f2a6c1e-7b4d-4e8a-9c1f-2d5b8e7a6c40' } as const;
const configured: PostalSettings = { returnEnvelope: ENVELOPE, archiveYears: { simple: 6, registered: 10 } };
const bare: PostalSettings = { returnEnvelope: null, archiveYears: { simple: null, registered: null } };

function refusal(fn: () => unknown): Unprocessable {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(Unprocessable);
    return error as Unprocessable;
  }
  throw new Error('not refused');
}

describe("the operator's options of a mailing (domain/mailings/postal-options.ts)", () => {
  it('nothing asked, nothing configured: nothing resolved, nothing priced (a request that worked keeps its price)', () => {
    for (const mode of ['simple', 'registered', 'ar'] as const)
      expect(resolvePostalOptions({ mode, options: {} }, bare)).to.deep.equal({ resolved: {}, lines: [] });
    expect(resolvePostalOptions({ mode: 'simple', options: {} }, null)).to.deep.equal({ resolved: {}, lines: [] });
  });

  it('a return envelope: the account’s, priced once; 422 return_envelope_not_configured without one', () => {
    const { resolved, lines } = resolvePostalOptions(
      { mode: 'registered', options: { returnEnvelope: true } },
      { ...configured, archiveYears: bare.archiveYears },
    );
    expect(resolved).to.deep.equal({ returnEnvelopeRef: ENVELOPE });
    expect(lines).to.deep.equal([{ unit: 'mailing.return_envelope', quantity: 1, amountCents: priceOf('mailing.return_envelope') }]);
    const refused = refusal(() => resolvePostalOptions({ mode: 'simple', options: { returnEnvelope: true } }, bare));
    expect(refused.code).to.equal('return_envelope_not_configured');
    expect(refused.details).to.deep.equal({ field: 'options.returnEnvelope' });
    expect(resolvePostalOptions({ mode: 'simple', options: { returnEnvelope: false } }, bare).resolved).to.deep.equal({});
  });

  it('the archive: the request’s, else the account’s, per mode; each year beyond the included ones is priced', () => {
    const years = (mode: Mode, archiveYears: number | undefined, settings: PostalSettings) =>
      resolvePostalOptions({ mode, options: archiveYears === undefined ? {} : { archiveYears } }, settings);
    expect(years('simple', undefined, configured)).to.deep.equal({
      resolved: { archiveYears: 6 },
      lines: [{ unit: 'mailing.archive_year', quantity: 6, amountCents: 6 * priceOf('mailing.archive_year') }],
    });
    expect(years('ar', undefined, configured).lines[0]).to.include({ unit: 'mailing.archive_year', quantity: 7 });
    expect(years('registered', 3, configured)).to.deep.equal({ resolved: { archiveYears: 3 }, lines: [] });
    expect(years('simple', 0, configured)).to.deep.equal({ resolved: { archiveYears: 0 }, lines: [] });
    for (const value of [0, 1]) {
      const refused = refusal(() => years('registered', value, bare));
      expect(refused.code).to.equal('option_not_available');
      expect(refused.details).to.deep.equal({ field: 'options.archiveYears', allowed: [3, 6, 10] });
    }
    expect(ARCHIVE_INCLUDED_YEARS).to.deep.equal({ simple: 0, registered: 3 });
  });

  it('envelope windows and the sender’s address: simple letters only; nothing of it on the electronic channel', () => {
    for (const options of [{ envelopeWindows: 'double' as const }, { printSenderAddress: true }]) {
      const field = `options.${Object.keys(options)[0]}`;
      for (const mode of ['registered', 'ar'] as const) {
        const refused = refusal(() => resolvePostalOptions({ mode, options }, bare));
        expect([refused.code, refused.details]).to.deep.equal(['option_not_available', { field }]);
      }
      expect(resolvePostalOptions({ mode: 'simple', options }, bare)).to.deep.equal({ resolved: {}, lines: [] });
    }
    const electronic = refusal(() => resolvePostalOptions({ mode: 'registered', channel: 'electronic', options: { archiveYears: 6 } }, configured));
    expect([electronic.code, electronic.details]).to.deep.equal(['option_not_available', { field: 'options.archiveYears' }]);
    expect(resolvePostalOptions({ mode: 'ar', channel: 'electronic', options: { returnEnvelope: false } }, configured).resolved).to.deep.equal({});
    const envelope = refusal(() => resolvePostalOptions({ mode: 'ar', channel: 'electronic', options: { returnEnvelope: true } }, configured));
    expect(envelope.details).to.deep.equal({ field: 'options.returnEnvelope' });
    // The account's settings are for paper letters: an electronic one is priced without them.
    expect(resolvePostalOptions({ mode: 'registered', channel: 'electronic', options: {} }, configured)).to.deep.equal({ resolved: {}, lines: [] });
  });

  it('the lines add to the letter’s price', () => {
    const letter = flatMailingPrice('simple');
    const { lines } = resolvePostalOptions({ mode: 'simple', options: { returnEnvelope: true, archiveYears: 3 } }, configured);
    const price = withOptionLines(letter, lines);
    expect(price.amountCents).to.equal(priceOf('mailing.simple') + priceOf('mailing.return_envelope') + 3 * priceOf('mailing.archive_year'));
    expect(price.lines.map((l) => l.unit)).to.deep.equal(['mailing.simple', 'mailing.return_envelope', 'mailing.archive_year']);
    expect(withOptionLines(letter, [])).to.equal(letter);
  });
});

describe("the operator's options as Maileva's sending fields (activities/operator/maileva-options.ts)", () => {
  it('uses the names and values of mail-v2.yaml and registered-mail-v2.yaml, and sends nothing not asked', async () => {
    const specs = await loadMailevaSpecs();
    // mail v2's sending_creation is its sending_update (allOf) and more; registered mail v2's is one schema.
    const mail = specs.mail.schema('sending_update').properties;
    const registered = specs.registered_mail.schema('sending_creation').properties;
    expect(mail.archiving_duration.enum).to.deep.equal([...ARCHIVE_YEARS.simple]);
    expect(registered.archiving_duration.enum).to.deep.equal([...ARCHIVE_YEARS.registered]);
    expect(mail.archiving_duration.default).to.equal(ARCHIVE_INCLUDED_YEARS.simple);
    expect(registered.archiving_duration.default).to.equal(ARCHIVE_INCLUDED_YEARS.registered);
    expect(registered).to.not.have.property('envelope_windows_type');
    expect(registered).to.not.have.property('print_sender_address');

    expect(mailevaOptionFields({ mode: 'simple', options: {} })).to.deep.equal({});
    expect(
      mailevaOptionFields({ mode: 'simple', options: { returnEnvelopeRef: ENVELOPE, archiveYears: 6, envelopeWindows: 'double', printSenderAddress: true } }),
    ).to.deep.equal({ return_envelope: ENVELOPE, archiving_duration: 6, envelope_windows_type: 'DOUBLE', print_sender_address: true });
    expect(mailevaOptionFields({ mode: 'ar', options: { returnEnvelopeRef: ENVELOPE, archiveYears: 10 } })).to.deep.equal({
      return_envelope: ENVELOPE,
      archiving_duration: 10,
    });
    expect(mail.envelope_windows_type.enum).to.deep.equal(['SIMPLE', 'DOUBLE']);
  });
});
