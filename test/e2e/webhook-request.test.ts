import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { postWebhook, WEBHOOK_TIMEOUT_MS } from '../../activities/net/webhook-request.js';
import { projectRoot } from '../../lib/paths.js';

/** A TLS server that answers each connection with `behave` (raw bytes, to misbehave at will). */
async function rawReceiver(behave: (socket: TLSSocket) => void): Promise<{ url: string; server: Server; sockets: Set<TLSSocket> }> {
  const tls = join(projectRoot, 'test', 'fixtures', 'tls');
  const sockets = new Set<TLSSocket>();
  const server = createServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => behave(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server, sockets };
}

async function stop(receiver: { server: Server; sockets: Set<TLSSocket> }): Promise<void> {
  for (const socket of receiver.sockets) socket.destroy();
  await new Promise((resolve) => receiver.server.close(resolve));
}

describe('one webhook attempt (SPEC.md: an answer within 10 seconds)', function () {
  this.timeout(30_000);
  const timers: NodeJS.Timeout[] = [];
  afterEach(() => timers.splice(0).forEach(clearInterval));

  it('is delivered as soon as a 2xx status arrives, even if the body then streams for ever', async () => {
    const receiver = await rawReceiver((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n');
      timers.push(setInterval(() => socket.write('1\r\nx\r\n'), 200));
    });
    try {
      const started = Date.now();
      const result = await postWebhook(receiver.url, { 'content-type': 'application/json' }, '{}', true);
      expect(result).to.deep.equal({ ok: true, status: 200, error: null });
      expect(Date.now() - started).to.be.below(3000);
    } finally {
      await stop(receiver);
    }
  });

  it('fails at 10 s when the receiver drips its status line a byte at a time (an idle timeout never fires)', async () => {
    const line = 'HTTP/1.1 200 OK\r\nX-Slow: ' + 'a'.repeat(1000);
    const receiver = await rawReceiver((socket) => {
      let i = 0;
      timers.push(setInterval(() => socket.write(line[i++ % line.length]!), 500));
    });
    try {
      const started = Date.now();
      const result = await postWebhook(receiver.url, { 'content-type': 'application/json' }, '{}', true);
      const took = Date.now() - started;
      expect(result.ok).to.equal(false);
      expect(result.error).to.equal('no answer within 10 s');
      expect(took).to.be.within(WEBHOOK_TIMEOUT_MS - 100, WEBHOOK_TIMEOUT_MS + 2000);
    } finally {
      await stop(receiver);
    }
  });
});
