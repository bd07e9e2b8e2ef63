import { expect } from 'chai';
import { call, createAccount, expenseGroup, type TestAccount } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';

describe('front door', () => {
  let account: TestAccount;
  before(async () => {
    account = await createAccount();
  });

  it('answers an unknown route with 404 not_found in the error shape', async () => {
    const res = await call('GET', '/v1/nothing-here', { key: account.testKey });
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'No route GET /v1/nothing-here.' } });
  });

  it('never sends CORS headers, even to a browser preflight', async () => {
    const preflight = await call('OPTIONS', '/v1/expenses/settle', { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    // OPTIONS tells the methods of the path (Allow), never a CORS permission.
    expect(preflight.status).to.equal(200);
    expect(preflight.headers.get('allow')).to.equal('POST');
    const res = await call('POST', '/v1/expenses/settle', { key: account.testKey, body: expenseGroup(), headers: { origin: 'https://app.example' } });
    expect(res.status).to.equal(200);
    for (const response of [preflight, res]) {
      expect([...response.headers.keys()].filter((h) => h.startsWith('access-control-'))).to.deep.equal([]);
    }
  });

  it('refuses a body over 1 MB with 413 payload_too_large, declared or streamed', async () => {
    const big = JSON.stringify({ members: [], pad: 'x'.repeat(1_000_001) });
    const declared = await call('POST', '/v1/expenses/settle', { key: account.testKey, rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(declared.status).to.equal(413);
    expect(declared.body.error.code).to.equal('payload_too_large');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await fetch(`${(await import('../support/stack.js')).stack().api.url}/v1/expenses/settle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).to.equal(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('payload_too_large');
  });

  it('accepts a body just under 1 MB (then validates it)', async () => {
    const body = JSON.stringify({ ...(expenseGroup() as object), pad: 'x'.repeat(900_000) });
    const res = await call('POST', '/v1/expenses/settle', { key: account.testKey, rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('invalid_request');
    expect(res.body.error.details[0]).to.include({ in: 'body', field: 'pad' });
  });

  it('refuses malformed JSON and non-JSON bodies with 400 invalid_request', async () => {
    const broken = await call('POST', '/v1/expenses/settle', { key: account.testKey, rawBody: '{"members":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).to.equal(400);
    expect(broken.body.error).to.include({ code: 'invalid_request', message: 'The request body is not valid JSON.' });
    const form = await call('POST', '/v1/expenses/settle', {
      key: account.testKey,
      rawBody: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).to.equal(400);
    expect(form.body.error.code).to.equal('invalid_request');
  });

  it('reports every invalid field in details', async () => {
    const res = await call('POST', '/v1/expenses/settle', {
      key: account.testKey,
      body: { members: [{ id: 'a' }], expenses: [{ amountCents: -5, paidBy: 'a' }] },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('invalid_request');
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).to.include.members(['members', 'expenses.0.amountCents']);
  });

  // The cached mailing and the catalogue are written at once, without Koa's setters (api/fast-path.ts).
  it('answers a polled mailing, the catalogue and its 304 with the headers of every call', async () => {
    const posted = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
    expect(posted.status).to.equal(201);
    const mailing = `/v1/mailings/${posted.body.id}`;
    const etag = (await call('GET', '/v1/catalogue', { key: account.testKey })).headers.get('etag')!;
    const answers = {
      polled: await call('GET', mailing, { key: account.testKey }),
      'polled again': await call('GET', mailing, { key: account.testKey }),
      'polled, upper case': await call('GET', mailing.toUpperCase().replace(posted.body.id.toUpperCase(), posted.body.id), { key: account.testKey }),
      catalogue: await call('GET', '/v1/catalogue', { key: account.testKey }),
      'catalogue, 304': await call('GET', '/v1/catalogue', { key: account.testKey, headers: { 'if-none-match': etag } }),
    };
    const ids = new Set<string | null>();
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, name).to.equal(name.endsWith('304') ? 304 : 200);
      ids.add(res.headers.get('request-id'));
      expect(res.headers.get('request-id'), name).to.match(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-content-type-options'), name).to.equal('nosniff');
      expect(res.headers.get('ratelimit-limit'), name).to.match(/^\d+$/);
      expect(res.headers.get('ratelimit-remaining'), name).to.match(/^\d+$/);
      expect(Number(res.headers.get('ratelimit-reset')), name).to.be.within(1, 60);
      expect(res.headers.get('x-service-balance'), name).to.match(/^-?\d+$/);
      expect(res.headers.get('cache-control'), name).to.equal(name.startsWith('polled') ? 'no-store' : 'private, max-age=0, must-revalidate');
      if (name.endsWith('304')) {
        expect(res.text, name).to.equal('');
        expect(res.headers.get('etag'), name).to.equal(etag);
        continue;
      }
      expect(res.headers.get('content-type'), name).to.equal('application/json; charset=utf-8');
      expect(Number(res.headers.get('content-length')), name).to.equal(Buffer.byteLength(res.text));
    }
    expect(ids.size).to.equal(Object.keys(answers).length);
    expect(answers['polled again'].body).to.deep.equal(answers.polled.body);
    expect(answers['polled, upper case'].body).to.deep.equal(answers.polled.body);
    // HEAD: the same headers, no body.
    const head = await call('HEAD', mailing, { key: account.testKey });
    expect(head.status).to.equal(200);
    expect(head.text).to.equal('');
    expect(head.headers.get('content-length')).to.equal(answers.polled.headers.get('content-length'));
    expect(head.headers.get('ratelimit-limit')).to.equal(answers.polled.headers.get('ratelimit-limit'));
    // The same path with a method it does not take is still @koa/router's 405.
    const refused = await call('DELETE', mailing, { key: account.testKey });
    expect(refused.status).to.equal(405);
    expect(refused.headers.get('allow')).to.equal('HEAD, GET');
    expect(refused.headers.get('request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('gives each response a Request-Id and marks it uncacheable', async () => {
    const res = await call('GET', '/v1/nothing-here');
    expect(res.headers.get('request-id')).to.match(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });
});
