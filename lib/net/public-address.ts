import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * True only for a public unicast IP address. ipaddr.js classifies an address against the IANA
 * special-purpose registries (loopback, private, link-local, unique-local, site-local, NAT64,
 * 6to4, Teredo, ORCHID, documentation, benchmarking…); only `unicast` is public. An IPv4-mapped
 * IPv6 address (::ffff:a.b.c.d) is judged by its IPv4 address; ::/96 (unspecified, loopback and
 * the deprecated IPv4-compatible ::a.b.c.d) and every other IPv6 form carrying an IPv4 address
 * (NAT64, 6to4, Teredo) are refused outright.
 */
export function isPublicAddress(ip: string): boolean {
  // Node's strict syntax first: ipaddr.js also reads legacy forms such as 1.2.3.
  const family = isIP(ip);
  if (family === 4) return ipaddr.IPv4.parse(ip).range() === 'unicast';
  if (family !== 6) return false;
  let v6: ipaddr.IPv6;
  try {
    // In hexadecimal form first: ipaddr.js reads any embedded dotted quad as IPv4-mapped.
    v6 = ipaddr.IPv6.parse(new URL(`http://[${ip}]`).hostname.slice(1, -1));
  } catch {
    return false; // e.g. a zone index (fe80::1%eth0)
  }
  if (v6.parts.slice(0, 6).every((word) => word === 0)) return false;
  if (v6.range() === 'ipv4Mapped') return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast';
}

/** Webhook receivers listen on the HTTPS ports: 443 (the default) or 8443. */
export const WEBHOOK_PORTS = ['443', '8443'];

export function isWebhookPort(url: URL): boolean {
  return url.port === '' || WEBHOOK_PORTS.includes(url.port);
}
