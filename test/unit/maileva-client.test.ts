import { expect } from 'chai';
import { MailevaClient, MailevaError } from '../../activities/partners/maileva.js';
import { MAILEVA_CLIENT_ID, MAILEVA_CLIENT_SECRET, MAILEVA_PASSWORD, MAILEVA_USERNAME, MailevaStandIn } from '../support/maileva-server.js';

const draft = { name: 'a letter', custom_id: 'client-test', sender_address_line_1: 'Ada', sender_address_line_6: '75001 PARIS', sender_country_code: 'FR' };

describe('Maileva client: what it asks again within one call (docs/operators.md, errors told apart)', () => {
  // Retry-After 0: the 429 path is the same, without a second's wait per fault.
  const standIn = new MailevaStandIn({ retryAfterSeconds: 0 });
  let client: MailevaClient;

  before(async function () {
    // The stand-in compiles Maileva's OpenAPI files at its start: seconds on a loaded machine.
    this.timeout(60_000);
    await standIn.start();
    client = new MailevaClient({
      apiUrl: standIn.apiUrl,
      authUrl: standIn.authUrl,
      clientId: MAILEVA_CLIENT_ID,
      clientSecret: MAILEVA_CLIENT_SECRET,
      username: MAILEVA_USERNAME,
      password: MAILEVA_PASSWORD,
      notificationEmail: 'ops@example.org',
      timeoutMs: 30_000,
    });
  });
  after(() => standIn.stop());
  beforeEach(() => standIn.reset());

  // reset() forgets the tokens issued: the client's first call of a test meets a 401 and renews.
  const apiCalls = () => standIn.calls.filter((call) => call.api !== 'auth' && call.status !== 401);

  it('asks a read again after a 5xx, up to three times, then gives up with a retryable error', async () => {
    const created = await client.createSending('mail', draft);
    standIn.calls.length = 0;
    standIn.failNext(3, 503);
    expect((await client.getSending('mail', created.id)).id).to.equal(created.id);
    expect(apiCalls().map((call) => call.status)).to.deep.equal([503, 503, 503, 200]);

    standIn.calls.length = 0;
    standIn.failNext(4, 503);
    const error = await client.getSending('mail', created.id).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(MailevaError);
    expect((error as MailevaError).retryable).to.equal(true);
    expect(apiCalls()).to.have.length(4);
  });

  it('never asks a write again after a 5xx (it may have taken effect): the activity resumes instead', async () => {
    standIn.failNext(1, 503);
    const error = await client.createSending('mail', draft).catch((e: unknown) => e);
    expect((error as MailevaError).status).to.equal(503);
    expect((error as MailevaError).retryable).to.equal(true);
    expect(apiCalls()).to.have.length(1);
    expect(standIn.sendings()).to.have.length(0);
  });

  it('asks any call again after a 429, refused before any work: one sending, created once', async () => {
    standIn.failNext(2, 429);
    const created = await client.createSending('mail', draft);
    expect(apiCalls().map((call) => call.status)).to.deep.equal([429, 429, 201]);
    expect(standIn.sendings().map((s) => s.id)).to.deep.equal([created.id]);
  });
});
