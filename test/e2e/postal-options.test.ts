import { expect } from 'chai';
import { balanceOf, call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { admin } from '../support/admin.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { priceOf } from '../../domain/billing/prices.js';

/**
 * Issue 55, parts 3 to 5, with the bundled simulator (the default POSTAL_OPERATOR) and in the
 * sandbox: the account's return envelope and archive set with the admin CLI, the options of a
 * mailing checked per mode, priced as quoted, and what the simulator was asked (Maileva's names,
 * operator_filings.options). Maileva's side: test/e2e/maileva.test.ts.
 */
describe("the operator's options: return envelope, archive, envelope (simulator, sandbox, admin CLI)", function () {
  this.timeout(180_000);
  const ENVELOPE = { type: 'FRANKING_ENVELOPE', id: '0b7e4c2a-91d3-4f6e-8a5b-3c2d1e0f9a87' };
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 100_000 });
  });

  const body = (mode: string, options: Record<string, unknown>) => ({ mode, letter: freeLetter, sender, recipient, options });
  const lines = (quote: { lines: { unit: string; quantity: number }[] }) => quote.lines.map((l) => [l.unit, l.quantity]);

  it('admin account return-envelope and archive show, set, check and clear the settings (audit-logged)', async () => {
    const id = account.id;
    expect((await admin(['account', 'return-envelope', '--account', id])).json).to.deep.equal({ accountId: id, returnEnvelope: null });
    const shown = await admin(['account', 'archive', '--account', id]);
    expect(shown.json).to.deep.equal({
      accountId: id,
      archiveYears: { simple: null, registered: null },
      allowed: { simple: [0, 1, 3, 6, 10], registered: [3, 6, 10] },
      included: { simple: 0, registered: 3 },
    });
    for (const args of [
      ['--type', 'ENVELOPE_T', '--id', ENVELOPE.id],
      ['--type', ENVELOPE.type, '--id', 'not-a-uuid'],
      ['--type', ENVELOPE.type],
    ]) {
      const refused = await admin(['account', 'return-envelope', '--account', id, ...args]);
      expect([refused.code, refused.json.error.code], args.join(' ')).to.deep.equal([1, 'invalid_arguments']);
    }
    for (const args of [
      ['--simple', '2'],
      ['--registered', '1'],
      ['--registered', 'x'],
    ]) {
      const refused = await admin(['account', 'archive', '--account', id, ...args]);
      expect([refused.code, refused.json.error.code], args.join(' ')).to.deep.equal([1, 'invalid_arguments']);
    }
    const set = await admin(['account', 'return-envelope', '--account', id, '--type', ENVELOPE.type, '--id', ENVELOPE.id.toUpperCase()]);
    expect(set.json).to.deep.equal({ accountId: id, returnEnvelope: ENVELOPE, previous: null });
    const archive = await admin(['account', 'archive', '--account', id, '--simple', '3', '--registered', '6']);
    expect(archive.json).to.deep.include({ archiveYears: { simple: 3, registered: 6 }, previous: { simple: null, registered: null } });
    const audit = await stack().db('audit_log').where({ account_id: id }).whereIn('action', ['account.return_envelope_changed', 'account.archive_changed']);
    expect(audit.map((e) => [e.action, e.details]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).to.deep.equal([
      ['account.archive_changed', { from: { simple: null, registered: null }, to: { simple: 3, registered: 6 } }],
      ['account.return_envelope_changed', { from: null, to: ENVELOPE }],
    ]);
    expect((await admin(['account', 'archive', '--account', '00000000-0000-4000-8000-000000000000'])).json.error.code).to.equal('not_found');
  });

  it('a live letter with the options: quoted, debited as quoted, filed with the simulator as Maileva would be asked', async () => {
    const asked = body('simple', { returnEnvelope: true, envelopeWindows: 'simple', printSenderAddress: false });
    const quote = await call('POST', '/v1/mailing-quotes', { key: account.liveKey, body: asked });
    expect(quote.status, JSON.stringify(quote.body)).to.equal(200);
    // The account's simple archive (3 years) applies: three years beyond the included none.
    expect(lines(quote.body)).to.deep.equal([
      ['mailing.simple', 1],
      ['mailing.return_envelope', 1],
      ['mailing.archive_year', 3],
    ]);
    expect(quote.body.amountCents).to.equal(priceOf('mailing.simple') + priceOf('mailing.return_envelope') + 3 * priceOf('mailing.archive_year'));
    const before = await balanceOf(account.id);
    const created = await call('POST', '/v1/mailings', { key: account.liveKey, body: asked });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.amountCents).to.equal(quote.body.amountCents);
    expect(before - (await balanceOf(account.id)), 'quote = debit').to.equal(quote.body.amountCents);
    const filing = await eventually(
      () => stack().db('operator_filings').where({ shipment_id: created.body.id }).first('filed_at', 'options'),
      (row) => Boolean(row?.filed_at),
      60_000,
      300,
    );
    expect(filing.options).to.deep.equal({ return_envelope: ENVELOPE, archiving_duration: 3, envelope_windows_type: 'SIMPLE', print_sender_address: false });
  });

  it('the sandbox checks and prices them as live does, and its letters move with advance', async () => {
    const asked = body('registered', { returnEnvelope: true, archiveYears: 10 });
    const quote = await call('POST', '/v1/mailing-quotes', { key: account.testKey, body: asked });
    expect(lines(quote.body)).to.deep.equal([
      ['mailing.registered', 1],
      ['mailing.return_envelope', 1],
      ['mailing.archive_year', 7],
    ]);
    const created = await call('POST', '/v1/mailings', { key: account.testKey, body: asked });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.amountCents, 'a test key pays nothing').to.equal(0);
    const stored = await stack().db('shipments').where({ id: created.body.id }).first('options');
    expect(stored.options).to.deep.include({ returnEnvelope: true, returnEnvelopeRef: ENVELOPE, archiveYears: 10 });
    const advanced = await call('POST', `/v1/test/mailings/${created.body.id}/advance`, { key: account.testKey, body: { step: 4 } });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    expect(advanced.body.status).to.equal('delivered');

    // Refusals name the field; nothing is created.
    const other = await createAccount();
    const refusals: [string, object, string, string][] = [
      [account.testKey, body('ar', { printSenderAddress: true }), 'option_not_available', 'options.printSenderAddress'],
      [account.testKey, body('registered', { archiveYears: 0 }), 'option_not_available', 'options.archiveYears'],
      [other.testKey, body('registered', { returnEnvelope: true }), 'return_envelope_not_configured', 'options.returnEnvelope'],
    ];
    for (const [key, b, code, field] of refusals) {
      for (const path of ['/v1/mailings', '/v1/mailing-quotes']) {
        const answer = await call('POST', path, { key, body: b });
        expect([answer.status, answer.body.error?.code, answer.body.error?.details?.field], `${path} ${JSON.stringify(answer.body)}`).to.deep.equal([
          422,
          code,
          field,
        ]);
      }
    }
    const shape = await call('POST', '/v1/mailings', { key: account.testKey, body: body('simple', { archiveYears: 2 }) });
    expect([shape.status, shape.body.error.code]).to.deep.equal([400, 'invalid_request']);
    // Cleared: the account has no envelope any more, and its archive is the default again.
    await admin(['account', 'return-envelope', '--account', account.id, '--clear']);
    await admin(['account', 'archive', '--account', account.id, '--simple', 'default', '--registered', 'default']);
    const plain = await call('POST', '/v1/mailing-quotes', { key: account.testKey, body: body('simple', {}) });
    expect(lines(plain.body)).to.deep.equal([['mailing.simple', 1]]);
    const gone = await call('POST', '/v1/mailing-quotes', { key: account.testKey, body: body('simple', { returnEnvelope: true }) });
    expect(gone.body.error.code).to.equal('return_envelope_not_configured');
  });
});
