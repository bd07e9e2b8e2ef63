import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  raw: string;
  body: any;
  at: number;
}

/**
 * A customer's HTTPS endpoint (self-signed certificate, trusted through NODE_EXTRA_CA_CERTS). It
 * records every request and answers with `respond` (default 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: (request: ReceivedWebhook) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 });
  private server: Server | undefined;
  private waiters: (() => void)[] = [];

  get url(): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  async start(): Promise<this> {
    const tls = join(projectRoot, 'test', 'fixtures', 'tls');
    this.server = createServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, (req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const received: ReceivedWebhook = { headers: req.headers as Record<string, string>, raw, body: JSON.parse(raw), at: Date.now() };
        this.received.push(received);
        const answer = this.respond(received);
        res.writeHead(answer.status, answer.headers ?? {}).end('ok');
        this.waiters.splice(0).forEach((wake) => wake());
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Resolves once `accept` holds for what was received (or rejects after the timeout). */
  async until(accept: (received: ReceivedWebhook[]) => boolean, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (!accept(this.received)) {
      if (Date.now() > deadline) throw new Error(`webhooks not received in time; got ${this.received.map((r) => r.body.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.received;
  }

  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.body.type === type);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
