import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { stack } from '../support/stack.js';
import { balanceOf, call, createAccount, type TestAccount } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
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
  // Eight requests a route: one account for every route would pass the per-key rate limit (120 a
  // minute) as routes are added. Each route's requests go through an account of their own.
  const accounts = new Map<string, Promise<TestAccount>>();
  const accountFor = (template: string): Promise<TestAccount> => {
    if (!accounts.has(template)) accounts.set(template, createAccount({ balanceCents: 100_000 }));
    return accounts.get(template)!;
  };

  const path = (template: string) => SAMPLES[template] ?? template.replace(/\{[a-z]+\}/g, randomUUID());
  const send = async (template: string, rawBody: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    call('POST', path(template), { key: (await accountFor(template)).testKey, rawBody, headers });

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

  it('a path is matched whatever its case and with a trailing slash; a path outside any resource is a 404', async () => {
    const account = await createAccount();
    for (const path of ['/V1/Catalogue', '/v1/catalogue/', '/v1/LETTERS/lettre-demission', '/HEALTH', '/v1/OpenAPI.json']) {
      const res = await rawRequest('GET', path, account.testKey);
      expect(res.status, path).to.equal(200);
    }
    const wrongMethod = await rawRequest('PUT', '/V1/MAILINGS/', account.testKey);
    expect(wrongMethod.status).to.equal(405);
    expect(String(wrongMethod.headers.allow).split(', ').sort()).to.deep.equal(['GET', 'HEAD', 'POST']);
    const stripe = await rawRequest('GET', '/stripe/webhook', account.testKey);
    expect([stripe.status, stripe.headers.allow]).to.deep.equal([405, 'POST']);
    for (const path of ['/', '/v1', '/v1/', '/v2/catalogue', '/catalogue', '/v1//catalogue']) {
      const res = await rawRequest('GET', path, account.testKey);
      expect(res.status, path).to.equal(404);
      expect(JSON.parse(res.body).error.code, path).to.equal('not_found');
    }
  });
});

/** Writes `bytes` on a fresh connection (then half-closes it when `end`), and reads everything until the server closes. */
function rawExchange(bytes: string, options: { end: boolean }): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(stack().api.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // Half-open: the server's end does not close our side by itself.
    socket.on('end', () => socket.end());
    // A reset after the answer (the server closing with our bytes unread) is not a failure of the answer.
    socket.on('error', (error) => (chunks.length ? socket.destroy() : reject(error)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
    socket.write(bytes, () => {
      if (options.end) socket.end();
    });
  });
}

describe('requests Node refuses before the API sees them, answered in the error shape (raw sockets)', function () {
  this.timeout(30_000);

  it('a 64 KB header: 431 headers_too_large, JSON, and the connection closes', async () => {
    const res = await rawExchange(`GET /v1/catalogue HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`, { end: false });
    expect(res.status).to.equal(431);
    expect(res.headers)
      .to.match(/content-type: application\/json/i)
      .and.match(/connection: close/i);
    expect(JSON.parse(res.body)).to.deep.equal({
      error: { code: 'headers_too_large', message: 'The request line and headers are larger than 16 KB (a long URL counts): send long values in a JSON body.' },
    });
  });

  it('a 100 KB URL: 431 headers_too_large in the error shape', async () => {
    const res = await rawExchange(`GET /v1/geo/addresses?q=${'b'.repeat(100 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, { end: false });
    expect(res.status).to.equal(431);
    expect(JSON.parse(res.body).error.code).to.equal('headers_too_large');
  });

  it('a request cut off in its headers: 400 invalid_request in the error shape', async () => {
    const res = await rawExchange('POST /v1/mailings HTTP/1.1\r\nHost: localhost\r\nContent-Le', { end: true });
    expect(res.status).to.equal(400);
    expect(JSON.parse(res.body).error).to.deep.equal({ code: 'invalid_request', message: 'The request ended before its headers were complete.' });
  });

  it('bytes that are not HTTP: 400 invalid_request in the error shape', async () => {
    const res = await rawExchange('HELLO\r\n\r\n', { end: false });
    expect(res.status).to.equal(400);
    expect(JSON.parse(res.body).error.code).to.equal('invalid_request');
  });

  it('a body cut off before its Content-Length: 400 invalid_request from the API, in the error shape', async () => {
    const account = await createAccount();
    const res = await rawExchange(
      `POST /v1/expenses/settle HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${account.testKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{"members":`,
      { end: true },
    );
    expect(res.status).to.equal(400);
    expect(JSON.parse(res.body).error.code).to.equal('invalid_request');
  });
});

describe('"__proto__" and "constructor.prototype" in a body are refused, never dropped', function () {
  this.timeout(30_000);

  it('400 invalid_request naming them; the mailing is not created nor charged', async () => {
    const account = await createAccount({ balanceCents: 5000, liveEnabled: true });
    const mailing = { mode: 'simple', letter: freeLetter, sender, recipient };
    const before = await stack().db('shipments').where({ account_id: account.id }).count<{ count: string }[]>('* as count');
    for (const rawBody of [
      JSON.stringify(mailing).replace(/^\{/, '{"__proto__":{"admin":true},'),
      JSON.stringify({ ...mailing, letter: { ...freeLetter } }).replace('"letter":{', '"letter":{"__proto__":{"x":1},'),
      JSON.stringify(mailing).replace(/^\{/, '{"constructor":{"prototype":{"admin":true}},'),
      JSON.stringify(mailing).replace(/^\{/, '{"\\u005f_proto__":{"admin":true},'),
    ]) {
      const res = await call('POST', '/v1/mailings', { key: account.liveKey, rawBody, headers: { 'content-type': 'application/json' } });
      expect(res.status, rawBody.slice(0, 80)).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
      expect(res.body.error.message).to.contain('__proto__');
    }
    const after = await stack().db('shipments').where({ account_id: account.id }).count<{ count: string }[]>('* as count');
    expect(after).to.deep.equal(before);
    expect(await balanceOf(account.id)).to.equal(5000);
    // A value "__proto__", or a field named constructor, is only text.
    const fine = await call('POST', '/v1/mailings', {
      key: account.testKey,
      body: { ...mailing, letter: { title: '__proto__', body: 'constructor prototype' }, reference: 'constructor' },
    });
    expect(fine.status, fine.text).to.equal(201);
  });
});
