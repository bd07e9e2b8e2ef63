import { expect } from 'chai';
import { call } from '../support/api.js';
import { routes } from '../../api/routes/index.js';

describe('OpenAPI document and docs page', () => {
  it('serves an OpenAPI 3.1 document, version 1.2.0, without authentication, listing every route', async () => {
    const res = await call('GET', '/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal('3.1.0');
    expect(res.body.info.version).to.equal('1.2.0');
    for (const route of routes) {
      const op = res.body.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).to.be.an('object');
      expect(op.operationId).to.equal(route.operationId);
      for (const status of route.errors) expect(op.responses, `${route.operationId} ${status}`).to.have.property(String(status));
    }
  });

  it('takes its limits from the Joi schemas', async () => {
    const doc = (await call('GET', '/v1/openapi.json')).body;
    const settle = doc.paths['/v1/expenses/settle'].post;
    expect(settle['x-required-scope']).to.equal('catalogue:read');
    const idempotency = settle.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
    expect(idempotency.schema.pattern).to.equal('^[\\x20-\\x7E]{1,255}$');
    const group = doc.components.schemas.ExpenseGroup;
    expect(group.properties.members).to.include({ minItems: 2, maxItems: 50 });
    expect(settle.responses['200'].headers).to.have.keys('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Service-Balance');
  });

  it('renders a human docs page at /docs', async () => {
    const res = await call('GET', '/docs');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.include('text/html');
    for (const route of routes) expect(res.text).to.include(`id="${route.operationId}"`);
  });
});
