import { expect } from 'chai';
import { isPublicAddress } from '../../lib/net/public-address.js';
import { checkWebhookUrl } from '../../domain/webhooks/endpoints.js';
import type { WebhookEndpointError } from '../../domain/webhooks/endpoint-error.js';
import { loadConfig } from '../../lib/config.js';

const SECRET_KEY = 'ab'.repeat(32);
const refusal = (url: string, config = loadConfig({ APP_ENV: 'preprod', SECRET_KEY })) =>
  checkWebhookUrl(url, config).then(
    () => 'accepted',
    (error: WebhookEndpointError) => error.code,
  );

describe('public address check (webhook SSRF guard)', () => {
  it('refuses loopback, private, link-local, unique-local and special addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:0001::1',
      '2001:db8::1',
      // Found by the review: IPv4-compatible, site-local, local-use NAT64, 6to4 with a zero group.
      '::127.0.0.1',
      '::8.8.8.8',
      'fec0::1',
      '64:ff9b:1::a00:1',
      '2002:a00::',
      '2002:808:808::1',
      // Teredo, ORCHIDv2, AS112, benchmarking, discard-only, documentation (3fff::/20).
      '2001::1',
      '2001:20::1',
      '192.175.48.1',
      '198.19.0.1',
      '100::1',
      '3fff::1',
      '1.2.3',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(ip), ip).to.equal(false);
    }
  });

  it('accepts public unicast addresses', () => {
    for (const ip of ['8.8.8.8', '90.84.12.1', '172.32.0.1', '2a01:cb00::1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(ip), ip).to.equal(true);
    }
  });
});

describe('webhook target policy', () => {
  it('allows ports 443 and 8443 only', async () => {
    expect(await refusal('https://8.8.8.8/hook')).to.equal('accepted');
    expect(await refusal('https://8.8.8.8:8443/hook')).to.equal('accepted');
    expect(await refusal('https://8.8.8.8:8080/hook')).to.equal('port_not_allowed');
    expect(await refusal('https://8.8.8.8:22/hook')).to.equal('port_not_allowed');
  });

  it('refuses the bracketed forms of special IPv6 addresses', async () => {
    expect(await refusal('https://[::127.0.0.1]/hook')).to.equal('private_address');
    expect(await refusal('https://[fec0::1]/hook')).to.equal('private_address');
    expect(await refusal('https://[::ffff:7f00:1]/hook')).to.equal('private_address');
  });

  it('ignores WEBHOOK_ALLOW_PRIVATE outside local runs', async () => {
    for (const APP_ENV of ['preprod', 'production']) {
      const config = loadConfig({ APP_ENV, SECRET_KEY, WEBHOOK_ALLOW_PRIVATE: '1' });
      expect(config.webhookAllowPrivate, APP_ENV).to.equal(false);
      expect(await refusal('https://127.0.0.1:9999/hook', config), APP_ENV).to.equal('port_not_allowed');
      expect(await refusal('https://127.0.0.1/hook', config), APP_ENV).to.equal('private_address');
    }
    expect(loadConfig({ APP_ENV: 'local', SECRET_KEY, WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate).to.equal(true);
  });
});
