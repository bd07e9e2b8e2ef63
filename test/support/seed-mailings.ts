import type { Db } from '../../db/knex.js';

/** Statuses the seeded mailings spread over, as an account's history would hold them. */
const STATUSES = ['paid', 'printed', 'posted', 'in_transit', 'delivered', 'ar_signed', 'canceled', 'returned'];
/** One seeded mailing in RARE_EVERY ended in RARE_STATUS: a filter that matches few rows must not scan them all. */
export const RARE_STATUS = 'error';
export const RARE_EVERY = 1000;
/** One seeded mailing in REFERENCE_EVERY carries the reference REFERENCE (a customer's batch label). */
export const REFERENCE = 'bench-batch-7';
const REFERENCE_EVERY = 500;
/** Statuses that come after the filing, so with its proof. */
const FILED = ['posted', 'in_transit', 'delivered', 'ar_signed', 'returned'];

export interface SeedOptions {
  /**
   * One mailing in `testEvery` keeps the template's environment, the others get the other one
   * (an account's test and live history side by side); all keep it when absent.
   */
  testEvery?: number;
  /** Each mailing past its filing gets its filing proof (a few bytes standing for the PDF). */
  proofs?: boolean;
}

/**
 * `count` copies of a mailing already made through the API, spread over the last `count` minutes,
 * statuses and references, each with its first event: an account's history for the list and
 * cold-read scenarios (`options`: test and live side by side, filing proofs). One statement per
 * table; the columns are read from the table itself, so a new column needs nothing here.
 */
export async function seedMailings(db: Db, template: string, count: number, options: SeedOptions = {}): Promise<void> {
  const columns = (await db('information_schema.columns').where({ table_name: 'shipments' }).pluck('column_name')) as string[];
  const computed: Record<string, string> = {
    id: 'gen_random_uuid()',
    status: `CASE WHEN i % ${RARE_EVERY} = 7 THEN '${RARE_STATUS}' ELSE (ARRAY['${STATUSES.join("','")}'])[1 + i % ${STATUSES.length}] END`,
    step: `i % 4`,
    reference: `CASE WHEN i % ${REFERENCE_EVERY} = 0 THEN '${REFERENCE}' ELSE 'ref-' || i END`,
    tracking_number: `'SV' || lpad(i::text, 11, '0')`,
    created_at: `t.created_at - i * interval '1 minute'`,
    updated_at: `t.created_at - i * interval '1 minute'`,
    ...(options.testEvery !== undefined ? { test: `CASE WHEN i % ${Math.trunc(options.testEvery)} = 0 THEN t.test ELSE NOT t.test END` } : {}),
  };
  const list = columns.map((c) => `"${c}"`).join(', ');
  const values = columns.map((c) => computed[c] ?? `t."${c}"`).join(', ');
  await db.raw(`INSERT INTO shipments (${list}) SELECT ${values} FROM shipments t, generate_series(1, ?) i WHERE t.id = ?`, [count, template]);
  await db.raw(
    `INSERT INTO shipment_events (shipment_id, step, status, at)
     SELECT s.id, 0, 'paid', s.created_at FROM shipments s WHERE s.account_id = (SELECT account_id FROM shipments WHERE id = ?) AND s.id <> ?
     ON CONFLICT DO NOTHING`,
    [template, template],
  );
  if (options.proofs)
    await db.raw(
      `INSERT INTO shipment_proofs (shipment_id, kind, pdf, created_at)
       SELECT s.id, 'filing', '\\x255044462d', s.created_at + interval '1 hour' FROM shipments s
       WHERE s.account_id = (SELECT account_id FROM shipments WHERE id = ?) AND s.id <> ? AND s.status IN ('${FILED.join("','")}')
       ON CONFLICT DO NOTHING`,
      [template, template],
    );
  // Vacuumed and analyzed as a table in service is: otherwise autovacuum's first pass over the new
  // rows runs during whatever is measured next (a bench round, a plan).
  await db.raw('VACUUM (ANALYZE) shipments, shipment_events, shipment_proofs');
}

/** Ids of the seeded mailings, for reads of many different mailings. */
export async function seededIds(db: Db, template: string): Promise<string[]> {
  return (await db('shipments')
    .where('account_id', db('shipments').select('account_id').where({ id: template }))
    .whereNot({ id: template })
    .pluck('id')) as string[];
}

export { REFERENCE_EVERY };
