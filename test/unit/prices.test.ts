import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { inFreeQuota, priceOf, priceTable, type PriceUnit } from '../../domain/billing/prices.js';
import { MODES } from '../../domain/mailings/states.js';

// Read independently of the module under test: from dist/test/unit/ up to the project root.
const pricesJson = JSON.parse(readFileSync(new URL('../../../catalogue/prices.json', import.meta.url), 'utf8')) as typeof priceTable;

const ALL_UNITS: PriceUnit[] = [
  'data.lookup',
  'data.lookup.premium',
  'calculation',
  'letter.pdf',
  'ai.fill',
  'ai.letter',
  'ai.tool',
  'mailing.simple',
  'mailing.simple.economic',
  'mailing.simple.urgent',
  'mailing.returned_mail.digital',
  'mailing.registered',
  'mailing.ar',
  'mailing.sheet',
  'mailing.sheet.color',
  'mailing.electronic',
  'mailing.fallback_hold',
  'mailing.zone.europe',
  'mailing.zone.world',
  'mailing.return_envelope',
  'mailing.archive_year',
];

describe('prices (domain/billing/prices)', () => {
  it('the price table is catalogue/prices.json, euros excluding VAT', () => {
    expect(priceTable).to.deep.equal(pricesJson);
    expect(priceTable.currency).to.equal('EUR');
    expect(priceTable.amountsExcludeVat).to.equal(true);
  });

  it('every unit of the API is priced exactly once, in whole non-negative cents', () => {
    const units = priceTable.units.map((u) => u.unit);
    expect([...units].sort()).to.deep.equal([...ALL_UNITS].sort());
    for (const unit of ALL_UNITS) expect(Number.isSafeInteger(priceOf(unit)) && priceOf(unit) >= 0, unit).to.equal(true);
  });

  it('priceOf reads each amount from the table', () => {
    for (const entry of pricesJson.units) expect(priceOf(entry.unit), entry.unit).to.equal(entry.amountCents);
  });

  it('mailings cost 1.89 € (simple), 6.49 € (registered), 7.99 € (AR) excl. VAT', () => {
    expect(priceOf('mailing.simple')).to.equal(189);
    expect(priceOf('mailing.registered')).to.equal(649);
    expect(priceOf('mailing.ar')).to.equal(799);
  });

  it('every mailing mode has a price, and more tracking costs more', () => {
    const prices = MODES.map((mode) => priceOf(`mailing.${mode}` as PriceUnit));
    expect(prices.every((p) => p > 0)).to.equal(true);
    expect(priceOf('mailing.simple')).to.be.below(priceOf('mailing.registered'));
    expect(priceOf('mailing.registered')).to.be.below(priceOf('mailing.ar'));
  });

  it('priceOf refuses a unit that has no price', () => {
    expect(() => priceOf('mailing.express' as PriceUnit)).to.throw('no price for unit mailing.express');
  });

  describe('free monthly quota', () => {
    it('is 500 calls a month', () => {
      expect(priceTable.freeMonthlyQuota.calls).to.equal(500);
    });

    it('covers data lookups (plain and premium) and calculations', () => {
      expect(inFreeQuota('data.lookup')).to.equal(true);
      expect(inFreeQuota('data.lookup.premium')).to.equal(true);
      expect(inFreeQuota('calculation')).to.equal(true);
    });

    it('never covers PDFs, AI or mailings', () => {
      for (const unit of ['letter.pdf', 'ai.fill', 'ai.letter', 'ai.tool', 'mailing.simple', 'mailing.registered', 'mailing.ar'] as PriceUnit[]) {
        expect(inFreeQuota(unit), unit).to.equal(false);
      }
    });

    it('agrees with appliesTo in catalogue/prices.json for every unit', () => {
      for (const unit of ALL_UNITS) expect(inFreeQuota(unit), unit).to.equal(pricesJson.freeMonthlyQuota.appliesTo.includes(unit));
    });
  });
});
