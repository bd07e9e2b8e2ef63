import { request } from 'node:https';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress, isWebhookPort } from '../../lib/net/public-address.js';

export interface WebhookResponse {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** Receivers answer within 10 seconds (SPEC.md "Delivery and retries"). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Resolves the host, refuses any address that is not public (unless allowed), then connects to
 * the very address it checked: no second lookup can swap in a private one (DNS rebinding).
 * Redirects are not followed; anything but a 2xx is a failure.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<WebhookResponse> {
  const target = new URL(url);
  if (target.protocol !== 'https:') return { ok: false, status: null, error: 'not an HTTPS address' };
  if (!allowPrivate && !isWebhookPort(target)) return { ok: false, status: null, error: `refused: port ${target.port} (443 or 8443 only)` };
  const host = target.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch (error) {
    return { ok: false, status: null, error: `DNS: ${(error as Error).message}` };
  }
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (!allowPrivate && (refused || addresses.length === 0))
    return { ok: false, status: null, error: `refused: ${host} resolves to a non-public address (${refused?.address ?? 'none'})` };
  const chosen = addresses[0]!;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: WebhookResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      // The body does not matter: the socket is closed as soon as the answer is known, so a
      // receiver that streams or drips its body holds nothing.
      req.destroy();
      resolve(result);
    };
    const req = request(
      {
        host,
        port: target.port || 443,
        path: target.pathname + target.search,
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        servername: isIP(host) ? undefined : host,
        // Connect to the checked address only (with autoSelectFamily Node asks for all addresses).
        lookup: ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all ? callback(null, [{ address: chosen.address, family: chosen.family }]) : callback(null, chosen.address, chosen.family)) as never,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({ ok, status, error: ok ? null : `HTTP ${status}` });
      },
    );
    // One attempt is bounded as a whole, from connecting to the status line (an idle-socket
    // timeout would let a receiver that sends a byte now and then hold the attempt for ever).
    const deadline = setTimeout(() => finish({ ok: false, status: null, error: `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` }), WEBHOOK_TIMEOUT_MS);
    req.on('error', (error) => finish({ ok: false, status: null, error: error.message }));
    req.end(body);
  });
}
