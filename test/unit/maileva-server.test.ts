import { expect } from 'chai';
import {
  MAILEVA_CLIENT_ID,
  MAILEVA_CLIENT_SECRET,
  MAILEVA_PASSWORD,
  MAILEVA_STAND_IN_PRICES,
  MAILEVA_USERNAME,
  MailevaStandIn,
  type MailevaApi,
} from '../support/maileva-server.js';
import { onePagePdf, pdfPageCount, unzipStored } from '../support/maileva/files.js';
import { checkMailevaResponse, loadMailevaSpecs } from '../support/maileva/spec.js';
import { readPdf } from '../support/pdf.js';

interface Reply {
  status: number;
  headers: Headers;
  json: any;
  bytes: Buffer;
}

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function requestToken(
  server: MailevaStandIn,
  form: Record<string, string> = { grant_type: 'password', username: MAILEVA_USERNAME, password: MAILEVA_PASSWORD },
  headers: Record<string, string> = { authorization: basic(MAILEVA_CLIENT_ID, MAILEVA_CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
): Promise<Reply> {
  const response = await fetch(`${server.authUrl}/token`, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, json: bytes.length ? JSON.parse(bytes.toString()) : undefined, bytes };
}

/** A client of one stand-in: a token fetched once, and plain fetch calls. */
function clientOf(server: MailevaStandIn) {
  let token: string | undefined;
  const bearer = async (): Promise<string> => (token ??= (await requestToken(server)).json.access_token as string);
  const call = async (
    api: MailevaApi,
    method: string,
    path: string,
    options: { json?: unknown; contentType?: string; form?: FormData; token?: string | null } = {},
  ): Promise<Reply> => {
    const headers: Record<string, string> = {};
    const auth = options.token === undefined ? await bearer() : options.token;
    if (auth) headers.authorization = `Bearer ${auth}`;
    let body: string | FormData | undefined = options.form;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    const response = await fetch(`${server.apiUrl}/${api}/v2${path}`, { method, headers, body });
    const bytes = Buffer.from(await response.arrayBuffer());
    const json = response.headers.get('content-type')?.includes('json') && bytes.length ? JSON.parse(bytes.toString()) : undefined;
    return { status: response.status, headers: response.headers, json, bytes };
  };
  /** `metadata` null: no metadata part at all. */
  const upload = (api: MailevaApi, sendingId: string, file: Buffer, metadata: unknown = { priority: 1, name: 'letter.pdf' }): Promise<Reply> => {
    const form = new FormData();
    form.append('document', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'letter.pdf');
    if (metadata !== null) form.append('metadata', new Blob([JSON.stringify(metadata)], { type: 'application/json' }));
    return call(api, 'POST', `/sendings/${sendingId}/documents`, { form });
  };
  /** A sending with one document and the given recipients, ready to submit. */
  const draft = async (
    api: MailevaApi,
    fields: Record<string, unknown>,
    recipients: Record<string, unknown>[],
  ): Promise<{ id: string; recipients: string[] }> => {
    const created = await call(api, 'POST', '/sendings', { json: fields });
    expect(created.status, JSON.stringify(created.json)).to.equal(201);
    expect((await upload(api, created.json.id, onePagePdf(['Bonjour']))).status).to.equal(201);
    const ids: string[] = [];
    for (const recipient of recipients) {
      const added = await call(api, 'POST', `/sendings/${created.json.id}/recipients`, { json: recipient });
      expect(added.status, JSON.stringify(added.json)).to.equal(201);
      ids.push(added.json.id);
    }
    return { id: created.json.id, recipients: ids };
  };
  return { bearer, call, upload, draft, forget: () => (token = undefined) };
}

const REGISTERED = {
  name: 'Mise en demeure',
  custom_id: 'shp_0001',
  notification_email: 'ops@example.fr',
  acknowledgement_of_receipt: true,
  acknowledgement_of_receipt_scanning: true,
  sender_address_line_1: 'Société Durand',
  sender_address_line_4: '10 avenue Charles de Gaulle',
  sender_address_line_6: '94673 Charenton-Le-Pont',
  sender_country_code: 'FR',
};
const RECIPIENT = { address_line_2: 'Mme Eva DUPONT', address_line_4: '33 avenue de Paris', address_line_6: '75007 Paris', country_code: 'FR' };

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text of the one PDF in a zip the stand-in served. */
async function pdfTextOfZip(zip: Buffer): Promise<string> {
  const files = unzipStored(zip);
  expect(files).to.have.length(1);
  expect(files[0].crcOk).to.equal(true);
  expect(files[0].name).to.match(/\.pdf$/);
  return (await readPdf(files[0].data)).text;
}

describe('Maileva stand-in', function () {
  // Lives moved by hand (advance/settle): deterministic.
  const server = new MailevaStandIn({ stepDelayMs: 0 });
  const client = clientOf(server);

  before(async function () {
    // The stand-in compiles Maileva's OpenAPI files at its start: seconds on a loaded machine.
    this.timeout(60_000);
    await server.start();
  });
  after(async () => {
    await server.stop();
  });
  afterEach(() => {
    expect(server.violations, server.violations.join('\n')).to.deep.equal([]);
  });

  describe('OAuth2 token (auth.yaml)', () => {
    it('issues a JWT-shaped token for Basic client credentials and grant_type=password, which opens the APIs', async () => {
      const reply = await requestToken(server);
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('content-type')).to.equal('application/json');
      expect(reply.json.expires_in).to.equal(3600);
      expect(reply.json.access_token.split('.')).to.have.length(3);
      const listed = await client.call('registered_mail', 'GET', '/sendings', { token: reply.json.access_token });
      expect(listed.status).to.equal(200);
      expect(listed.json.paging.total_results).to.be.a('number');
    });

    it('refuses wrong client or user credentials with 401 and the Errors shape', async () => {
      const badClient = await requestToken(server, undefined, {
        authorization: basic(MAILEVA_CLIENT_ID, 'wrong'),
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(badClient.status).to.equal(401);
      expect(badClient.json).to.deep.equal({ errors: [{ code: 'CLIENT_ERROR', message: 'Authentication failed' }] });
      const badUser = await requestToken(server, { grant_type: 'password', username: MAILEVA_USERNAME, password: 'nope' });
      expect(badUser.status).to.equal(401);
    });

    it('answers a bad grant_type 400, and a missing required parameter 404 as auth.yaml declares', async () => {
      const badGrant = await requestToken(server, { grant_type: 'authorization_code' });
      expect(badGrant.status).to.equal(400);
      expect(badGrant.json.errors[0]).to.deep.equal({ code: 'CLIENT_ERROR', message: 'Invalid grant type parameter' });
      expect((await requestToken(server, { grant_type: 'password', username: MAILEVA_USERNAME })).status).to.equal(404);
      expect((await requestToken(server, undefined, { 'content-type': 'application/x-www-form-urlencoded' })).status).to.equal(404);
      const json = await requestToken(server, undefined, {
        authorization: basic(MAILEVA_CLIENT_ID, MAILEVA_CLIENT_SECRET),
        'content-type': 'application/json',
      });
      expect(json.status).to.equal(400);
    });

    it('answers 401 to API calls without a token, with an unknown one, and with an expired one', async () => {
      expect((await client.call('mail', 'GET', '/sendings', { token: null })).status).to.equal(401);
      const unknown = await client.call('mail', 'GET', '/sendings', { token: 'not-a-token' });
      expect(unknown.status).to.equal(401);
      expect(unknown.json).to.deep.include({ code: 'UNAUTHORIZED', message: 'Unknown token' });
      const token = (await requestToken(server)).json.access_token as string;
      expect((await client.call('mail', 'GET', '/sendings', { token })).status).to.equal(200);
      server.expireTokens();
      const expired = await client.call('mail', 'GET', '/sendings', { token });
      expect(expired.status).to.equal(401);
      expect(expired.json.message).to.equal('Token expired');
      client.forget();
      expect((await client.call('mail', 'GET', '/sendings')).status).to.equal(200);
    });

    it('lets a token lapse after tokenTtlSeconds', async () => {
      const shortLived = new MailevaStandIn({ tokenTtlSeconds: 1 });
      await shortLived.start();
      try {
        const reply = await requestToken(shortLived);
        expect(reply.json.expires_in).to.equal(1);
        const shortClient = clientOf(shortLived);
        expect((await shortClient.call('mail', 'GET', '/sendings', { token: reply.json.access_token })).status).to.equal(200);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        expect((await shortClient.call('mail', 'GET', '/sendings', { token: reply.json.access_token })).status).to.equal(401);
        expect(shortLived.violations).to.deep.equal([]);
      } finally {
        await shortLived.stop();
      }
    });
  });

  describe('registered mail (registered-mail-v2.yaml)', () => {
    it('takes a registered letter with AR scanning from DRAFT to the scanned AR download', async () => {
      const { id, recipients } = await client.draft('registered_mail', REGISTERED, [RECIPIENT]);
      const created = await client.call('registered_mail', 'GET', `/sendings/${id}`);
      expect(created.json).to.deep.include({
        status: 'DRAFT',
        custom_id: 'shp_0001',
        acknowledgement_of_receipt: true,
        acknowledgement_of_receipt_scanning: true,
        color_printing: true,
        duplex_printing: true,
        archiving_duration: 3,
        documents_count: 1,
      });
      expect((await client.call('registered_mail', 'GET', `/sendings/${id}/download_deposit_proof`)).status).to.equal(404);

      expect((await client.call('registered_mail', 'POST', `/sendings/${id}/submit`)).status).to.equal(200);
      const again = await client.call('registered_mail', 'POST', `/sendings/${id}/submit`);
      expect(again.status).to.equal(400);
      expect(again.json.errors[0].code).to.equal('SENDING_STATUS_IS_NOT_DRAFT');
      expect(server.sending(id)!.submitCount).to.equal(2);
      server.refusals.length = 0;

      const recipientPath = `/sendings/${id}/recipients/${recipients[0]}`;
      expect((await client.call('registered_mail', 'GET', `/sendings/${id}`)).json.status).to.equal('PENDING');
      expect((await client.call('registered_mail', 'GET', recipientPath)).json.status).to.equal('PENDING');
      server.advance();
      const accepted = await client.call('registered_mail', 'GET', `/sendings/${id}`);
      expect(accepted.json).to.deep.include({ status: 'ACCEPTED', pages_count: 1, sheets_count: 1, envelope_type: 'DL' });
      expect((await client.call('registered_mail', 'GET', recipientPath)).json.postage_price).to.equal(MAILEVA_STAND_IN_PRICES.registeredWithAr);
      server.advance();
      const processed = await client.call('registered_mail', 'GET', recipientPath);
      expect(processed.json.status).to.equal('PROCESSED');
      expect(processed.json.registered_number).to.match(/^1E\d{11}$/);
      expect(processed.json).to.not.have.property('last_delivery_status');
      expect((await client.call('registered_mail', 'GET', `/sendings/${id}`)).json.status).to.equal('PROCESSED');
      expect((await client.call('registered_mail', 'GET', `${recipientPath}/download_acknowledgement_of_receipt`)).status).to.equal(404);

      server.advance();
      const taken = await client.call('registered_mail', 'GET', `/sendings/${id}`);
      expect(taken.json.deposit_proof_url).to.equal(`/sendings/${id}/download_deposit_proof`);
      const proof = await client.call('registered_mail', 'GET', taken.json.deposit_proof_url);
      expect(proof.status).to.equal(200);
      expect(proof.headers.get('content-type')).to.equal('application/zip');
      expect(await pdfTextOfZip(proof.bytes)).to.include(`Maileva deposit proof ${id}`);

      server.settle();
      const delivered = await client.call('registered_mail', 'GET', recipientPath);
      expect(delivered.json.last_delivery_status).to.equal('N01');
      expect(delivered.json.acknowledgement_of_receipt_url).to.equal(`${recipientPath}/download_acknowledgement_of_receipt`);
      const statuses = await client.call('registered_mail', 'GET', `${recipientPath}/delivery_statuses`);
      expect(statuses.json.delivery_statuses.map((status: { status: string; label: string }) => [status.status, status.label])).to.deep.equal([
        ['A01', 'Pris en charge'],
        ['D01', 'Distribué'],
        ['N01', 'AR Signé : RAR distribué'],
      ]);
      const ar = await client.call('registered_mail', 'GET', delivered.json.acknowledgement_of_receipt_url);
      expect(ar.status).to.equal(200);
      expect(ar.headers.get('content-type')).to.equal('application/zip');
      expect(await pdfTextOfZip(ar.bytes)).to.include(`Maileva acknowledgement of receipt ${recipients[0]}`);
      const archive = await client.call('registered_mail', 'GET', `${recipientPath}/download_archive`);
      expect(archive.status).to.equal(200);

      const seen = server.sending(id)!;
      expect(seen).to.deep.include({ api: 'registered_mail', status: 'PROCESSED', customId: 'shp_0001', submitCount: 2 });
      expect(seen.recipients[0].deliveryStatuses.map((status) => status.status)).to.deep.equal(['A01', 'D01', 'N01']);
      expect(server.refusals).to.deep.equal([]);
    });

    it('gives AR without scanning A01, D01 and no AR download', async () => {
      const { id, recipients } = await client.draft('registered_mail', { ...REGISTERED, custom_id: 'shp_0002', acknowledgement_of_receipt_scanning: false }, [
        RECIPIENT,
      ]);
      await client.call('registered_mail', 'POST', `/sendings/${id}/submit`);
      server.settle();
      const recipient = await client.call('registered_mail', 'GET', `/sendings/${id}/recipients/${recipients[0]}`);
      expect(recipient.json.last_delivery_status).to.equal('D01');
      expect((await client.call('registered_mail', 'GET', `/sendings/${id}/recipients/${recipients[0]}/download_acknowledgement_of_receipt`)).status).to.equal(
        404,
      );
    });

    it('returns a letter to sender with the PND codes of the table', async () => {
      server.returnToSender('13 rue du Retour');
      server.returnToSender('Impasse des Absents', 'unclaimed');
      const { id, recipients } = await client.draft('registered_mail', { ...REGISTERED, custom_id: 'shp_0003' }, [
        { ...RECIPIENT, address_line_4: '13 rue du Retour' },
        { ...RECIPIENT, address_line_4: '2 impasse des absents' },
        RECIPIENT,
      ]);
      await client.call('registered_mail', 'POST', `/sendings/${id}/submit`);
      server.settle();
      const codes = async (recipientId: string): Promise<string[]> =>
        (await client.call('registered_mail', 'GET', `/sendings/${id}/recipients/${recipientId}/delivery_statuses`)).json.delivery_statuses.map(
          (status: { status: string }) => status.status,
        );
      expect(await codes(recipients[0])).to.deep.equal(['A01', 'A23', 'N02']);
      expect(await codes(recipients[1])).to.deep.equal(['A01', 'A02', 'P01', 'P03', 'N03']);
      expect(await codes(recipients[2])).to.deep.equal(['A01', 'D01', 'N01']);
      expect((await client.call('registered_mail', 'GET', `/sendings/${id}/recipients/${recipients[0]}/download_acknowledgement_of_receipt`)).status).to.equal(
        404,
      );
      expect((await client.call('registered_mail', 'GET', `/sendings/${id}`)).json.status).to.equal('PROCESSED');
      expect(server.sending(id)!.recipients.map((recipient) => recipient.fate)).to.deep.equal(['return', 'return', 'deliver']);
    });
  });

  describe('simple mail (mail-v2.yaml)', () => {
    it('lives on by its timer to PROCESSED, priced by postage_type, archived when asked', async () => {
      const timed = new MailevaStandIn({ stepDelayMs: 25 });
      await timed.start();
      try {
        const timedClient = clientOf(timed);
        const { id, recipients } = await timedClient.draft(
          'mail',
          { name: 'Relance', custom_id: 'shp_0100', color_printing: false, duplex_printing: false, postage_type: 'ECONOMIC', archiving_duration: 1 },
          [RECIPIENT],
        );
        const draft = await timedClient.call('mail', 'GET', `/sendings/${id}`);
        expect(draft.json).to.deep.include({
          status: 'DRAFT',
          color_printing: false,
          duplex_printing: false,
          postage_type: 'ECONOMIC',
          treat_undelivered_mail: false,
        });
        expect(draft.json).to.not.have.property('acknowledgement_of_receipt');
        expect((await timedClient.call('mail', 'POST', `/sendings/${id}/submit`)).status).to.equal(200);
        const seen = new Set<string>();
        const processed = await until(
          () => timedClient.call('mail', 'GET', `/sendings/${id}`),
          (reply) => {
            seen.add(reply.json.status);
            return reply.json.status === 'PROCESSED';
          },
        );
        expect(processed.json.processed_date).to.be.a('string');
        expect([...seen].every((status) => ['PENDING', 'ACCEPTED', 'PROCESSED'].includes(status))).to.equal(true);
        const recipient = await timedClient.call('mail', 'GET', `/sendings/${id}/recipients/${recipients[0]}`);
        expect(recipient.json).to.deep.include({ status: 'PROCESSED', postage_price: MAILEVA_STAND_IN_PRICES.mail.ECONOMIC, postage_class: 'ECONOMY' });
        expect(recipient.json).to.not.have.property('last_delivery_status');
        const archive = await timedClient.call('mail', 'GET', recipient.json.archive_url);
        expect(archive.status).to.equal(200);
        expect(await pdfTextOfZip(archive.bytes)).to.include(`Maileva archive ${recipients[0]}`);
        expect((await timedClient.call('mail', 'GET', `/sendings/${id}/recipients/${recipients[0]}/delivery_statuses`)).json.delivery_statuses).to.deep.equal(
          [],
        );
        expect(timed.violations, timed.violations.join('\n')).to.deep.equal([]);
        expect(timed.refusals).to.deep.equal([]);
      } finally {
        await timed.stop();
      }
    });

    it('reports a returned simple letter as N10 only with treat_undelivered_mail', async () => {
      server.returnToSender('Rue Inconnue');
      const withPnd = await client.draft('mail', { custom_id: 'shp_0101', treat_undelivered_mail: true }, [{ ...RECIPIENT, address_line_4: '1 rue inconnue' }]);
      const withoutPnd = await client.draft('mail', { custom_id: 'shp_0102' }, [{ ...RECIPIENT, address_line_4: '1 rue inconnue' }]);
      await client.call('mail', 'POST', `/sendings/${withPnd.id}/submit`);
      await client.call('mail', 'POST', `/sendings/${withoutPnd.id}/submit`);
      server.settle();
      const pnd = await client.call('mail', 'GET', `/sendings/${withPnd.id}/recipients/${withPnd.recipients[0]}`);
      expect(pnd.json).to.deep.include({ status: 'PROCESSED', last_delivery_status: 'N10' });
      expect(pnd.json.undelivered_mail_date).to.be.a('string');
      const statuses = await client.call('mail', 'GET', `/sendings/${withPnd.id}/recipients/${withPnd.recipients[0]}/delivery_statuses`);
      expect(statuses.json.delivery_statuses[0]).to.deep.include({ status: 'N10', label: 'PND (Pli Non Distribuable) pour un courrier' });
      const silent = await client.call('mail', 'GET', `/sendings/${withoutPnd.id}/recipients/${withoutPnd.recipients[0]}`);
      expect(silent.json).to.not.have.property('last_delivery_status');
      // No archive without archiving_duration.
      expect((await client.call('mail', 'GET', `/sendings/${withoutPnd.id}/recipients/${withoutPnd.recipients[0]}/download_archive`)).status).to.equal(404);
    });

    it('lets a sending be found by custom_id by paging through GET /sendings (the documents have no filter)', async () => {
      for (const customId of ['page_a', 'page_b', 'page_c'])
        expect((await client.call('mail', 'POST', '/sendings', { json: { custom_id: customId } })).status).to.equal(201);
      expect((await client.call('mail', 'GET', '/sendings?custom_id=page_b')).status).to.equal(400);
      server.refusals.length = 0;
      let path: string | undefined = '/sendings?count=2';
      const found: string[] = [];
      while (path) {
        const page = await client.call('mail', 'GET', path);
        expect(page.status).to.equal(200);
        expect(page.json.sendings.length).to.be.at.most(2);
        found.push(...page.json.sendings.map((sending: { custom_id?: string }) => sending.custom_id));
        path = page.json.paging.next;
      }
      expect(found.filter((customId) => customId?.startsWith('page_'))).to.deep.equal(['page_a', 'page_b', 'page_c']);
      expect(found).to.have.length(server.sendings().filter((sending) => sending.api === 'mail').length);
    });

    it('deletes a DRAFT, not a submitted sending', async () => {
      const created = await client.call('mail', 'POST', '/sendings', { json: { custom_id: 'shp_del' } });
      expect((await client.call('mail', 'DELETE', `/sendings/${created.json.id}`)).status).to.equal(204);
      expect((await client.call('mail', 'GET', `/sendings/${created.json.id}`)).json).to.deep.include({ code: 'SENDING_NOT_FOUND' });
      const { id } = await client.draft('mail', { custom_id: 'shp_del2' }, [RECIPIENT]);
      await client.call('mail', 'POST', `/sendings/${id}/submit`);
      expect((await client.call('mail', 'DELETE', `/sendings/${id}`)).json.errors[0].code).to.equal('SENDING_STATUS_IS_NOT_DRAFT');
      server.refusals.length = 0;
    });
  });

  describe('refusals', () => {
    afterEach(() => {
      server.refusals.length = 0;
    });

    it('refuses addresses the documents refuse, with the codes of their error table', async () => {
      const created = await client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, custom_id: 'shp_0200' } });
      const add = (recipient: Record<string, unknown>): Promise<Reply> =>
        client.call('registered_mail', 'POST', `/sendings/${created.json.id}/recipients`, { json: recipient });
      const codes = async (recipient: Record<string, unknown>): Promise<string[]> => {
        const reply = await add(recipient);
        expect(reply.status).to.equal(400);
        return reply.json.errors.map((error: { code: string }) => error.code);
      };
      expect(await codes({ ...RECIPIENT, address_line_6: 'Paris 75007' })).to.deep.equal(['ADDRESS_LINE_6_WRONG_FORMAT']);
      expect(await codes({ ...RECIPIENT, address_line_6: '7500 Paris' })).to.deep.equal(['ADDRESS_LINE_6_WRONG_FORMAT']);
      expect(await codes({ ...RECIPIENT, address_line_4: 'x'.repeat(39) })).to.deep.equal(['ADDRESS_LINE_4_TOO_LONG']);
      expect(await codes({ address_line_6: '75007 Paris', country_code: 'FR' })).to.deep.equal(['EMPTY_ADDRESS_LINE_1_OR_ADDRESS_LINE_2']);
      expect(await codes({ address_line_2: 'Mme Eva DUPONT', country_code: 'FR' })).to.deep.equal(['EMPTY_ADDRESS_LINE_6']);
      // registered-mail-v2.yaml: France and the DROM-COM only.
      expect(await codes({ ...RECIPIENT, country_code: 'BE', address_line_6: '1000 Bruxelles' })).to.deep.equal(['INVALID_COUNTRY_CODE']);
      const refused = await add({ ...RECIPIENT, address_line_6: 'Paris' });
      expect(refused.json.errors[0].message).to.include('[CODE_POSTAL] [VILLE]');
      // Accepted abroad by mail v2, where line 6 is free.
      const mail = await client.call('mail', 'POST', '/sendings', { json: { custom_id: 'shp_0201' } });
      const abroad = await client.call('mail', 'POST', `/sendings/${mail.json.id}/recipients`, {
        json: { ...RECIPIENT, country_code: 'BE', address_line_6: '1000 Bruxelles' },
      });
      expect(abroad.status).to.equal(201);
    });

    it('rejects after submit the recipients the operator refuses: PROCESSED_WITH_ERRORS, or REJECTED when none is left', async () => {
      server.rejectAddressesContaining('99999');
      const some = await client.draft('registered_mail', { ...REGISTERED, custom_id: 'shp_0300' }, [
        RECIPIENT,
        { ...RECIPIENT, address_line_6: '99999 Nulle-Part' },
      ]);
      const all = await client.draft('registered_mail', { ...REGISTERED, custom_id: 'shp_0301' }, [{ ...RECIPIENT, address_line_6: '99999 Nulle-Part' }]);
      await client.call('registered_mail', 'POST', `/sendings/${some.id}/submit`);
      await client.call('registered_mail', 'POST', `/sendings/${all.id}/submit`);
      server.advance();
      const rejected = await client.call('registered_mail', 'GET', `/sendings/${some.id}/recipients/${some.recipients[1]}`);
      expect(rejected.json.status).to.equal('REJECTED');
      expect(rejected.json.status_detail).to.be.a('string');
      expect(rejected.json).to.not.have.property('postage_price');
      expect((await client.call('registered_mail', 'GET', `/sendings/${all.id}`)).json.status).to.equal('REJECTED');
      server.settle();
      const partly = await client.call('registered_mail', 'GET', `/sendings/${some.id}`);
      expect(partly.json.status).to.equal('PROCESSED_WITH_ERRORS');
      expect(partly.json.recipients_counts).to.deep.equal({ draft: 0, pending: 0, processed: 1, rejected: 1, total: 2 });
      expect(
        (await client.call('registered_mail', 'GET', `/sendings/${some.id}/recipients/${some.recipients[1]}/delivery_statuses`)).json.delivery_statuses,
      ).to.deep.equal([]);
    });

    it('refuses requests that break the documents with 400 and errors_response', async () => {
      const refusedWith = async (reply: Promise<Reply>, code: string): Promise<void> => {
        const { status, json } = await reply;
        expect(status, JSON.stringify(json)).to.equal(400);
        expect(json.errors.map((error: { code: string }) => error.code)).to.include(code);
      };
      const { notification_email: _email, ...withoutEmail } = REGISTERED;
      await refusedWith(client.call('registered_mail', 'POST', '/sendings', { json: withoutEmail }), 'INVALID_NOTIFICATION_EMAIL');
      await refusedWith(
        client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, notification_email: 'nope' } }),
        'INVALID_NOTIFICATION_EMAIL',
      );
      await refusedWith(client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, archiving_duration: 1 } }), 'INVALID_PARAMETER');
      await refusedWith(client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, custom_id: 'x'.repeat(39) } }), 'CUSTOM_ID_WRONG_FORMAT');
      await refusedWith(client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, custom_id: '' } }), 'CUSTOM_ID_EMPTY');
      await refusedWith(client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, name: '' } }), 'EMPTY_NAME');
      // A misspelt option would be silently dropped by a lenient server, and the letter sent without AR.
      const misspelt = await client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, acknowledgment_of_receipt: true } });
      expect(misspelt.status).to.equal(400);
      expect(misspelt.json.errors[0].message).to.include('/acknowledgment_of_receipt');
      // Options of the other API.
      await refusedWith(client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, postage_type: 'FAST' } }), 'INVALID_PARAMETER');
      await refusedWith(client.call('mail', 'POST', '/sendings', { json: { acknowledgement_of_receipt: true } }), 'INVALID_PARAMETER');
      await refusedWith(client.call('mail', 'POST', '/sendings', { json: { postage_type: 'SLOW' } }), 'INVALID_PARAMETER');
      await refusedWith(
        client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, acknowledgement_of_receipt: false } }),
        'INVALID_PARAMETER',
      );
      await refusedWith(client.call('mail', 'POST', '/sendings', { json: { color_printing: 'yes' } }), 'INVALID_PARAMETER');
      await refusedWith(client.call('mail', 'GET', '/sendings?count=zero'), 'INVALID_PARAMETER');
      await refusedWith(client.call('mail', 'GET', '/sendings?start_index=0'), 'INVALID_PARAMETER');
      await refusedWith(client.call('mail', 'POST', '/sendings', { json: { name: 'x' }, contentType: 'text/plain' }), 'INVALID_PARAMETER');

      const created = await client.call('registered_mail', 'POST', '/sendings', { json: { ...REGISTERED, custom_id: 'shp_0400' } });
      const id = created.json.id as string;
      expect(created.headers.get('location')).to.equal(`${server.apiUrl}/registered_mail/v2/sendings/${id}`);
      // PATCH takes application/merge-patch+json only, and (registered mail) the whole sending_creation.
      await refusedWith(client.call('registered_mail', 'PATCH', `/sendings/${id}`, { json: { color_printing: false } }), 'INVALID_PARAMETER');
      await refusedWith(
        client.call('registered_mail', 'PATCH', `/sendings/${id}`, { json: { color_printing: false }, contentType: 'application/merge-patch+json' }),
        'EMPTY_NAME',
      );
      const patched = await client.call('registered_mail', 'PATCH', `/sendings/${id}`, {
        json: { ...REGISTERED, custom_id: 'shp_0400', color_printing: false },
        contentType: 'application/merge-patch+json',
      });
      expect(patched.status).to.equal(200);
      expect(patched.json.color_printing).to.equal(false);
      const byPost = await client.call('registered_mail', 'POST', `/sendings/${id}`, {
        json: { ...REGISTERED, custom_id: 'shp_0400', duplex_printing: false },
        contentType: 'application/merge-patch+json',
      });
      expect(byPost.status).to.equal(200);
      expect(byPost.json.duplex_printing).to.equal(false);

      await refusedWith(client.call('registered_mail', 'POST', `/sendings/${id}/submit`), 'INVALID_DOCUMENTS_COUNT');
      await refusedWith(client.upload('registered_mail', id, Buffer.from('Hello, not a PDF')), 'DOCUMENT_TYPE_NOT_ACCEPTED');
      await refusedWith(client.upload('registered_mail', id, Buffer.alloc(0)), 'EMPTY_DOCUMENT');
      await refusedWith(client.upload('registered_mail', id, Buffer.from('%PDF-1.4\ntruncated')), 'CORRUPTED_DOCUMENT');
      await refusedWith(client.upload('registered_mail', id, onePagePdf(['x']), null), 'EMPTY_METADATA');
      await refusedWith(client.upload('registered_mail', id, onePagePdf(['x']), { priority: 'first' }), 'INVALID_PRIORITY');
      await refusedWith(client.upload('registered_mail', id, onePagePdf(['x']), { priority: 1, colour: true }), 'INVALID_PARAMETER');
      const uploaded = await client.upload('registered_mail', id, onePagePdf(['x']), { priority: 1, name: 'a.pdf' });
      expect(uploaded.status).to.equal(201);
      expect(uploaded.json).to.deep.include({ priority: 1, name: 'a.pdf', type: 'application/pdf' });
      await refusedWith(client.upload('registered_mail', id, onePagePdf(['y']), { priority: 1, name: 'b.pdf' }), 'DUPLICATE_PRIORITY');
      await refusedWith(client.call('registered_mail', 'POST', `/sendings/${id}/submit`), 'INVALID_RECIPIENTS_COUNT');

      expect((await client.call('registered_mail', 'GET', '/sendings/00000000-0000-0000-0000-000000000000')).status).to.equal(404);
      expect((await client.call('registered_mail', 'GET', `/sendings/${'x'.repeat(41)}`)).status).to.equal(400);
      expect((await client.call('registered_mail', 'PUT', `/sendings/${id}`, { json: {} })).status).to.equal(405);
      expect(server.refusals.length).to.be.greaterThan(20);
    });
  });

  describe('faults', () => {
    it('answers the next calls 429 (Retry-After) or 503 before doing anything', async () => {
      await client.bearer();
      const before = server.sendings().length;
      server.failNext(2, 429);
      server.failNext(1, 503);
      const first = await client.call('mail', 'POST', '/sendings', { json: { custom_id: 'shp_fault' } });
      expect(first.status).to.equal(429);
      expect(first.headers.get('retry-after')).to.equal('1');
      expect((await client.call('mail', 'POST', '/sendings', { json: { custom_id: 'shp_fault' } })).status).to.equal(429);
      const third = await client.call('mail', 'POST', '/sendings', { json: { custom_id: 'shp_fault' } });
      expect(third.status).to.equal(503);
      expect(third.headers.get('retry-after')).to.equal(null);
      expect(server.sendings().length).to.equal(before);
      expect((await client.call('mail', 'POST', '/sendings', { json: { custom_id: 'shp_fault' } })).status).to.equal(201);
      expect(server.sendings().length).to.equal(before + 1);
      expect(server.calls.filter((call) => call.fault).map((call) => call.status)).to.deep.equal([429, 429, 503]);
    });

    it('fails a share of API calls at random, repeatably with a seed, never token calls', async () => {
      const run = async (): Promise<number[]> => {
        const flaky = new MailevaStandIn({ faultRate: 0.5, seed: 7 });
        await flaky.start();
        try {
          const flakyClient = clientOf(flaky);
          await flakyClient.bearer();
          const statuses: number[] = [];
          for (let i = 0; i < 30; i++) statuses.push((await flakyClient.call('registered_mail', 'GET', '/sendings')).status);
          expect((await requestToken(flaky)).status).to.equal(200);
          expect(flaky.violations).to.deep.equal([]);
          return statuses;
        } finally {
          await flaky.stop();
        }
      };
      const statuses = await run();
      expect(statuses).to.include.members([200, 429, 503]);
      expect(statuses.every((status) => [200, 429, 503].includes(status))).to.equal(true);
      expect(await run()).to.deep.equal(statuses);
    });
  });

  describe('self-checks', () => {
    it('loads the three documents and reads their tables', async () => {
      const specs = await loadMailevaSpecs();
      expect(specs.registered_mail.deliveryStatuses.get('A01')?.label).to.equal('Pris en charge');
      expect(specs.registered_mail.deliveryStatuses.get('D01')?.label).to.equal('Distribué');
      expect(specs.mail.deliveryStatuses.get('N10')?.label).to.equal('PND (Pli Non Distribuable) pour un courrier');
      expect(specs.mail.errorCodes.get('ADDRESS_LINE_6_WRONG_FORMAT')).to.include('[CODE_POSTAL] [VILLE]');
      expect(specs.registered_mail.errorCodes.size).to.equal(39);
    });

    it('catches an answer that drifts from the documents', async () => {
      const sending = { id: 'a', status: 'DRAFT' };
      expect(await checkMailevaResponse('registered_mail', 'get', '/sendings/a', 200, { contentType: 'application/json', body: sending })).to.deep.equal([]);
      const wrongEnum = await checkMailevaResponse('registered_mail', 'get', '/sendings/a', 200, {
        contentType: 'application/json',
        body: { ...sending, status: 'SENT' },
      });
      expect(wrongEnum.join()).to.include('must be equal to one of the allowed values');
      const wrongType = await checkMailevaResponse('mail', 'get', '/sendings/a', 200, {
        contentType: 'application/json',
        body: { ...sending, documents_count: '1' },
      });
      expect(wrongType.join()).to.include('/documents_count must be integer');
      const badDate = await checkMailevaResponse('mail', 'get', '/sendings/a', 200, {
        contentType: 'application/json',
        body: { ...sending, creation_date: 'yesterday' },
      });
      expect(badDate.join()).to.include('must match format "date-time"');
      const invented = await checkMailevaResponse('mail', 'get', '/sendings/a', 200, {
        contentType: 'application/json',
        body: { ...sending, deposit_proof_url: '/x' },
      });
      expect(invented.join()).to.include('/deposit_proof_url is not declared');
      const noList = await checkMailevaResponse('mail', 'get', '/sendings', 200, { contentType: 'application/json', body: { sendings: [] } });
      expect(noList.join()).to.include("must have required property 'paging'");
      const wrongStatus = await checkMailevaResponse('mail', 'post', '/sendings/a/submit', 201, {});
      expect(wrongStatus.join()).to.include('status not declared');
      const noLocation = await checkMailevaResponse('mail', 'post', '/sendings', 201, { contentType: 'application/json', body: sending });
      expect(noLocation.join()).to.include("must have required property 'location'");
      const pdfForZip = await checkMailevaResponse('registered_mail', 'get', '/sendings/a/download_deposit_proof', 200, {
        contentType: 'application/pdf',
        body: onePagePdf(['x']),
      });
      expect(pdfForZip.join()).to.include('content type application/pdf where the document declares application/zip');
      const notWrapped = await checkMailevaResponse('mail', 'get', '/sendings/a', 404, {
        contentType: 'application/json',
        body: { errors: [{ code: 'X', message: 'y' }] },
      });
      expect(notWrapped.join()).to.include("must have required property 'code'");
    });

    it('puts its own drifting answers into violations', async () => {
      server.tamperNextResponse((body) => ({ ...body, status: 'SHIPPED' }));
      const created = await client.call('mail', 'POST', '/sendings', { json: { custom_id: 'shp_tamper' } });
      expect(created.json.status).to.equal('SHIPPED');
      expect(server.violations).to.have.length(1);
      expect(server.violations[0]).to.include('mail POST /sendings → 201').and.include('/status must be equal to one of the allowed values');
      server.violations.length = 0;
    });

    it('builds PDFs that PDF.js reads, and counts pages', async () => {
      const pdf = onePagePdf(['Maileva deposit proof 123', 'Déposé (ok)']);
      const facts = await readPdf(pdf);
      expect(facts.pages).to.equal(1);
      expect(facts.text).to.include('Maileva deposit proof 123');
      expect(pdfPageCount(pdf)).to.equal(1);
      expect(pdfPageCount(Buffer.from('%PDF-1.4 << /Type /Page >> << /Type/Pages >> << /Type /Page/Parent 2 0 R >> %%EOF'))).to.equal(2);
    });
  });
});
