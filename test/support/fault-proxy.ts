import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** What the proxy answered: the API's status, or the injected one. */
  status: number;
  injected: boolean;
}

/**
 * An HTTP proxy in front of the API that an SDK is pointed at: it records every request, answers
 * 503 + Retry-After instead of forwarding while `failures` holds a matching entry (once per entry),
 * and may rewrite a forwarded JSON answer (a value the SDK's document does not know yet).
 */
export class FaultProxy {
  readonly requests: ProxiedRequest[] = [];
  /** Each entry refuses one matching request, then is used up: 503 (or `status` with `code`) with Retry-After, or `drop` the connection unanswered. */
  failures: { method: string; path: RegExp; retryAfterSeconds?: number; status?: number; code?: string; drop?: boolean }[] = [];
  /** Rewrites the parsed JSON of forwarded 2xx answers (identity by default). */
  rewrite: (method: string, path: string, body: any) => any = (_method, _path, body) => body;
  private server: Server | undefined;

  constructor(private readonly target: string) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const method = req.method ?? 'GET';
        const path = req.url ?? '/';
        const failure = this.failures.findIndex((f) => f.method === method && f.path.test(path));
        if (failure >= 0) {
          const { retryAfterSeconds, status = 503, code = 'service_unavailable', drop } = this.failures.splice(failure, 1)[0]!;
          this.requests.push({ method, path, headers: req.headers, status: drop ? 0 : status, injected: true });
          if (drop) {
            req.socket.destroy();
            return;
          }
          res
            .writeHead(status, {
              'content-type': 'application/json',
              ...(retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {}),
              'request-id': `proxy-${status}`,
            })
            .end(JSON.stringify({ error: { code, message: 'Injected by the test proxy' } }));
          return;
        }
        void this.forward(method, path, req.headers, Buffer.concat(chunks)).then(
          (answer) => {
            this.requests.push({ method, path, headers: req.headers, status: answer.status, injected: false });
            res.writeHead(answer.status, answer.headers).end(answer.body);
          },
          (error: Error) => res.writeHead(502).end(error.message),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  private async forward(method: string, path: string, incoming: IncomingHttpHeaders, body: Buffer) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming))
      if (value !== undefined && !['host', 'connection', 'content-length'].includes(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const response = await fetch(this.target + path, { method, headers, body: body.length ? body : undefined });
    let text = Buffer.from(await response.arrayBuffer());
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
    });
    if (response.ok && response.headers.get('content-type')?.includes('json'))
      text = Buffer.from(JSON.stringify(this.rewrite(method, path, JSON.parse(text.toString('utf8')))));
    return { status: response.status, headers: out, body: text };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
