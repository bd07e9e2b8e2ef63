import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The national address base as the bench needs it for mailings to many addresses: every address
 * asked for (`12 rue X 69001 Lyon`) confirmed at its house number, in the base's answer format
 * (the recorded answers of test/fixtures/partners/geoplateforme/), after `delayMs` (80 ms: the
 * base's usual answer time); or refusing every connection (accepted, then reset). Counts requests.
 */
export class GeocoderStandIn {
  mode: 'answer' | 'refuse' = 'answer';
  delayMs = 80;
  requests = 0;
  private server: Server | undefined;

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.requests++;
      if (this.mode === 'refuse') {
        req.socket.destroy();
        return;
      }
      const q = new URL(req.url ?? '/', 'http://localhost').searchParams.get('q') ?? '';
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(q))), this.delayMs);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The base's answer confirming `q` at its house number; an empty collection for what it cannot read. */
function answer(q: string): object {
  const parts = /^(\d+)\s+(.+?)\s+(\d{5})\s+(.+)$/.exec(q.trim());
  if (!parts) return { type: 'FeatureCollection', version: 'draft', features: [], attribution: 'BAN', licence: 'ETALAB-2.0', query: q, limit: 5 };
  const [, number, street, postcode, city] = parts as unknown as [string, string, string, string, string];
  const properties = {
    label: `${number} ${street} ${postcode} ${city}`,
    score: 0.97,
    housenumber: number,
    id: `${postcode}_0000_${number.padStart(5, '0')}`,
    name: `${number} ${street}`,
    postcode,
    citycode: '69381',
    city,
    context: '69, Rhône, Auvergne-Rhône-Alpes',
    type: 'housenumber',
    importance: 0.6,
    street,
    _type: 'address',
  };
  return {
    type: 'FeatureCollection',
    version: 'draft',
    features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [4.8365, 45.7676] }, properties }],
    attribution: 'BAN',
    licence: 'ETALAB-2.0',
    query: q,
    limit: 5,
  };
}
