import { expect } from 'chai';
import { call, spawnApiProcess } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freePort } from '../../lib/net/ports.js';

describe('GET /health', function () {
  this.timeout(60_000);

  it('says Postgres, Temporal and a worker are up, from the poller list, without starting a workflow', async () => {
    const { client } = stack().temporal;
    const healthRuns = async (): Promise<number> => (await client.workflow.count(`WorkflowType = 'healthCheck'`)).count;
    const before = await healthRuns();
    const res = await call('GET', '/health');
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('retry-after')).to.equal(null);
    expect(res.body).to.have.keys('status', 'checkedAt', 'postgres', 'temporal', 'worker', 'partners');
    expect(res.body.status).to.equal('ok');
    expect([res.body.postgres.ok, res.body.temporal.ok, res.body.worker.ok]).to.deep.equal([true, true, true]);
    expect(Date.parse(res.body.worker.lastPollAt)).to.be.closeTo(Date.now(), 90_000);
    for (let i = 0; i < 5; i++) await call('GET', '/health');
    expect(await healthRuns()).to.equal(before);
  });

  it('is measured once for a burst of callers (the result is shared for a few seconds)', async () => {
    const burst = await Promise.all(Array.from({ length: 50 }, () => call('GET', '/health')));
    expect(burst.every((r) => r.status === 200)).to.equal(true);
    // A burst may straddle the end of one sharing period, never more.
    expect(new Set(burst.map((r) => r.body.checkedAt)).size).to.be.at.most(2);
  });

  it('names the component that is down, with Retry-After, and no address, port or driver message', async () => {
    const port = await freePort();
    const api = await spawnApiProcess({ TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
    try {
      const res = await call('GET', '/health', { baseUrl: api.url });
      expect(res.status, res.text).to.equal(503);
      expect(res.headers.get('retry-after')).to.match(/^\d+$/);
      expect(res.body.status).to.equal('degraded');
      expect([res.body.postgres.ok, res.body.temporal.ok, res.body.worker.ok]).to.deep.equal([true, false, false]);
      expect(res.body.worker).to.not.have.property('lastPollAt');
      for (const secret of ['127.0.0.1', String(port), 'ECONNREFUSED', 'connect', 'UNAVAILABLE']) expect(res.text).to.not.include(secret);
      // The 503 answers the document's Health shape, as the OpenAPI document says.
      const doc = (await call('GET', '/v1/openapi.json', { baseUrl: api.url })).body;
      expect(doc.paths['/health'].get.responses['503'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Health' });
    } finally {
      await api.stop();
    }
  });
});

describe('the access log', function () {
  this.timeout(60_000);

  it('is written asynchronously in blocks, and every line reaches the output when the process stops', async () => {
    const api = await spawnApiProcess({ LOG_LEVEL: 'info' });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await call('GET', `/v1/nothing-${i}`, { baseUrl: api.url })).headers.get('request-id')!);
    await api.stop();
    const logged = api
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; requestId?: string; path?: string; status?: number })
      .filter((line) => line.msg === 'request' && line.path?.startsWith('/v1/nothing-'));
    expect(logged.map((line) => line.requestId)).to.deep.equal(ids);
    expect(logged.every((line) => line.status === 404)).to.equal(true);
  });
});
