import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { stack } from '../support/stack.js';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { routes } from '../../api/routes/index.js';
import { MAX_BODY_DEPTH } from '../../api/middleware/body.js';

/** Real values for each path parameter, so that only the body can be wrong. */
const SAMPLES: Record<string, string> = {
  '/v1/ai/tools/{slug}': '/v1/ai/tools/reformuler-ton-formel',
  '/v1/calculators/{slug}/compute': '/v1/calculators/indemnite-licenciement/compute',
  '/v1/letters/{slug}/pdf': '/v1/letters/resiliation-box-internet/pdf',
  '/v1/letters/{slug}/render': '/v1/letters/resiliation-box-internet/render',
  '/v1/quotes/{slug}/estimate': '/v1/quotes/devis-demenagement/estimate',
};

const posts = routes.filter((r) => r.method === 'POST');

describe('request bodies: missing, empty, null, an array, not JSON, or nested without end', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount({ balanceCents: 100_000 });
  });

  const path = (template: string) => SAMPLES[template] ?? template.replace(/\{[a-z]+\}/g, randomUUID());
  const send = (template: string, rawBody: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    call('POST', path(template), { key: account.testKey, rawBody, headers });

  it('covers every POST route', () => {
    expect(posts.length).to.be.above(10);
    for (const route of posts) if (route.path.includes('{') && !route.path.includes('{id}')) expect(SAMPLES, route.path).to.have.property(route.path);
  });

  for (const route of posts) {
    it(`POST ${route.path}: no body and an empty body are validated (400 names the missing fields, never 500)`, async () => {
      for (const res of [await send(route.path, undefined, {}), await send(route.path, '')]) {
        expect(res.status, res.text).to.be.below(500);
        if (res.status === 400) expect(res.body.error.code).to.equal('invalid_request');
        // A body schema with required fields names them.
        if (route.body && route.body.describe().keys && Object.values(route.body.describe().keys).some((k: any) => k.flags?.presence === 'required')) {
          expect(res.status, res.text).to.equal(400);
          expect(res.body.error.details.length).to.be.above(0);
          expect(res.body.error.message).to.contain('is required');
        }
      }
    });

    it(`POST ${route.path}: null, an array or a number as the body is 400 invalid_request`, async () => {
      // The advance of a test mailing documents `null` as "next step", like {}.
      const allowsNull = (route.body?.describe().allow ?? []).includes(null);
      for (const raw of [...(allowsNull ? [] : ['null']), '[]', '[{}]', '42', '"text"']) {
        const res = await send(route.path, raw);
        expect(res.status, `${raw}: ${res.text}`).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_request');
      }
    });

    it(`POST ${route.path}: a body that is not sent as JSON is 400`, async () => {
      const res = await send(route.path, '{"a":1}', { 'content-type': 'text/plain' });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    });
  }

  it(`refuses a body nested deeper than ${MAX_BODY_DEPTH} levels, even 1 MB of [[[…]]] with an Idempotency-Key (400, not a stack overflow)`, async () => {
    const deep = '['.repeat(499_000) + ']'.repeat(499_000);
    const res = await call('POST', '/v1/mailings', {
      key: account.testKey,
      rawBody: deep,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    });
    expect(res.status, res.text.slice(0, 200)).to.equal(400);
    expect(res.body.error.message).to.contain('nests more than');
    const justDeepEnough = JSON.stringify({ members: [{ id: 'ana' }, { id: 'ben' }], expenses: [{ amountCents: 100, paidBy: 'ana' }] });
    const ok = await call('POST', '/v1/expenses/settle', {
      key: account.testKey,
      rawBody: justDeepEnough,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    });
    expect(ok.status, ok.text).to.equal(200);
    // The same request with its keys in another order is the same request for idempotency.
    const key = randomUUID();
    const a = await call('POST', '/v1/expenses/settle', {
      key: account.testKey,
      rawBody: justDeepEnough,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    const reordered = JSON.stringify({ expenses: [{ paidBy: 'ana', amountCents: 100 }], members: [{ id: 'ana' }, { id: 'ben' }] });
    const b = await call('POST', '/v1/expenses/settle', {
      key: account.testKey,
      rawBody: reordered,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(a.status).to.equal(200);
    expect(b.headers.get('idempotent-replayed')).to.equal('true');
  });
});

function rawRequest(method: string, path: string, key: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(stack().api.url + path, { method, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('methods a path does not take', () => {
  it('405 method_not_allowed with an Allow header, in the error shape (TRACE, DELETE, PUT on known paths)', async () => {
    const account = await createAccount();
    for (const [method, path, allowed] of [
      ['DELETE', '/v1/catalogue', 'HEAD, GET'],
      ['TRACE', '/v1/catalogue', 'HEAD, GET'],
      ['PUT', '/v1/mailings', 'HEAD, GET, POST'],
      ['GET', '/v1/expenses/settle', 'POST'],
    ] as const) {
      // node:http, not fetch: fetch refuses to send TRACE.
      const res = await rawRequest(method, path, account.testKey);
      expect(res.status, `${method} ${path}`).to.equal(405);
      expect(JSON.parse(res.body).error.code).to.equal('method_not_allowed');
      expect(String(res.headers.allow).split(', ').sort()).to.deep.equal(allowed.split(', ').sort());
    }
    // An unknown path stays a 404.
    const unknown = await call('DELETE', '/v1/nothing-here', { key: account.testKey });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
  });
});
