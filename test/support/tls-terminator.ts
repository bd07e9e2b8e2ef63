import { connect, type Socket } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

/** The test PKI of test/fixtures/tls/temporal/ (gen.sh): a CA, the terminator's certificate, a client certificate. */
export const TEMPORAL_PKI = Object.fromEntries(
  ['ca.pem', 'server.pem', 'server-key.pem', 'client.pem', 'client-key.pem'].map((name) => [
    name,
    join(projectRoot, 'test', 'fixtures', 'tls', 'temporal', name),
  ]),
) as Record<'ca.pem' | 'server.pem' | 'server-key.pem' | 'client.pem' | 'client-key.pem', string>;

export interface TlsTerminator {
  /** host:port of the TLS side. */
  address: string;
  /** Handshakes accepted, and refused (e.g. no client certificate, or one of another CA). */
  accepted: number;
  refused: number;
  stop(): Promise<void>;
}

/**
 * TLS in front of a plain gRPC server (the dev server has no TLS options): gRPC over TLS is TLS
 * around HTTP/2, so each accepted connection is piped as raw bytes to `target`. With `requireClientCert`,
 * only clients with a certificate of the test CA get through (mTLS), as a Temporal frontend with
 * `requireClientAuth` does.
 */
export async function startTlsTerminator(target: string, options: { requireClientCert: boolean }): Promise<TlsTerminator> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sockets = new Set<Socket>();
  const server = createServer(
    {
      key: readFileSync(TEMPORAL_PKI['server-key.pem']),
      cert: readFileSync(TEMPORAL_PKI['server.pem']),
      ca: readFileSync(TEMPORAL_PKI['ca.pem']),
      requestCert: options.requireClientCert,
      rejectUnauthorized: options.requireClientCert,
      ALPNProtocols: ['h2'],
    },
    (tlsSocket: TLSSocket) => {
      terminator.accepted += 1;
      const upstream = connect(port, host);
      for (const socket of [tlsSocket, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      tlsSocket.pipe(upstream).pipe(tlsSocket);
      tlsSocket.once('close', () => upstream.destroy());
      upstream.once('close', () => tlsSocket.destroy());
    },
  );
  server.on('tlsClientError', () => (terminator.refused += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const terminator: TlsTerminator = {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: 0,
    refused: 0,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return terminator;
}
