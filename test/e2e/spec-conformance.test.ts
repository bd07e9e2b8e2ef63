import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import { routes } from '../../api/routes/index.js';
import { call } from '../support/api.js';
import { commonStatuses } from '../../api/openapi.js';

/** SPEC.md sits in ../shared beside the clone (CI and development alike). */
const specPath = join(projectRoot, '..', 'shared', 'SPEC.md');

interface SpecRow {
  method: string;
  path: string;
  scope: string;
  errors: number[];
}

function specEndpoints(): SpecRow[] {
  return readFileSync(specPath, 'utf8')
    .split('\n')
    .filter((line) => /^\| (GET|POST) \/v1\//.test(line))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\|\s*|\s*\|$/g, '').trim());
      const [method, path] = cells[0]!.split(' ') as [string, string];
      return { method, path, scope: cells[1]!, errors: cells[cells.length - 1]!.split(',').map((s) => Number(s.trim())) };
    });
}

describe('SPEC.md Endpoints table', function () {
  before(function () {
    if (!existsSync(specPath)) this.skip();
  });

  it('every SPEC.md operation exists with its scope and exactly its error statuses, in the OpenAPI document too', async () => {
    const rows = specEndpoints();
    expect(rows.length).to.be.greaterThan(20);
    const doc = (await call('GET', '/v1/openapi.json')).body;
    for (const row of rows) {
      const route = routes.find((r) => r.method === row.method && r.path === row.path);
      expect(route, `${row.method} ${row.path}`).to.not.equal(undefined);
      expect(route!.scope, `${row.method} ${row.path}`).to.equal(row.scope);
      expect(
        [...route!.errors].sort((a, b) => a - b),
        `${row.method} ${row.path}`,
      ).to.deep.equal(row.errors);
      // The document lists SPEC.md's statuses plus those every route of its kind answers
      // (api/openapi.ts commonStatuses: 503 during an outage of our database or Temporal on every
      // operation, where SPEC.md names only POST /v1/mailings).
      const operation = doc.paths[row.path][row.method.toLowerCase()];
      const documented = Object.keys(operation.responses)
        .map(Number)
        .filter((s) => s >= 400);
      const common = commonStatuses(route!);
      expect(documented, `${row.method} ${row.path}`).to.include.members(row.errors);
      for (const extra of documented.filter((s) => !row.errors.includes(s)))
        expect(common.has(extra), `${row.method} ${row.path} documents ${extra}, which is neither in SPEC.md nor common to its kind`).to.equal(true);
      expect(
        documented.filter((s) => !row.errors.includes(s)),
        `${row.method} ${row.path}`,
      ).to.deep.equal(row.errors.includes(503) ? [] : [503]);
    }
  });

  it('every other /v1 operation is one of the documented extensions', () => {
    const spec = new Set(specEndpoints().map((r) => `${r.method} ${r.path}`));
    const extra = routes.filter((r) => r.path.startsWith('/v1/') && !spec.has(`${r.method} ${r.path}`)).map((r) => `${r.method} ${r.path}`);
    // DESIGN.md §2 (cancel), the proof download behind ProofLink, the public OpenAPI document, the quote of a mailing (issue 28),
    // mailing batches (issue 29) and the erasure of a mailing's personal data (issue 53).
    expect(extra.sort()).to.deep.equal(
      [
        'GET /v1/proof-files/{token}',
        'GET /v1/openapi.json',
        'POST /v1/mailings/{id}/cancel',
        'POST /v1/mailing-quotes',
        'POST /v1/mailing-batches',
        'GET /v1/mailing-batches',
        'GET /v1/mailing-batches/{id}',
        'POST /v1/mailings/{id}/erase',
      ].sort(),
    );
  });
});
