import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { openApiFingerprint } from '../../api/openapi.js';
import { routes } from '../../api/routes/index.js';
import { parisDate } from '../../lib/paris-time.js';

// Read independently of the code under test: from dist/test/unit/ up to the project root.
const changelog = readFileSync(new URL('../../../CHANGELOG.md', import.meta.url), 'utf8');

interface Entry {
  date: string;
  text: string;
}

/** The dated entries (`## YYYY-MM-DD`), newest first; the closing `## Before …` describes where it starts. */
function entries(markdown: string): Entry[] {
  const found: Entry[] = [];
  for (const section of markdown.split(/^## /m).slice(1)) {
    if (section.startsWith('Before ')) continue;
    const heading = /^(\d{4}-\d{2}-\d{2})\n/.exec(section);
    if (!heading) throw new Error(`a CHANGELOG.md entry without "## YYYY-MM-DD": ${section.split('\n')[0]}`);
    found.push({ date: heading[1]!, text: section });
  }
  return found;
}

const fingerprintOf = (entry: Entry) => /^OpenAPI fingerprint: `([0-9a-f]{64})`$/m.exec(entry.text)?.[1];

describe('CHANGELOG.md: every change a client can see has its entry', () => {
  const all = entries(changelog);

  it('has one entry per day, newest first, none in the future, each saying what changed', () => {
    expect(all.length).to.be.greaterThan(0);
    const dates = all.map((e) => e.date);
    expect(dates).to.deep.equal([...new Set(dates)].sort().reverse());
    expect(dates[0]! <= parisDate()).to.equal(true);
    for (const entry of all) expect(entry.text, entry.date).to.match(/^- (Added|Changed|Deprecated|Fixed)/m);
  });

  it("the newest entry records the fingerprint of today's OpenAPI document", () => {
    expect(
      fingerprintOf(all[0]!),
      "the OpenAPI document changed: describe the change in CHANGELOG.md (today's entry) and record `npm run openapi:fingerprint`",
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
