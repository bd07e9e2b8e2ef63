import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ACCOUNTING_RETENTION_YEARS,
  isAllowedRetention,
  MAILING_RETENTION_DEFAULT_DAYS,
  MAILING_RETENTION_MAX_DAYS,
  MAILING_RETENTION_MIN_DAYS,
  RETENTION_RULES,
} from '../../domain/privacy/retention.js';
import { erasedDocument } from '../../domain/mailings/erase.js';

// Read from the sources, not dist/: from dist/test/unit/ up to the project root.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

describe('retention rules (domain/privacy/retention.ts)', () => {
  it('docs/retention.md shows the rules word for word, one row each, in order', () => {
    const doc = read('docs/retention.md');
    const end = doc.indexOf('\n## ');
    const rows = doc
      .slice(0, end)
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Data |'))
      .map((line) =>
        line
          .slice(2, -2)
          .split(' | ')
          .map((cell) => cell.trim()),
      );
    expect(rows).to.deep.equal(RETENTION_RULES.map((r) => [r.data, r.duration, r.reason, r.appliedBy]));
  });

  it('bounds the account setting: the default within, at least 30 days, at most ten years; the migration checks the same bounds', () => {
    expect(isAllowedRetention(MAILING_RETENTION_DEFAULT_DAYS)).to.equal(true);
    expect(MAILING_RETENTION_DEFAULT_DAYS, 'five years (Code civil art. 2224) and a day').to.equal(5 * 365 + 2);
    for (const days of [MAILING_RETENTION_MIN_DAYS, MAILING_RETENTION_MAX_DAYS]) expect(isAllowedRetention(days), String(days)).to.equal(true);
    for (const days of [MAILING_RETENTION_MIN_DAYS - 1, MAILING_RETENTION_MAX_DAYS + 1, 100.5, Number.NaN])
      expect(isAllowedRetention(days), String(days)).to.equal(false);
    const migration = read('db/migrations/20261205000200_retention.ts');
    expect(migration).to.include(`DEFAULT ${MAILING_RETENTION_DEFAULT_DAYS}`);
    expect(migration).to.include(`BETWEEN ${MAILING_RETENTION_MIN_DAYS} AND ${MAILING_RETENTION_MAX_DAYS}`);
    expect(ACCOUNTING_RETENTION_YEARS).to.equal(10);
    expect(RETENTION_RULES.find((r) => r.data.startsWith('Invoices'))!.reason).to.include('L123-22');
  });

  it('an erased document keeps its kind, hash and sheets, a catalogue letter its title; never its text', () => {
    expect(erasedDocument({ kind: 'free', title: 'Relance M. Martin', text: 'Cher Jean' })).to.deep.equal({ kind: 'free', title: '(effacé)', text: '' });
    expect(
      erasedDocument({ kind: 'catalogue', title: 'Résiliation de bail', text: 'Je soussigné', letter: { slug: 'resiliation-bail', provider: null } }),
    ).to.deep.equal({ kind: 'catalogue', title: 'Résiliation de bail', text: '', letter: { slug: 'resiliation-bail', provider: null } });
    const sha256 = 'a'.repeat(64);
    expect(erasedDocument({ kind: 'pdf', title: 'Mon courrier', text: '', sha256, pages: 2, sheets: 2, addressPlacement: 'insert_blank_page' })).to.deep.equal({
      kind: 'pdf',
      title: '(effacé)',
      text: '',
      sha256,
      pages: 2,
      sheets: 2,
      addressPlacement: 'insert_blank_page',
    });
  });
});
