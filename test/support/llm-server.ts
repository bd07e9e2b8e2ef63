import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

export interface ChatCall {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
    max_tokens: number;
  };
}

/**
 * An OpenAI-compatible chat-completions server (POST /v1/chat/completions) for the tests. It
 * answers with recorded-style completions (test/fixtures/llm/<name>.json, queued by the test with
 * `answer`), and can fail: `failNext` 500s, `refuseNext` 400s, `malformedNext` answers whose
 * content is broken JSON, `delayMs` before answering (timeouts). Every call is recorded.
 */
export class LlmServer {
  calls: ChatCall[] = [];
  failNext = 0;
  refuseNext = 0;
  malformedNext = 0;
  delayMs = 0;
  private answers: string[] = [];
  /** Bumped by reset: a reply still delayed from an earlier test must not consume this test's answers. */
  private generation = 0;
  private server: Server | undefined;

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  /** Queues recorded completions, answered in order. */
  answer(...fixtures: string[]): void {
    this.answers.push(...fixtures);
  }

  reset(): void {
    this.generation += 1;
    this.calls = [];
    this.answers = [];
    this.clearFaults();
  }

  /** Ends every injected fault (the queued answers and recorded calls stay). */
  clearFaults(): void {
    this.failNext = 0;
    this.refuseNext = 0;
    this.malformedNext = 0;
    this.delayMs = 0;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const send = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: 'not found', type: 'invalid_request_error' } });
        this.calls.push({ authorization: req.headers.authorization, body: JSON.parse(raw) });
        const generation = this.generation;
        const reply = (): void => {
          // The caller gave up (its timeout) or the test moved on: answer nothing, consume nothing.
          if (generation !== this.generation || req.socket.destroyed) return void res.destroy();
          if (this.failNext > 0) {
            this.failNext -= 1;
            return send(500, { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
          }
          if (this.refuseNext > 0) {
            this.refuseNext -= 1;
            return send(400, {
              error: { message: "Invalid schema for response_format 'x'.", type: 'invalid_request_error', param: 'response_format', code: null },
            });
          }
          const fixture = this.answers.shift();
          if (!fixture) return send(500, { error: { message: 'no recorded answer queued by the test', type: 'server_error' } });
          const completion = JSON.parse(readFileSync(join(projectRoot, 'test', 'fixtures', 'llm', `${fixture}.json`), 'utf8'));
          if (this.malformedNext > 0) {
            this.malformedNext -= 1;
            this.answers.unshift(fixture);
            completion.choices[0].message.content = completion.choices[0].message.content.slice(0, 25);
          }
          send(200, completion);
        };
        if (this.delayMs) setTimeout(reply, this.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export const llm = new LlmServer();
