import { expect } from 'chai';
import { AR24_STATES, ar24Instant, ar24News, callbackFields } from '../../activities/lre/ar24.js';
import { ProviderPendingError } from '../../activities/lre/electronic-provider.js';
import { ar24Date, ar24Decrypt, ar24Signature } from '../../activities/partners/ar24.js';
import { electronicRecipientProblem, ELECTRONIC_STATES, proofKindsOf } from '../../domain/mailings/electronic.js';
import { AR24_DEFAULT_API_URL, loadConfig } from '../../lib/config.js';

describe('AR24: the pure parts', () => {
  it("decrypts the knowledge base's own example answer", () => {
    // "Déchiffrer les retours API avec votre clé secrète": this output, date and private key.
    expect(ar24Decrypt('WwBOU6s8DaMWmYdctBJwfuoujFgVygBUjhsbdf8eWqQ=', '2021-05-26 14:00:00', '7X9gx9E3Qx4EiUdB63nc')).to.equal('{status: "SUCCESS"}');
  });

  it('signs a date under the private key, and another key or date gives another signature', () => {
    const signature = ar24Signature('2021-05-26 14:00:00', '7X9gx9E3Qx4EiUdB63nc');
    expect(Buffer.from(signature, 'base64')).to.have.length(32); // 19 characters, padded to two AES blocks
    expect(ar24Signature('2021-05-26 14:00:01', '7X9gx9E3Qx4EiUdB63nc')).to.not.equal(signature);
    expect(ar24Signature('2021-05-26 14:00:00', 'another-key')).to.not.equal(signature);
  });

  it("writes the date on AR24's clock (Paris) and reads it back", () => {
    expect(ar24Date(new Date('2026-07-15T08:30:00Z'))).to.equal('2026-07-15 10:30:00'); // summer: UTC+2
    expect(ar24Date(new Date('2026-01-15T08:30:00Z'))).to.equal('2026-01-15 09:30:00'); // winter: UTC+1
    expect(ar24Instant('2026-07-15 10:30:00')).to.equal('2026-07-15T08:30:00.000Z');
    expect(ar24Instant('2026-01-15 09:30:00')).to.equal('2026-01-15T08:30:00.000Z');
    expect(ar24Instant('15/01/2026')).to.equal(undefined);
  });

  it("maps each of AR24's states onto ours, with the proofs its URLs offer", () => {
    const base = { id: 7, date: '2026-07-15 10:30:00', proof_dp_url: 'https://x/dp' };
    expect(ar24News({ ...base, status: 'dp' })).to.deep.equal({ state: 'sent', at: '2026-07-15T08:30:00.000Z', proofs: ['deposit'], providerReference: '7' });
    expect(ar24News({ ...base, status: 'ev', ts_ev_date: '2026-07-15 10:31:00' }).state).to.equal('notified');
    const accepted = ar24News({ ...base, status: 'AR', view_date: '2026-07-16 09:00:00', proof_ar_url: 'https://x/ar' });
    expect(accepted).to.include({ state: 'accepted', at: '2026-07-16T07:00:00.000Z' });
    expect(accepted.proofs).to.deep.equal(['deposit', 'acceptance']);
    expect(ar24News({ ...base, status: 'refused', proof_rf_url: 'https://x/rf' }).proofs).to.deep.equal(['deposit', 'refusal']);
    expect(ar24News({ ...base, status: 'negligence', proof_ng_url: 'https://x/ng' })).to.include({ state: 'unclaimed' });
    expect(ar24News({ ...base, status: 'bounced' })).to.include({ state: 'bounced' });
    expect(() => ar24News({ ...base, status: 'waiting' })).to.throw(ProviderPendingError);
    expect(() => ar24News({ ...base, status: 'something_new' })).to.throw(/state we do not know: something_new/);
    // Every state of ours is reached from one of AR24's.
    expect(new Set(Object.values(AR24_STATES).filter((s) => s !== 'pending'))).to.deep.equal(new Set(ELECTRONIC_STATES));
  });

  it("reads a callback's fields whether form-encoded, JSON or parsed", () => {
    expect(callbackFields('id_mail=12&id_user=3&status=AR')).to.include({ id_mail: '12', id_user: '3' });
    expect(callbackFields('{"id_mail":12,"ref_dossier":"m-1"}')).to.include({ id_mail: '12', ref_dossier: 'm-1' });
    expect(callbackFields({ id: 5, nested: { x: 1 } })).to.deep.equal({ id: '5' });
    expect(callbackFields(null)).to.deep.equal({});
  });

  it("refuses a consumer recipient without the sender's statement of consent (CPCE L100)", () => {
    const person = { email: 'a@example.fr', firstName: 'Ana', lastName: 'Lee' };
    expect(electronicRecipientProblem({ ...person, professional: true })).to.equal(undefined);
    expect(electronicRecipientProblem({ ...person, professional: false, consent: { date: '2026-01-10', means: 'bail, article 12' } })).to.equal(undefined);
    expect(electronicRecipientProblem({ ...person, professional: false, consent: { date: '', means: 'bail' } })).to.match(/date/);
    expect(electronicRecipientProblem({ ...person, professional: false, consent: { date: '2026-01-10', means: ' ' } })).to.match(/means/);
    expect(electronicRecipientProblem({ ...person, email: 'nope', professional: true })).to.match(/email/);
    expect(proofKindsOf('unclaimed')).to.deep.equal(['deposit', 'negligence']);
  });
});

describe('LRE_PROVIDER and the AR24 settings', () => {
  it('defaults to the simulator', () => {
    expect(loadConfig({}).lreProvider).to.deep.equal({ kind: 'simulator' });
  });

  it("reads AR24's settings, with its production base by default", () => {
    const config = loadConfig({ LRE_PROVIDER: 'ar24', AR24_TOKEN: 't', AR24_PRIVATE_KEY: 'k' });
    expect(config.lreProvider).to.deep.equal({ kind: 'ar24', ar24: { apiUrl: AR24_DEFAULT_API_URL, token: 't', privateKey: 'k', timeoutMs: 60_000 } });
    const other = loadConfig({ LRE_PROVIDER: 'ar24', AR24_TOKEN: 't', AR24_PRIVATE_KEY: 'k', AR24_API_URL: 'https://sandbox.example/api/' });
    expect(other.lreProvider.kind === 'ar24' && other.lreProvider.ar24.apiUrl).to.equal('https://sandbox.example/api');
  });

  it('refuses to start with ar24 and a missing credential, naming it, or with an unknown provider', () => {
    expect(() => loadConfig({ LRE_PROVIDER: 'ar24', AR24_TOKEN: 't' })).to.throw('LRE_PROVIDER=ar24 needs AR24_PRIVATE_KEY (missing)');
    expect(() => loadConfig({ LRE_PROVIDER: 'ar24' })).to.throw('AR24_TOKEN, AR24_PRIVATE_KEY');
    expect(() => loadConfig({ LRE_PROVIDER: 'laposte' })).to.throw('LRE_PROVIDER must be simulator or ar24');
  });
});
