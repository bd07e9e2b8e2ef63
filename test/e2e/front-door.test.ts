import { expect } from 'chai';
import { call, createAccount, expenseGroup, type TestAccount } from '../support/api.js';

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

  it('gives each response a Request-Id and marks it uncacheable', async () => {
    const res = await call('GET', '/v1/nothing-here');
    expect(res.headers.get('request-id')).to.match(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });
});
