import { expect } from 'chai';
import { electronicSenderOf, identityAfter, senderIdentityUnverified, senderIncomplete, senderMissing } from '../../domain/developers/sender-identity.js';
import type { SenderIdentity } from '../../domain/mailings/electronic.js';
import { fromDomainError } from '../../api/errors.js';
import { senderMissingText } from '../../web/pages/sender-identity.js';

const PROFILE = {
  legalName: 'Gestion Martin SARL',
  siret: '55210055400013',
  addressLine1: '12 rue de la Paix',
  addressLine2: 'Bâtiment B' as string | null,
  postalCode: '75002',
  city: 'Paris',
};
const PERSON = { email: 'claire@martin.example', firstName: '  Claire ', lastName: 'Martin' };

describe('sender identity: the pure parts', () => {
  it('names what a request lacks: the profile, its SIRET, the addressee’s names', () => {
    expect(senderMissing(PROFILE, PERSON)).to.deep.equal([]);
    expect(senderMissing(undefined, PERSON)).to.deep.equal(['billing_profile']);
    expect(senderMissing({ siret: null }, PERSON)).to.deep.equal(['siret']);
    expect(senderMissing({ siret: null }, { firstName: ' ', lastName: '' })).to.deep.equal(['siret', 'first_name', 'last_name']);
    expect(senderMissing(undefined, { firstName: 'Claire', lastName: '\t' })).to.deep.equal(['billing_profile', 'last_name']);
  });

  it('makes the provider’s sender of the billing profile’s company and the person', () => {
    expect(electronicSenderOf('acc-1', PROFILE, PERSON)).to.deep.equal({
      accountId: 'acc-1',
      email: 'claire@martin.example',
      firstName: 'Claire',
      lastName: 'Martin',
      company: 'Gestion Martin SARL',
      siret: '55210055400013',
      address: { line: '12 rue de la Paix, Bâtiment B', postcode: '75002', city: 'Paris', country: 'FR' },
    });
    expect(electronicSenderOf('acc-1', { ...PROFILE, addressLine2: null }, PERSON).address.line).to.equal('12 rue de la Paix');
  });

  it('only moves forward: AR24’s “not verified” after a request stays requested, verified stays verified', () => {
    const cases: [SenderIdentity, SenderIdentity, SenderIdentity][] = [
      ['unverified', 'unverified', 'unverified'],
      ['requested', 'unverified', 'requested'],
      ['requested', 'requested', 'requested'],
      ['requested', 'verified', 'verified'],
      ['verified', 'unverified', 'verified'],
      ['unverified', 'verified', 'verified'],
    ];
    for (const [recorded, told, after] of cases) expect(identityAfter(recorded, told), `${recorded} + ${told}`).to.equal(after);
  });

  it('answers 422 sender_identity_unverified, saying what to do, and when it was requested', () => {
    const never = fromDomainError(senderIdentityUnverified({ identity: 'unverified', requestedAt: null }))!;
    expect([never.status, never.code]).to.deep.equal([422, 'sender_identity_unverified']);
    expect(never.message)
      .to.include('has not been requested')
      .and.include('Identité d’expéditeur')
      .and.include('R53-1')
      .and.include('Nothing was sent or billed');
    const waiting = fromDomainError(senderIdentityUnverified({ identity: 'requested', requestedAt: new Date('2026-12-08T09:30:00Z') }))!;
    expect(waiting.message).to.include('was requested on 2026-12-08').and.include('key');
    // The day in Paris: 23:30 UTC on 8 December is already the 9th there.
    const late = fromDomainError(senderIdentityUnverified({ identity: 'requested', requestedAt: new Date('2026-12-08T23:30:00Z') }))!;
    expect(late.message).to.include('was requested on 2026-12-09');
    expect(waiting.details).to.deep.equal({ identity: 'requested' });
  });

  it('refuses an incomplete sender with 422, naming each missing part in English and in French', () => {
    const error = fromDomainError(senderIncomplete(['siret', 'last_name']))!;
    expect([error.status, error.code]).to.deep.equal([422, 'unprocessable']);
    expect(error.message).to.include('SIRET').and.include('last name');
    expect(error.details).to.deep.equal({ missing: ['siret', 'last_name'] });
    expect(senderMissingText(['billing_profile'])).to.include('profil de facturation');
    expect(senderMissingText(['siret', 'first_name']))
      .to.include('SIRET')
      .and.include('prénom');
  });
});
