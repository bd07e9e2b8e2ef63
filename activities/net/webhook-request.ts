import { Agent, request } from 'node:https';
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

/** After the status, how long and how much of a body is read to keep the connection; beyond, it is closed. */
export const BODY_DRAIN_MS = 1_000;
export const BODY_DRAIN_BYTES = 64 * 1024;

/**
 * Connections to receivers are kept between deliveries: an endpoint that receives a mailing's
 * events pays one TLS handshake (a round trip or two over the internet, a few milliseconds of CPU
 * on each side), not one per event. An idle connection is closed after 30 s; one the receiver
 * closed first is noticed when sending, and the request is sent again.
 */
const receivers = new Agent({ keepAlive: true, timeout: 30_000, scheduling: 'lifo', maxFreeSockets: 16 });
const MAX_STALE_CONNECTIONS = 3;

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
  // A kept connection the receiver had closed meanwhile: nothing was answered, so the request goes
  // again (receivers de-duplicate on the event id: SPEC.md "Events"), on another kept connection or a new one.
  for (let tries = 1; ; tries++) {
    const sent = await send(target, host, chosen, headers, body);
    if (!sent.staleConnection || tries === MAX_STALE_CONNECTIONS) return sent.result;
  }
}

/** One request, from connecting (or taking a kept connection) to the status line. */
function send(
  target: URL,
  host: string,
  chosen: { address: string; family: number },
  headers: Record<string, string>,
  body: string,
): Promise<{ result: WebhookResponse; staleConnection?: boolean }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: WebhookResponse, staleConnection = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ result, staleConnection });
    };
    const req = request(
      {
        host,
        port: target.port || 443,
        path: target.pathname + target.search,
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        servername: isIP(host) ? undefined : host,
        agent: receivers,
        // Connect to the checked address only (with autoSelectFamily Node asks for all addresses).
        lookup: ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all ? callback(null, [{ address: chosen.address, family: chosen.family }]) : callback(null, chosen.address, chosen.family)) as never,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({ ok, status, error: ok ? null : `HTTP ${status}` });
        // The body does not matter, and the answer is already known: a short body is read so that
        // the connection is kept; one that streams or drips closes it, and holds nothing.
        let read = 0;
        const drained = setTimeout(() => req.destroy(), BODY_DRAIN_MS);
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > BODY_DRAIN_BYTES) req.destroy();
        });
        res.on('close', () => clearTimeout(drained));
        res.on('error', () => undefined);
      },
    );
    // One attempt is bounded as a whole, from connecting to the status line (an idle-socket
    // timeout would let a receiver that sends a byte now and then hold the attempt for ever).
    const deadline = setTimeout(() => {
      finish({ ok: false, status: null, error: `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` });
      req.destroy();
    }, WEBHOOK_TIMEOUT_MS);
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, status: null, error: error.message }, req.reusedSocket && error.code === 'ECONNRESET');
      req.destroy();
    });
    req.end(body);
  });
}
