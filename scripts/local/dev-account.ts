import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../db/knex.js';
import { createApiKey } from '../../domain/access/keys.js';
import { SCOPES } from '../../domain/access/scopes.js';

interface DevAccount {
  accountId: string;
  testKey: string;
}

/**
 * The local development account, seeded once. Its sandbox key is kept in clear only here, in the
 * local data folder, so that `npm start` can print it on every start.
 */
export async function ensureDevAccount(db: Db, dataDir: string): Promise<DevAccount> {
  const file = join(dataDir, 'dev-account.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DevAccount;
    if (await db('accounts').where({ id: saved.accountId }).first()) return saved;
  }
  const [account] = await db('accounts').insert({ name: 'Local development' }).returning('id');
  const { key } = await createApiKey(db, account.id, 'test', SCOPES);
  const seeded = { accountId: account.id as string, testKey: key };
  writeFileSync(file, JSON.stringify(seeded, null, 2) + '\n', { mode: 0o600 });
  return seeded;
}
