import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { preparedQuery, type Db, type Tx } from '../../db/knex.js';
import { stack } from '../support/stack.js';

/**
 * preparedQuery inside a transaction (each move of a mailing reads and writes through it): it runs
 * on the transaction's own connection, so it sees what the transaction wrote and rolls back with
 * it; it refuses to run once the transaction is over; a named statement stays usable after a
 * rollback, and after a failed use in an aborted transaction.
 */
describe('prepared statements in a transaction', () => {
  const table = `prepared_query_${randomUUID().replace(/-/g, '')}`;
  const insert = (value: string): string => `INSERT INTO ${table} (value) VALUES ('${value}')`;
  const countSql = `SELECT count(*)::int AS n FROM ${table} WHERE value = $1`;
  const count = async (db: Db | Tx, value: string): Promise<number> => (await preparedQuery<{ n: number }>(db, `${table}-count`, countSql, [value]))[0]!.n;

  before(async () => {
    await stack().db.raw(`CREATE TABLE ${table} (value text NOT NULL)`);
  });
  after(async () => {
    await stack().db.raw(`DROP TABLE ${table}`);
  });

  it("runs on the transaction's connection: it sees the transaction's writes, which roll back with it", async () => {
    const { db } = stack();
    await db
      .transaction(async (trx) => {
        await trx.raw(insert('rolled back'));
        expect(await count(trx, 'rolled back')).to.equal(1);
        // Another connection does not see the uncommitted row.
        expect(await count(db, 'rolled back')).to.equal(0);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).to.equal('roll back'));
    expect(await count(db, 'rolled back')).to.equal(0);
  });

  it('commits with the transaction, and many transactions at once each see their own rows', async () => {
    const { db } = stack();
    const values = Array.from({ length: 12 }, (_, i) => `committed ${i}`);
    const seen = await Promise.all(
      values.map((value) =>
        db.transaction(async (trx) => {
          await trx.raw(insert(value));
          return count(trx, value);
        }),
      ),
    );
    expect(seen).to.deep.equal(values.map(() => 1));
    for (const value of values) expect(await count(db, value)).to.equal(1);
  });

  it('refuses to run once the transaction is over', async () => {
    const { db } = stack();
    let over: Db | Tx | undefined;
    await db.transaction(async (trx) => {
      over = trx;
    });
    let refused: unknown;
    await count(over!, 'any').catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/transaction is over/);
  });

  it('a statement prepared in a transaction that failed is still usable afterwards', async () => {
    const { db } = stack();
    const name = `${table}-late`;
    const text = `SELECT count(*)::int AS n FROM ${table}`;
    await db
      .transaction(async (trx) => {
        await trx.raw('SELECT 1 / 0').catch(() => undefined); // the transaction is now aborted
        await preparedQuery(trx, name, text, []); // its parse is refused by the server
      })
      .catch((error: Error) => expect(error.message).to.match(/aborted/));
    // Every pool connection the statement may land on parses it again if it never did.
    const runs = await Promise.all(Array.from({ length: 10 }, () => preparedQuery<{ n: number }>(db, name, text, [])));
    for (const [row] of runs) expect(row!.n).to.be.a('number');
  });

  it('a bounded statement is cancelled on the server past its time (it cannot commit later), and its connection serves again', async () => {
    const { db } = stack();
    const value = `bounded ${randomUUID()}`;
    const slowInsert = `WITH pause AS (SELECT pg_sleep(3)) INSERT INTO ${table} (value) SELECT $1 FROM pause`;
    const begun = performance.now();
    let failure: { code?: string } | undefined;
    await preparedQuery(db, `${table}-slow`, slowInsert, [value], { timeoutMs: 200 }).catch((error: { code?: string }) => (failure = error));
    expect(failure?.code).to.equal('57014');
    expect(performance.now() - begun).to.be.below(2500);
    // Nothing was written, then or later.
    await new Promise((resolve) => setTimeout(resolve, 3200));
    expect(await count(db, value)).to.equal(0);
    // Within its time it runs as any other; the pool's connections all answer.
    expect(await preparedQuery<{ n: number }>(db, `${table}-quick`, `SELECT 1 AS n`, [], { timeoutMs: 2000 })).to.deep.equal([{ n: 1 }]);
    const counts = await Promise.all(Array.from({ length: 10 }, () => count(db, value)));
    expect(counts).to.deep.equal(counts.map(() => 0));
  });
});
