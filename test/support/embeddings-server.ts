import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { normalize } from '../../domain/search/normalize.js';

const DIMENSIONS = 256;

/**
 * Vectors that make texts sharing words and word pieces close: hashed character trigrams of the
 * normalized text. Deterministic, so search results are reproducible.
 */
export function trigramVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of normalize(text)
    .split(' ')
    .filter((w) => w.length > 2)) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const bucket =
        createHash('md5')
          .update(padded.slice(i, i + 3))
          .digest()
          .readUInt32LE(0) % DIMENSIONS;
      vector[bucket]! += 1;
    }
  }
  return vector;
}

/**
 * A local stand-in for an OpenAI-compatible embeddings endpoint (POST /v1/embeddings), answering
 * in the real response shape. It counts its calls and can be stopped and started again on the same
 * port, to test the lexical fallback.
 */
export class EmbeddingsServer {
  calls = 0;
  private server: Server | undefined;
  port = 0;

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
          return;
        }
        this.calls += 1;
        const { input, model } = JSON.parse(raw) as { input: string | string[]; model: string };
        const texts = Array.isArray(input) ? input : [input];
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            object: 'list',
            data: texts.map((text, index) => ({ object: 'embedding', index, embedding: trigramVector(text) })),
            model,
            usage: { prompt_tokens: texts.join(' ').length, total_tokens: texts.join(' ').length },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export const embeddings = new EmbeddingsServer();
