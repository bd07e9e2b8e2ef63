import { expect } from 'chai';
import { checkBillingProfile, frenchVatKey } from '../../domain/billing/profiles.js';
import { invoiceMentions, STRIPE_LIMITS } from '../../domain/billing/invoice-mentions.js';
import { loadConfig } from '../../lib/config.js';

const VALID = {
  legalName: 'Exemple Industries SAS',
  addressLine1: '12 rue des Lilas',
  postalCode: '69003',
  city: 'Lyon',
  siret: '552 100 554 00013',
  vatNumber: 'fr96 552 100 554',
  email: 'compta@exemple.fr',
};

describe('billing profile checks and the invoice’s legal mentions', () => {
  it('computes the French VAT key: (12 + 3 × (SIREN mod 97)) mod 97, on two digits', () => {
    expect(frenchVatKey('552100554')).to.equal('96');
    expect(frenchVatKey('404833048')).to.equal('83');
    expect(frenchVatKey('123456782')).to.equal('11');
    // A key under 10 keeps its leading zero: 3 × (SIREN mod 97) ≡ 85 (mod 97) gives 0.
    const siren = Array.from({ length: 2000 }, (_, i) => String(100000000 + i)).find((s) => Number(frenchVatKey(s)) < 10)!;
    expect(frenchVatKey(siren)).to.match(/^0\d$/);
  });

  it('normalizes a valid profile (spaces, dots, case; France by default; blank optional fields are null)', () => {
    const checked = checkBillingProfile({ ...VALID, addressLine2: '  ' });
    expect(checked).to.deep.equal({
      value: { ...VALID, addressLine2: null, country: 'FR', siret: '55210055400013', vatNumber: 'FR96552100554' },
    });
    expect(checkBillingProfile({ ...VALID, siret: '', vatNumber: '' })).to.have.nested.property('value.siret', null);
    // A VAT number alone is checked on its own (no SIRET to compare with).
    expect(checkBillingProfile({ ...VALID, siret: '' })).to.have.nested.property('value.vatNumber', 'FR96552100554');
  });

  it('says every field’s problem: SIRET (format, Luhn), VAT (format, key, SIREN of another SIRET), postcode, country, email, required, length', () => {
    const problems = (change: Record<string, string>) =>
      'problems' in checkBillingProfile({ ...VALID, ...change }) ? (checkBillingProfile({ ...VALID, ...change }) as { problems: object }).problems : {};
    expect(problems({ siret: '55210055400014' })).to.deep.equal({ siret: 'siret_checksum' });
    expect(problems({ siret: '5521005540001' })).to.deep.equal({ siret: 'siret_format' });
    expect(problems({ vatNumber: 'FR97552100554' })).to.deep.equal({ vatNumber: 'vat_key' });
    expect(problems({ vatNumber: 'DE96552100554' })).to.deep.equal({ vatNumber: 'vat_format' });
    expect(problems({ vatNumber: 'FR83404833048' })).to.deep.equal({ vatNumber: 'siren_mismatch' });
    // A SIRET already refused is not compared with the VAT number.
    expect(problems({ siret: '55210055400014', vatNumber: 'FR83404833048' })).to.deep.equal({ siret: 'siret_checksum' });
    expect(problems({ postalCode: '6900', country: 'BE', email: 'x@', legalName: '', city: 'x'.repeat(101) })).to.deep.equal({
      postalCode: 'postcode',
      country: 'country',
      email: 'email',
      legalName: 'required',
      city: 'too_long',
    });
  });

  it('fits Stripe’s limits and carries the seller’s mentions, the buyer’s SIRET, the penalties and the 40 € indemnity', () => {
    const seller = loadConfig({ APP_ENV: 'local', SECRET_KEY: '0'.repeat(64) }).seller;
    for (const buyer of [undefined, { siret: '55210055400013' }]) {
      const { customFields, footer } = invoiceMentions({ ...seller, vatOnDebits: true }, buyer);
      expect(customFields.length).to.be.at.most(STRIPE_LIMITS.customFields);
      for (const f of customFields) {
        expect(f.name.length).to.be.at.most(STRIPE_LIMITS.name);
        expect(f.value.length).to.be.at.most(STRIPE_LIMITS.value);
      }
      expect(footer.length).to.be.at.most(STRIPE_LIMITS.footer);
      expect(footer).to.include('SIREN 123 456 782 RCS Paris').and.include('FR11123456782').and.include('SAS au capital de');
      expect(footer).to.include('trois fois le taux d’intérêt légal').and.include('40 € (art. L441-10 C. com.)');
      expect(footer).to.include('d’après les débits');
      expect(customFields.some((f) => f.value === '55210055400013')).to.equal(buyer !== undefined);
    }
    expect(invoiceMentions(seller, undefined).footer).not.to.include('débits');
  });

  it('seller settings: local example values, required when invoicing for real, checked', () => {
    const base = { APP_ENV: 'preprod', SECRET_KEY: '0'.repeat(64), STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(() => loadConfig(base)).to.throw(/SELLER_LEGAL_NAME, SELLER_LEGAL_FORM, SELLER_ADDRESS, SELLER_SIREN, SELLER_RCS, SELLER_VAT_NUMBER/);
    const seller = {
      SELLER_LEGAL_NAME: 'Poste Rapide',
      SELLER_LEGAL_FORM: 'SARL au capital de 5 000 €',
      SELLER_ADDRESS: '3 quai Sud, 13002 Marseille',
      SELLER_SIREN: '404 833 048',
      SELLER_RCS: 'RCS Marseille',
      SELLER_VAT_NUMBER: 'FR 83 404833048',
    };
    expect(loadConfig({ ...base, ...seller }).seller).to.include({ siren: '404833048', vatNumber: 'FR83404833048', vatOnDebits: false });
    expect(() => loadConfig({ ...base, ...seller, SELLER_SIREN: '12345' })).to.throw(/SELLER_SIREN/);
    // Without payments, no invoice: nothing required.
    expect(loadConfig({ APP_ENV: 'preprod', SECRET_KEY: '0'.repeat(64) }).seller.legalName).to.match(/exemple/);
  });
});
