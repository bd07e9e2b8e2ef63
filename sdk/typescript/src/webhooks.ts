import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './generated/types.gen.js';

/** Refused webhook: no valid signature for any of the secrets, or signed too long ago. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface VerifyOptions {
  /** The exact bytes received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** The `Service-Signature` header: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
  signature: string | undefined;
  /** The endpoint's `whsec_…` secret, or several during a rotation (the new one and the old one). */
  secrets: string | string[];
  /** The largest distance between `t` and now, in seconds (default 300: five minutes). */
  toleranceSeconds?: number;
  /** Now, in milliseconds (tests). */
  now?: number;
}

/**
 * Whether a webhook is ours (docs/webhooks.md): `v1` is the hex HMAC-SHA256 of `<t>.<raw body>`
 * keyed with the whole secret; any `v1` matching any secret is enough (after a rotation the API
 * signs with the new and the old one), compared in constant time; `t` within the tolerance.
 */
export function verifyWebhookSignature(options: VerifyOptions): boolean {
  const parts = (options.signature ?? '').split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  });
  const t = parts.find(([name]) => name === 't')?.[1] ?? '';
  if (!/^\d+$/.test(t)) return false;
  const now = options.now ?? Date.now();
  if (Math.abs(now / 1000 - Number(t)) > (options.toleranceSeconds ?? 300)) return false;
  const given = parts.filter(([name, hex]) => name === 'v1' && /^[0-9a-f]{64}$/.test(hex)).map(([, hex]) => Buffer.from(hex, 'hex'));
  const secrets = Array.isArray(options.secrets) ? options.secrets : [options.secrets];
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${t}.`).update(options.rawBody).digest();
    return given.some((signature) => timingSafeEqual(signature, expected));
  });
}

/** The event of a verified webhook, or a WebhookSignatureError. */
export function parseWebhook(options: VerifyOptions): WebhookEvent {
  if (!verifyWebhookSignature(options)) throw new WebhookSignatureError('Invalid or expired Service-Signature');
  const text = typeof options.rawBody === 'string' ? options.rawBody : Buffer.from(options.rawBody).toString('utf8');
  return JSON.parse(text) as WebhookEvent;
}
