import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { parseSignatureHeader, signatureHeader } from '../../domain/webhooks/signature.js';

const BODY = '{"id":"5f0c","type":"ping"}';
const hmac = (secret: string, t: number): string => createHmac('sha256', secret).update(`${t}.${BODY}`).digest('hex');

describe('webhook signature header', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>', () => {
    expect(signatureHeader(1_764_000_000, BODY, ['whsec_new'])).to.equal(`t=1764000000,v1=${hmac('whsec_new', 1_764_000_000)}`);
  });

  it('carries one v1 per signing secret during a rotation overlap, the current secret first', () => {
    const header = signatureHeader(1_764_000_000, BODY, ['whsec_new', 'whsec_old']);
    expect(header).to.equal(`t=1764000000,v1=${hmac('whsec_new', 1_764_000_000)},v1=${hmac('whsec_old', 1_764_000_000)}`);
    expect(parseSignatureHeader(header)).to.deep.equal({ t: 1_764_000_000, v1: [hmac('whsec_new', 1_764_000_000), hmac('whsec_old', 1_764_000_000)] });
  });

  it('parses leniently: unknown schemes and malformed parts are skipped', () => {
    expect(parseSignatureHeader(`t=12, v0=abc,v1=${'a'.repeat(64)},v1=zz,junk`)).to.deep.equal({ t: 12, v1: ['a'.repeat(64)] });
    expect(parseSignatureHeader('')).to.deep.equal({ t: undefined, v1: [] });
  });
});
