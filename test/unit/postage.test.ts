import { expect } from 'chai';
import { mailevaSending } from '../../activities/operator/maileva.js';
import type { Filing } from '../../activities/operator/postal-operator.js';
import { mailingOptions } from '../../api/schemas/mailings.js';
import { priceOf } from '../../domain/billing/prices.js';
import { Unprocessable } from '../../domain/errors.js';
import { checkPostage, mailingPostage, MAILEVA_POSTAGE_TYPES, POSTAGE_SPEEDS } from '../../domain/mailings/postage.js';
import { flatMailingPrice, ownPdfPrice, withReturnedMailLine } from '../../domain/mailings/pricing.js';
import { awaitsDigitalReturn, checkReturnedMail, mailingReturnedMail } from '../../domain/mailings/returned-mail.js';
import { RETURN_CODES } from '../../activities/operator/maileva.js';

const address = { name: 'Marie Dupont', lines: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country: 'FR' as const };
const filing = (mode: Filing['mode'], options: Filing['options'] = {}): Filing => ({
  shipmentId: '6f1f7a52-3c1e-4a8e-9d1a-0b6a1c2d3e4f',
  mode,
  trackingNumber: 'SV123',
  pdf: new Uint8Array(),
  title: 'Lettre',
  sender: address,
  recipient: address,
  options,
});

describe('options.postage: a simple letter’s speed (issue 55, docs/operators.md "Postage speed")', () => {
  it('takes fast, economic or urgent; absent stays absent (the default is fast); anything else is a 400', () => {
    for (const speed of POSTAGE_SPEEDS) expect(mailingOptions.validate({ postage: speed }).value.postage).to.equal(speed);
    expect(mailingOptions.validate({}).value).to.not.have.property('postage');
    expect(mailingOptions.validate({ postage: 'FAST' }).error).to.not.equal(undefined);
    expect(mailingOptions.validate({ postage: 'express' }).error).to.not.equal(undefined);
  });

  it('reaches Maileva as mail v2 postage_type by its names; FAST without the option; never on registered_mail v2', () => {
    expect(MAILEVA_POSTAGE_TYPES).to.deep.equal({ fast: 'FAST', economic: 'ECONOMIC', urgent: 'URGENT' });
    expect(mailevaSending(filing('simple'), 'ops@example.fr')).to.include({ postage_type: 'FAST', print_sender_address: false });
    expect(mailevaSending(filing('simple', { postage: 'economic' }), 'ops@example.fr')).to.include({ postage_type: 'ECONOMIC' });
    expect(mailevaSending(filing('simple', { postage: 'urgent' }), 'ops@example.fr')).to.include({ postage_type: 'URGENT' });
    for (const mode of ['registered', 'ar'] as const) expect(mailevaSending(filing(mode), 'ops@example.fr')).to.not.have.property('postage_type');
  });

  it('prices each speed by its own unit instead of mailing.simple, the same for an own PDF’s first sheet', () => {
    expect(flatMailingPrice('simple').lines).to.deep.equal([{ unit: 'mailing.simple', quantity: 1, amountCents: priceOf('mailing.simple') }]);
    expect(flatMailingPrice('simple', 'fast')).to.deep.equal(flatMailingPrice('simple'));
    expect(flatMailingPrice('simple', 'economic').lines).to.deep.equal([
      { unit: 'mailing.simple.economic', quantity: 1, amountCents: priceOf('mailing.simple.economic') },
    ]);
    expect(flatMailingPrice('simple', 'urgent').amountCents).to.equal(priceOf('mailing.simple.urgent'));
    expect(priceOf('mailing.simple.economic')).to.be.below(priceOf('mailing.simple'));
    expect(priceOf('mailing.simple.urgent')).to.be.above(priceOf('mailing.simple'));
    const pdf = ownPdfPrice('simple', { pages: 3, customerSheets: 3, envelopeSheets: 4, color: false, postage: 'urgent' });
    expect(pdf.lines.map((l) => l.unit)).to.deep.equal(['mailing.simple.urgent', 'mailing.sheet']);
    expect(pdf.amountCents).to.equal(priceOf('mailing.simple.urgent') + 3 * priceOf('mailing.sheet'));
  });

  it('is shown on the mailing with La Poste’s product and announced time; null for registered and AR letters', () => {
    expect(mailingPostage('simple', {})).to.deep.equal({ speed: 'fast', product: 'Lettre verte', deliveryDays: 3 });
    expect(mailingPostage('simple', null)).to.deep.equal({ speed: 'fast', product: 'Lettre verte', deliveryDays: 3 });
    expect(mailingPostage('simple', { postage: 'economic' })).to.deep.equal({ speed: 'economic', product: 'Ecopli', deliveryDays: 4 });
    expect(mailingPostage('simple', { postage: 'urgent' })).to.deep.equal({ speed: 'urgent', product: 'Lettre prioritaire', deliveryDays: 1 });
    expect(mailingPostage('registered', { postage: 'urgent' })).to.equal(null);
    expect(mailingPostage('ar', {})).to.equal(null);
  });

  it('refuses the option for registered and AR letters (422 option_not_available naming options.postage), even fast', () => {
    expect(() => checkPostage({ mode: 'simple', options: { postage: 'urgent' } })).to.not.throw();
    expect(() => checkPostage({ mode: 'registered', options: {} })).to.not.throw();
    for (const mode of ['registered', 'ar'] as const) {
      try {
        checkPostage({ mode, options: { postage: 'fast' } });
        expect.fail('accepted');
      } catch (error) {
        expect(error).to.be.instanceOf(Unprocessable);
        expect((error as Unprocessable).code).to.equal('option_not_available');
        expect((error as Unprocessable).details).to.deep.equal({ field: 'options.postage' });
      }
    }
  });
});

describe('options.returnedMail: returned mail handled digitally (issue 55, docs/operators.md)', () => {
  it('reaches Maileva as treat_undelivered_mail with our notification address; false without it; never on registered_mail v2', () => {
    expect(mailevaSending(filing('simple', { returnedMail: 'digital' }), 'ops@example.fr')).to.deep.include({
      treat_undelivered_mail: true,
      notification_treat_undelivered_mail: ['ops@example.fr'],
    });
    const plain = mailevaSending(filing('simple'), 'ops@example.fr');
    expect(plain).to.include({ treat_undelivered_mail: false });
    expect(plain).to.not.have.property('notification_treat_undelivered_mail');
    expect(mailevaSending(filing('simple', { returnedMail: 'sender' }), 'ops@example.fr')).to.include({ treat_undelivered_mail: false });
    for (const mode of ['registered', 'ar'] as const) expect(mailevaSending(filing(mode), 'ops@example.fr')).to.not.have.property('treat_undelivered_mail');
    // N10, mail v2's one delivery status, is a return.
    expect(RETURN_CODES.has('N10')).to.equal(true);
  });

  it('adds mailing.returned_mail.digital to the letter’s price, digital only', () => {
    const price = withReturnedMailLine(flatMailingPrice('simple', 'urgent'), { returnedMail: 'digital' });
    expect(price.lines.map((l) => l.unit)).to.deep.equal(['mailing.simple.urgent', 'mailing.returned_mail.digital']);
    expect(price.amountCents).to.equal(priceOf('mailing.simple.urgent') + priceOf('mailing.returned_mail.digital'));
    expect(withReturnedMailLine(flatMailingPrice('simple'), { returnedMail: 'sender' })).to.deep.equal(flatMailingPrice('simple'));
    expect(withReturnedMailLine(flatMailingPrice('simple'), {})).to.deep.equal(flatMailingPrice('simple'));
  });

  it('is shown for simple letters (sender by default), null otherwise; refused for registered and AR (422 naming the field)', () => {
    expect(mailingReturnedMail('simple', {})).to.equal('sender');
    expect(mailingReturnedMail('simple', { returnedMail: 'digital' })).to.equal('digital');
    expect(mailingReturnedMail('ar', { returnedMail: 'digital' })).to.equal(null);
    expect(() => checkReturnedMail({ mode: 'simple', options: { returnedMail: 'digital' } })).to.not.throw();
    for (const mode of ['registered', 'ar'] as const) {
      try {
        checkReturnedMail({ mode, options: { returnedMail: 'sender' } });
        expect.fail('accepted');
      } catch (error) {
        expect((error as Unprocessable).code).to.equal('option_not_available');
        expect((error as Unprocessable).details).to.deep.equal({ field: 'options.returnedMail' });
      }
    }
  });

  it('only a posted simple letter with digital returns still awaits its return', () => {
    expect(awaitsDigitalReturn({ mode: 'simple', status: 'posted', step: 2, digital: true })).to.equal(true);
    expect(awaitsDigitalReturn({ mode: 'simple', status: 'posted', step: 2, digital: false })).to.equal(false);
    expect(awaitsDigitalReturn({ mode: 'simple', status: 'printed', step: 1, digital: true })).to.equal(false);
    expect(awaitsDigitalReturn({ mode: 'simple', status: 'returned', step: 3, digital: true })).to.equal(false);
    expect(awaitsDigitalReturn({ mode: 'registered', status: 'posted', step: 2, digital: true })).to.equal(false);
  });
});
