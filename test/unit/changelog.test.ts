import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { openApiFingerprint } from '../../api/openapi.js';
import { routes } from '../../api/routes/index.js';
import { API_VERSION } from '../../domain/version.js';
import { parisDate } from '../../lib/paris-time.js';

// Read independently of the code under test: from dist/test/unit/ up to the project root.
const changelog = readFileSync(new URL('../../../CHANGELOG.md', import.meta.url), 'utf8');

/** Keep a Changelog's sections in their order, then ours for what changes no request or answer. */
const SECTIONS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security', 'Not in the API'];

interface Release {
  /** `Unreleased`, or the release's day (Europe/Paris). */
  name: string;
  /** The API version the release serves; none for `Unreleased`. */
  version?: string;
  /** The lines under the heading. */
  lines: string[];
}

/**
 * `## Unreleased` first, then the dated releases `## YYYY-MM-DD (API x.y.z)`, newest first; the
 * closing `## Before …` describes where the changelog starts and is left out.
 */
function releases(markdown: string): Release[] {
  const found: Release[] = [];
  const parts = markdown.split(/^## /m).slice(1);
  parts.forEach((part, index) => {
    const [heading, ...lines] = part.split('\n');
    if (heading!.startsWith('Before ')) {
      if (index !== parts.length - 1) throw new Error(`CHANGELOG.md: "## ${heading}" is not the last heading`);
      return;
    }
    if (heading === 'Unreleased') {
      if (index !== 0) throw new Error('CHANGELOG.md: "## Unreleased" is not the first heading');
      found.push({ name: 'Unreleased', lines });
      return;
    }
    const dated = /^(\d{4}-\d{2}-\d{2}) \(API (\d+\.\d+\.\d+)\)$/.exec(heading!);
    if (!dated) throw new Error(`a CHANGELOG.md heading neither "## Unreleased" nor "## YYYY-MM-DD (API x.y.z)": ${heading}`);
    found.push({ name: dated[1]!, version: dated[2]!, lines });
  });
  if (found[0]?.name !== 'Unreleased') throw new Error('CHANGELOG.md has no "## Unreleased" heading first');
  return found;
}

/** A release's `###` sections, in the order written, each with its bullets (lines `- …` at column 0). */
function sectionsOf(release: Release): { name: string; bullets: string[] }[] {
  const sections: { name: string; bullets: string[] }[] = [];
  for (const line of release.lines) {
    const heading = /^### (.*)$/.exec(line);
    if (heading) sections.push({ name: heading[1]!, bullets: [] });
    else if (line.startsWith('- ')) {
      if (sections.length === 0) throw new Error(`CHANGELOG.md ${release.name}: a bullet outside a ### section: ${line}`);
      sections.at(-1)!.bullets.push(line);
    }
  }
  return sections;
}

const FINGERPRINT = /^OpenAPI fingerprint: `([0-9a-f]{64})`$/;
const fingerprintsOf = (release: Release) => release.lines.flatMap((line) => FINGERPRINT.exec(line)?.[1] ?? []);
const lastLineOf = (release: Release) => release.lines.filter((line) => line.trim() !== '').at(-1);

/** `1.10.0` after `1.9.0`: compared as numbers. */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! - y![i]!;
  return 0;
}

describe('CHANGELOG.md: every change a client can see has its entry', () => {
  const all = releases(changelog);
  const unreleased = all[0]!;
  const dated = all.slice(1);
  const hasEntries = (release: Release) => sectionsOf(release).length > 0;

  it('has "## Unreleased", then one release per day, newest first, none in the future', () => {
    expect(dated.length).to.be.greaterThan(0);
    const dates = dated.map((r) => r.name);
    expect(dates).to.deep.equal([...new Set(dates)].sort().reverse());
    expect(dates[0]! <= parisDate()).to.equal(true);
  });

  it('gives each release the API version it serves, never going down', () => {
    const versions = dated.map((r) => r.version!);
    for (let i = 1; i < versions.length; i++) {
      expect(compareVersions(versions[i - 1]!, versions[i]!), `${dated[i - 1]!.name} after ${dated[i]!.name}`).to.be.at.least(0);
    }
    // The version may change only where the change is written: in Unreleased, before its release.
    if (hasEntries(unreleased)) expect(compareVersions(API_VERSION, versions[0]!)).to.be.at.least(0);
    else expect(versions[0], "the newest release's version is not domain/version.ts's").to.equal(API_VERSION);
  });

  it('sorts every entry under the sections of Keep a Changelog, in their order, and "Not in the API" last', () => {
    for (const release of all) {
      const sections = sectionsOf(release);
      const names = sections.map((s) => s.name);
      expect(names, `${release.name}: "### Removed": a breaking change needs /v2 (docs/api-versioning.md)`).to.not.include('Removed');
      for (const name of names) expect(SECTIONS, `${release.name}: "### ${name}"`).to.include(name);
      expect(names, `${release.name}: sections out of order or repeated`).to.deep.equal(SECTIONS.filter((name) => names.includes(name)));
      for (const section of sections) {
        expect(section.bullets.length, `${release.name}: "### ${section.name}" is empty`).to.be.greaterThan(0);
        // The section says what the bullet is: the old lead words drifting back into a bullet are refused.
        for (const bullet of section.bullets) expect(bullet, release.name).to.not.match(/^- (Added|Changed|Deprecated|Removed|Fixed)\b/);
        if (section.name === 'Not in the API') {
          for (const bullet of section.bullets) expect(bullet, `${release.name}: led by its area`).to.match(/^- [A-Z][^:`]*: /);
        }
      }
      if (release !== unreleased) expect(names.length, `${release.name} says nothing`).to.be.greaterThan(0);
    }
  });

  it('ends each release, and Unreleased once it has an entry, with one fingerprint line', () => {
    for (const release of all) {
      const expected = release === unreleased && !hasEntries(release) ? 0 : 1;
      expect(fingerprintsOf(release), `${release.name}: OpenAPI fingerprint lines`).to.have.length(expected);
      if (expected) expect(lastLineOf(release), `${release.name}: the fingerprint is not its last line`).to.match(FINGERPRINT);
    }
  });

  it('says what changed for a client when the document changed', () => {
    const withFingerprint = all.filter((release) => fingerprintsOf(release).length > 0);
    for (let i = 0; i < withFingerprint.length - 1; i++) {
      const [release, previous] = [withFingerprint[i]!, withFingerprint[i + 1]!];
      if (fingerprintsOf(release)[0] === fingerprintsOf(previous)[0]) continue;
      const sections = sectionsOf(release);
      const saysIt =
        sections.some((s) => s.name !== 'Not in the API') || sections.some((s) => s.bullets.some((bullet) => bullet.startsWith('- OpenAPI document only: ')));
      expect(saysIt, `${release.name}: the document changed: say what changed for a client under Added/Changed/Deprecated/Fixed`).to.equal(true);
    }
  });

  it("records the fingerprint of today's OpenAPI document last: Unreleased's once it has an entry, else the newest release's", () => {
    const newest = hasEntries(unreleased) ? unreleased : dated[0]!;
    expect(
      fingerprintsOf(newest)[0],
      'the OpenAPI document changed: describe the change under "## Unreleased" in CHANGELOG.md and end it with `npm run openapi:fingerprint`',
    ).to.equal(openApiFingerprint(routes));
  });

  it('names nothing outside the repository', () => {
    for (const [index, line] of changelog.split('\n').entries()) {
      expect(line, `CHANGELOG.md line ${index + 1}`).to.not.match(/SPEC\.md|DESIGN\.md|\.\.\/shared/);
    }
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
