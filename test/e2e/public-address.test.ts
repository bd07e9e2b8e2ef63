import { expect } from 'chai';
import { isPublicAddress } from '../../lib/net/public-address.js';

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
