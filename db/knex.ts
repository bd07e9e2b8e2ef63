import knexFactory, { type Knex } from 'knex';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Db = Knex;
export type Tx = Knex.Transaction;

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export function createDb(databaseUrl: string, poolMax = 10): Db {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    migrations: { directory: migrationsDir, loadExtensions: ['.js'], tableName: 'knex_migrations' },
  });
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}
