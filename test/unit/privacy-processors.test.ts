import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROCESSORS, processorsMarkdown } from '../../domain/privacy/processors.js';

// Read from the sources, not dist/: from dist/test/unit/ up to the project root.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const privacy = readFileSync(join(root, 'docs/privacy.md'), 'utf8');

/** The text of a `## ` section of docs/privacy.md, up to the next one. */
function section(title: string): string {
  const start = privacy.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/privacy.md has no "## ${title}"`);
  const end = privacy.indexOf('\n## ', start + 1);
  return privacy.slice(start, end < 0 ? undefined : end);
}

describe('docs/privacy.md: the sub-processors are domain/privacy/processors.ts', () => {
  it('shows the module’s table exactly (paste processorsMarkdown() after a change)', () => {
    const tables = section('Sub-processors')
      .split('\n\n')
      .filter((block) => block.trimStart().startsWith('| Sub-processor |'));
    expect(tables, 'one table of sub-processors').to.have.length(1);
    expect(tables[0]!.trim()).to.equal(processorsMarkdown());
  });

  it('names every kind of sub-processor the issue lists, each once, with what it receives and where it is hosted', () => {
    const ids = PROCESSORS.map((p) => p.id);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ids).to.include.members([
      'postal-operator',
      'registered-email',
      'payments',
      'email',
      'ai',
      'embeddings',
      'geocoding',
      'companies',
      'routing',
      'fuel',
    ]);
    for (const p of PROCESSORS)
      for (const text of [p.name, p.hosted.en, p.hosted.fr, p.receives.en, p.receives.fr, p.purpose.en, p.purpose.fr]) expect(text, p.id).to.not.equal('');
  });

  it('has the sections a data protection officer asks for; the durations are left to the retention rules', () => {
    for (const title of ['Processing register', 'Retention', 'Security measures', 'Sub-processors', 'Data processing agreement (template)']) section(title);
    const dpa = section('Data processing agreement (template)');
    for (const clause of ['(3)(a)', '(3)(b)', '(3)(c)', '(3)(d)', '(3)(e)', '(3)(f)', '(3)(g)', '(3)(h)', 'art. 33(2)']) expect(dpa).to.include(clause);
  });
});
