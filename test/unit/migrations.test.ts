import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

/**
 * Migrations read as an operator going live would: none may lock a table that holds rows for as
 * long as an index takes to build. From 20261204 on, an index on an existing table is built with
 * db/concurrent-index.ts, in a migration that runs outside a transaction; an index of a table the
 * same migration creates is free (nobody writes to it yet). Earlier migrations are kept as they
 * ran: they built their indexes on tables that were empty or new in every deployment then.
 */
const FIRST_CHECKED = '20261204';
const dir = join(projectRoot, 'db', 'migrations');
const sources = readdirSync(dir)
  .filter((file) => file.endsWith('.ts') && file >= FIRST_CHECKED)
  .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));

/** The names of the tables a migration creates. */
const createdTables = (text: string): Set<string> =>
  new Set([...text.matchAll(/createTable\(\s*'([a-z_]+)'|CREATE\s+TABLE\s+(?:IF NOT EXISTS\s+)?([a-z_]+)/gi)].map((match) => (match[1] ?? match[2])!));

/** The tables a migration indexes outside createTable: in an alterTable block, or by plain SQL. */
function blockingIndexes(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/alterTable\(\s*'([a-z_]+)'[\s\S]*?\n {2}\}\);/g)) if (/\.(index|unique)\(/.test(match[0])) found.push(match[1]!);
  for (const match of text.matchAll(/CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?!CONCURRENTLY)(?:IF NOT EXISTS\s+)?\S+\s+ON\s+([a-z_]+)/gi)) found.push(match[1]!);
  return found;
}

describe('migrations', () => {
  it('are checked from the first one written under this rule', () => {
    expect(sources.map((source) => source.file)).to.include('20261204000100_batch_list_index_concurrently.ts');
  });

  for (const { file, text } of sources)
    it(`${file}: indexes an existing table only concurrently, outside a transaction`, () => {
      const created = createdTables(text);
      expect(blockingIndexes(text).filter((table) => !created.has(table))).to.deep.equal([]);
      if (/createIndexConcurrently|CONCURRENTLY/.test(text)) expect(text).to.match(/export const config = \{ transaction: false \}/);
    });

  it('the check finds a blocking index where there is one', () => {
    const alter = "await knex.schema.alterTable('shipments', (t) => {\n    t.index(['reference']);\n  });";
    expect(blockingIndexes(alter)).to.deep.equal(['shipments']);
    expect(blockingIndexes("await knex.raw('CREATE INDEX by_ref ON shipments (reference)');")).to.deep.equal(['shipments']);
    expect(blockingIndexes("await knex.raw('CREATE INDEX CONCURRENTLY by_ref ON shipments (reference)');")).to.deep.equal([]);
    // A table the same migration creates, in SQL, is free to index.
    expect([...createdTables('CREATE TABLE account_closings (id uuid)')]).to.deep.equal(['account_closings']);
  });
});
