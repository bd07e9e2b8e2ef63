import { expect } from 'chai';
import { mailevaSending } from '../../activities/operator/maileva.js';
import type { Filing } from '../../activities/operator/postal-operator.js';
import { mailingOptions } from '../../api/schemas/mailings.js';
import { priceOf } from '../../domain/billing/prices.js';
import { Unprocessable } from '../../domain/errors.js';
import { checkPostage, mailingPostage, MAILEVA_POSTAGE_TYPES, POSTAGE_SPEEDS } from '../../domain/mailings/postage.js';
import { flatMailingPrice, ownPdfPrice } from '../../domain/mailings/pricing.js';

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
