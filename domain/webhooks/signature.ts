import { hmacSha256Hex } from '../../lib/crypto.js';

/**
 * The `Service-Signature` header of one attempt: `t=<unix seconds>,v1=<hex>` with one `v1` per
 * secret that signs, the current secret first. After a rotation the replaced secret signs too for
 * SECRET_OVERLAP_MS (`t=…,v1=<new>,v1=<old>`, as Stripe does): a receiver that checks any `v1`
 * accepts the request with either secret.
 */
export function signatureHeader(t: number, body: string, secrets: readonly string[]): string {
  return [`t=${t}`, ...secrets.map((secret) => `v1=${hmacSha256Hex(secret, `${t}.${body}`)}`)].join(',');
}

/** What a receiver does (docs/webhooks.md): the `t` and every `v1` of a header. */
export function parseSignatureHeader(header: string): { t: number | undefined; v1: string[] } {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const [name, value] = [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    if (name === 't' && /^\d+$/.test(value)) t = Number(value);
    if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) v1.push(value);
  }
  return { t, v1 };
}
