import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { openApiFingerprint } from '../../api/openapi.js';
import { routes } from '../../api/routes/index.js';
import { API_VERSION } from '../../domain/version.js';
import { parisDate } from '../../lib/paris-time.js';

// Read independently of the code under test: from dist/test/unit/ up to the project root.
const changelog = readFileSync(new URL('../../../CHANGELOG.md', import.meta.url), 'utf8');

interface Entry {
  version: string;
  date: string;
  text: string;
}

function entries(markdown: string): Entry[] {
  const found: Entry[] = [];
  for (const section of markdown.split(/^## /m).slice(1)) {
    const heading = /^(\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2})\n/.exec(section);
    if (!heading) throw new Error(`a CHANGELOG.md entry without "## <version> — <YYYY-MM-DD>": ${section.split('\n')[0]}`);
    found.push({ version: heading[1]!, date: heading[2]!, text: section });
  }
  return found;
}

const fingerprintOf = (entry: Entry) => /^OpenAPI fingerprint: `([0-9a-f]{64})`$/m.exec(entry.text)?.[1];

describe('CHANGELOG.md: every change a client can see has its entry', () => {
  const all = entries(changelog);

  it('has dated entries, newest first, none in the future, each with a distinct version', () => {
    expect(all.length).to.be.greaterThan(0);
    const dates = all.map((e) => e.date);
    expect(dates).to.deep.equal([...dates].sort().reverse());
    expect(dates[0]! <= parisDate()).to.equal(true);
    expect(new Set(all.map((e) => e.version)).size).to.equal(all.length);
  });

  it("the newest entry is the API's version and records the fingerprint of today's OpenAPI document", () => {
    const newest = all[0]!;
    expect(newest.version, 'domain/version.ts API_VERSION').to.equal(API_VERSION);
    expect(
      fingerprintOf(newest),
      'the OpenAPI document changed: describe the change in a new CHANGELOG.md entry and record `npm run openapi:fingerprint`',
    ).to.equal(openApiFingerprint(routes));
  });

  it('the fingerprint follows any change of the contract, and only of the contract', () => {
    const before = openApiFingerprint(routes);
    const route = routes.find((r) => r.operationId === 'getOpenApi')!;
    const summary = route.summary;
    try {
      route.summary = `${summary} (changed)`;
      expect(openApiFingerprint(routes)).to.not.equal(before);
    } finally {
      route.summary = summary;
    }
    expect(openApiFingerprint(routes)).to.equal(before);
  });
});
