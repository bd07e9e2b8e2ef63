import type { Db } from '../../db/knex.js';

/**
 * Partner answers shared by every API process through Postgres. A miss runs `load`; its answer is
 * kept for `ttlSeconds` (geocoding: days; company profiles: hours; fuel prices: until the next
 * publication).
 */
export async function cached<T>(db: Db, key: string, ttlSeconds: number, load: () => Promise<T>): Promise<{ value: T; hit: boolean }> {
  const row = await db('partner_cache').where({ key }).andWhere('expires_at', '>', db.fn.now()).first('value');
  if (row) return { value: row.value as T, hit: true };
  const value = await load();
  await db('partner_cache')
    .insert({ key, value: JSON.stringify(value), expires_at: db.raw(`now() + make_interval(secs => ?)`, [ttlSeconds]) })
    .onConflict('key')
    .merge();
  return { value, hit: false };
}

export async function purgeExpiredCache(db: Db): Promise<number> {
  return db('partner_cache').where('expires_at', '<=', db.fn.now()).delete();
}
