import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import { normalize } from '../../domain/search/normalize.js';

/**
 * A partner this machine cannot reach, replayed: GET requests are answered with the fixture file
 * named after the normalized query (test/fixtures/partners/<partner>/<q>.json). Faults can be
 * injected: `failNext` 5xx answers, `delayMs` before answering, `malformedNext` broken bodies, and
 * an outage (`outage`): every connection accepted and reset (`refuse`), or never answered (`hang`).
 */
export class PartnerServer {
  requests: string[] = [];
  failNext = 0;
  malformedNext = 0;
  delayMs = 0;
  outage: 'refuse' | 'hang' | undefined;
  private server: Server | undefined;

  /** `fixture` names the file answering a request (default: the normalized `q` parameter). */
  constructor(
    private readonly partner: string,
    private readonly fixture: (url: URL) => string = (url) => normalize(url.searchParams.get('q') ?? ''),
    /** Opendatasoft-style paging: `limit` and `offset` cut the recorded `results`, as the partner does. */
    private readonly paged = false,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.requests = [];
    this.clearFaults();
  }

  /** Ends every injected fault (the recorded requests stay). */
  clearFaults(): void {
    this.failNext = 0;
    this.malformedNext = 0;
    this.delayMs = 0;
    this.outage = undefined;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      this.requests.push(url.pathname + url.search);
      if (this.outage === 'refuse') {
        req.socket.destroy();
        return;
      }
      if (this.outage === 'hang') return;
      const answer = (): void => {
        if (this.failNext > 0) {
          this.failNext -= 1;
          res.writeHead(503, { 'content-type': 'application/json' }).end('{"code":503,"message":"Service Unavailable"}');
          return;
        }
        if (this.malformedNext > 0) {
          this.malformedNext -= 1;
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"Feature');
          return;
        }
        const file = join(projectRoot, 'test', 'fixtures', 'partners', this.partner, `${this.fixture(url)}.json`);
        if (!existsSync(file)) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":404,"message":"no fixture"}');
          return;
        }
        let recorded = readFileSync(file);
        if (this.paged && url.searchParams.has('limit')) {
          const page = JSON.parse(recorded.toString()) as { results: unknown[] };
          const offset = Number(url.searchParams.get('offset') ?? 0);
          page.results = page.results.slice(offset, offset + Number(url.searchParams.get('limit')));
          recorded = Buffer.from(JSON.stringify(page));
        }
        // A recorded error keeps its status (OSRM answers "NoRoute" with 400).
        const status = (JSON.parse(recorded.toString()) as { code?: unknown }).code === 'NoRoute' ? 400 : 200;
        res.writeHead(status, { 'content-type': 'application/json' }).end(recorded);
      };
      if (this.delayMs) setTimeout(answer, this.delayMs);
      else answer();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export const geocoder = new PartnerServer('geoplateforme');
export const companyDirectory = new PartnerServer('recherche-entreprises');
/** OSRM fixtures are named after the coordinates of the request: "2.308132,48.850671;4.835,45.758". */
export const router = new PartnerServer('osrm', (url) => decodeURIComponent(url.pathname.split('/').pop() ?? ''));
/**
 * Fuel fixtures, named after the where clause: "france" (no clause), a department code,
 * "near-<lon>,<lat>-<radius>km" for a radius, "cp-<postcodes>" for postcodes.
 */
function fuelFixture(url: URL): string {
  const where = url.searchParams.get('where') ?? '';
  const near = /POINT\(([-\d.]+) ([-\d.]+)\)', ([\d.]+)km/.exec(where);
  if (near) return `near-${near[1]},${near[2]}-${near[3]}km`;
  const postcodes = /cp in \(([^)]*)\)/.exec(where);
  if (postcodes) return `cp-${postcodes[1]!.replace(/[" ]/g, '')}`;
  return /code_departement="([^"]+)"/.exec(where)?.[1] ?? 'france';
}
export const fuelData = new PartnerServer('prix-carburants', fuelFixture, true);

export const partnerStandIns = [geocoder, companyDirectory, router, fuelData];
