import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { BODY_DRAIN_MS, postWebhook, WEBHOOK_TIMEOUT_MS } from '../../activities/net/webhook-request.js';
import { projectRoot } from '../../lib/paths.js';

const tlsFiles = join(projectRoot, 'test', 'fixtures', 'tls');

/**
 * An HTTPS receiver that counts its TLS connections and answers each request with `answer`, given
 * the request's number on its connection (1, 2…) and the connection's number.
 */
async function countingReceiver(
  answer: (req: { socket: TLSSocket }, res: { end(body: string): void }, onConnection: number, connection: number) => void,
): Promise<{ url: string; server: HttpsServer; connections: () => number }> {
  let connections = 0;
  const requestsOn = new WeakMap<object, number>();
  const numberOf = new WeakMap<object, number>();
  const server = createHttpsServer({ key: readFileSync(join(tlsFiles, 'key.pem')), cert: readFileSync(join(tlsFiles, 'cert.pem')) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const socket = req.socket as TLSSocket;
      requestsOn.set(socket, (requestsOn.get(socket) ?? 0) + 1);
      answer({ socket }, res, requestsOn.get(socket)!, numberOf.get(socket)!);
    });
  });
  server.on('secureConnection', (socket) => numberOf.set(socket, ++connections));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server, connections: () => connections };
}

async function close(server: HttpsServer): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A TLS server that answers each connection with `behave` (raw bytes, to misbehave at will). */
async function rawReceiver(behave: (socket: TLSSocket) => void): Promise<{ url: string; server: Server; sockets: Set<TLSSocket> }> {
  const sockets = new Set<TLSSocket>();
  const server = createServer({ key: readFileSync(join(tlsFiles, 'key.pem')), cert: readFileSync(join(tlsFiles, 'cert.pem')) }, (socket) => {
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
      // The endless body is not read for ever: the connection is closed, not kept.
      const [socket] = [...receiver.sockets];
      await new Promise((resolve) => (socket!.closed ? resolve(undefined) : socket!.once('close', resolve)));
      expect(Date.now() - started).to.be.within(BODY_DRAIN_MS - 100, BODY_DRAIN_MS + 2000);
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

  it('keeps the connection for the next attempt to the same receiver (one TLS handshake)', async () => {
    const receiver = await countingReceiver((_req, res) => res.end('ok'));
    try {
      for (let i = 0; i < 3; i++) expect(await postWebhook(receiver.url, {}, '{}', true)).to.deep.equal({ ok: true, status: 200, error: null });
      expect(receiver.connections()).to.equal(1);
    } finally {
      await close(receiver.server);
    }
  });

  it('sends again on a new connection when the receiver closed the kept one without answering', async () => {
    // The first connection answers its first request, then drops the next one unanswered (a
    // receiver closing an idle connection just as it is reused).
    const receiver = await countingReceiver((req, res, onConnection, connection) =>
      connection === 1 && onConnection === 2 ? req.socket.destroy() : res.end('ok'),
    );
    try {
      expect(await postWebhook(receiver.url, {}, '{"n":1}', true)).to.deep.equal({ ok: true, status: 200, error: null });
      expect(await postWebhook(receiver.url, {}, '{"n":2}', true)).to.deep.equal({ ok: true, status: 200, error: null });
      // The new connection is kept in turn.
      expect(await postWebhook(receiver.url, {}, '{"n":3}', true)).to.deep.equal({ ok: true, status: 200, error: null });
      expect(receiver.connections()).to.equal(2);
    } finally {
      await close(receiver.server);
    }
  });
});
