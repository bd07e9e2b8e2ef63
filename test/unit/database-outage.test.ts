import { expect } from 'chai';
import { isDatabaseUnavailable } from '../../db/knex.js';

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable: an outage of the database, told apart from a wrong statement', () => {
  it('recognises refused, reset and dropped connections, shutdowns, start-ups and an empty pool', () => {
    const timeout = new Error('Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?');
    timeout.name = 'KnexTimeoutError';
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      new Error('select 1 - Connection terminated unexpectedly'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      withCode('sorry, too many clients already', '53300'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      new Error('wrapped', { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
      timeout,
    ])
      expect(isDatabaseUnavailable(error), error.message).to.equal(true);
  });

  it('leaves a statement error, a query timeout and anything else to the usual 500', () => {
    const queryTimeout = new Error('Defined query timeout of 1000ms exceeded when running query.');
    queryTimeout.name = 'KnexTimeoutError';
    for (const error of [
      withCode('duplicate key value violates unique constraint "x"', '23505'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('relation "x" does not exist', '42P01'),
      queryTimeout,
      new TypeError('Cannot read properties of undefined'),
      'a string',
      undefined,
    ])
      expect(isDatabaseUnavailable(error), String(error)).to.equal(false);
  });
});
