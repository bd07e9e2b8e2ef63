import { expect } from 'chai';
import { CircuitBreaker, throughBreaker } from '../../domain/lookups/breaker.js';
import { serviceUnavailable, upstreamError } from '../../domain/errors.js';

/** The breaker's rules on a clock of the test's own (domain/lookups/breaker.ts). */
describe('a partner circuit breaker', () => {
  let now = 0;
  const clock = (): number => now;
  const breaker = (): CircuitBreaker => new CircuitBreaker('geocoder', { failures: 3, coolDownMs: 1000 }, clock);
  beforeEach(() => (now = 1_000_000));

  it('opens after the set number of failures in a row; an answer in between starts the count again', () => {
    const b = breaker();
    b.attempt()!.failed();
    b.attempt()!.failed();
    b.attempt()!.succeeded();
    b.attempt()!.failed();
    b.attempt()!.failed();
    expect(b.state).to.equal('closed');
    b.attempt()!.failed();
    expect(b.state).to.equal('open');
    expect(b.attempt()).to.equal(undefined);
    expect(b.refused).to.equal(1);
  });

  it('lets one probe through after the cool-down, refuses the others meanwhile, and closes on its answer', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) b.attempt()!.failed();
    now += 999;
    expect(b.attempt()).to.equal(undefined);
    now += 1;
    expect(b.state).to.equal('half_open');
    const probe = b.attempt()!;
    expect(b.attempt(), 'a second call while the probe runs').to.equal(undefined);
    probe.succeeded();
    expect(b.state).to.equal('closed');
    expect(b.attempt()).to.not.equal(undefined);
  });

  it('opens again at once when the probe fails, for a whole new cool-down', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) b.attempt()!.failed();
    now += 1000;
    b.attempt()!.failed();
    expect(b.state).to.equal('open');
    now += 999;
    expect(b.state).to.equal('open');
    now += 1;
    expect(b.state).to.equal('half_open');
  });

  it('counts the first outcome of an attempt only: a deadline passed, then a late answer, is one failure', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) {
      const attempt = b.attempt()!;
      attempt.failed();
      attempt.succeeded();
    }
    expect(b.state).to.equal('open');
  });

  it('an abandoned probe (our own outage) frees its place without judging the partner', () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) b.attempt()!.failed();
    now += 1000;
    b.attempt()!.abandoned();
    expect(b.state).to.equal('half_open');
    expect(b.attempt()).to.not.equal(undefined);
  });

  it("throughBreaker: a partner's failure counts, Temporal unreachable does not; open, the refusal comes without calling", async () => {
    const b = breaker();
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(upstreamError('down'));
    };
    const refusal = () => new Error('open');
    await throughBreaker(b, refusal, () => Promise.reject(serviceUnavailable('Temporal away'))).catch(() => undefined);
    for (let i = 0; i < 3; i++) await throughBreaker(b, refusal, failing).catch(() => undefined);
    expect(b.state).to.equal('open');
    expect(calls).to.equal(3);
    const error = await throughBreaker(b, refusal, failing).catch((e: Error) => e);
    expect((error as Error).message).to.equal('open');
    expect(calls).to.equal(3);
  });
});
