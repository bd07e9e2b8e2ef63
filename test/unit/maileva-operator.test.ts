import { expect } from 'chai';
import { deflateRawSync } from 'node:zlib';
import { loadConfig } from '../../lib/config.js';
import { mailevaAddress, mailevaStatus, pdfFrom } from '../../activities/operator/maileva.js';
import type { Recipient, Sending } from '../../activities/partners/maileva.js';

const sending = (extra: Partial<Sending> = {}): Sending => ({ id: 's1', status: 'ACCEPTED', ...extra });
const recipient = (extra: Partial<Recipient> = {}): Recipient => ({ id: 'r1', status: 'PROCESSED', ...extra });
const codes = (...list: string[]) => list.map((status) => ({ status, label: status, date: '2026-11-24T10:00:00Z' }));

describe('Maileva: our status from what it reports (docs/operators.md, status mapping)', () => {
  it('a processed recipient is printed; the deposit proof makes a registered letter posted', () => {
    expect(mailevaStatus('registered', sending(), recipient(), [])).to.equal('printed');
    expect(mailevaStatus('registered', sending({ deposit_proof_date: '2026-11-24T09:00:00Z' }), recipient(), [])).to.equal('posted');
    expect(mailevaStatus('ar', sending({ deposit_proof_url: 'https://…' }), recipient(), [])).to.equal('posted');
  });

  it('a simple letter, which has no deposit proof, is posted once its sending is processed, and goes no further', () => {
    expect(mailevaStatus('simple', sending({ status: 'ACCEPTED' }), recipient(), [])).to.equal('printed');
    expect(mailevaStatus('simple', sending({ status: 'PROCESSED' }), recipient(), [])).to.equal('posted');
    expect(mailevaStatus('simple', sending({ status: 'PROCESSED' }), recipient(), codes('A01', 'D01'))).to.equal('posted');
  });

  it("La Poste's codes: taken in charge and presented are in transit, D01 delivered, N01 the signed AR", () => {
    for (const code of ['A01', 'A02', 'A05', 'A20', 'P01', 'P02'])
      expect(mailevaStatus('registered', sending(), recipient(), codes(code)), code).to.equal('in_transit');
    expect(mailevaStatus('registered', sending(), recipient(), codes('A01', 'D01'))).to.equal('delivered');
    expect(mailevaStatus('ar', sending(), recipient(), codes('A01', 'D01'))).to.equal('delivered');
    expect(mailevaStatus('ar', sending(), recipient(), codes('A01', 'D01', 'N01'))).to.equal('ar_signed');
    // A registered letter without AR does not go past delivered.
    expect(mailevaStatus('registered', sending(), recipient(), codes('D01', 'N01'))).to.equal('delivered');
  });

  it('return and undeliverable codes end the letter returned, whatever came before', () => {
    for (const code of ['A16', 'A23', 'A26', 'P03', 'P04', 'N02', 'N03', 'N05', 'N07', 'N10'])
      expect(mailevaStatus('ar', sending(), recipient(), codes('A01', code)), code).to.equal('returned');
    expect(mailevaStatus('simple', sending({ status: 'PROCESSED' }), recipient({ last_delivery_status: 'N10' }), [])).to.equal('returned');
  });
});

describe('Maileva: our addresses on its six lines', () => {
  it('puts the name first, our lines in order, then the postcode and city (upper case) on line 6', () => {
    expect(mailevaAddress({ name: 'Mme Eva Dupont', lines: ['Bât. B', '12 rue des Lilas'], postcode: '69003', city: 'Lyon', country: 'FR' })).to.deep.equal({
      address_line_1: 'Mme Eva Dupont',
      address_line_2: 'Bât. B',
      address_line_3: '12 rue des Lilas',
      address_line_6: '69003 LYON',
      country_code: 'FR',
    });
  });
});

describe('Maileva: downloads as PDF, whether served as a PDF or inside a zip', () => {
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  function zipOf(name: string, content: Buffer, deflate: boolean): Buffer {
    const data = deflate ? deflateRawSync(content) : content;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(deflate ? 8 : 0, 8);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(content.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    return Buffer.concat([header, Buffer.from(name), data]);
  }

  it('passes a PDF through and takes the first PDF out of a stored or deflated zip', () => {
    expect(pdfFrom(pdf).equals(pdf)).to.equal(true);
    expect(pdfFrom(zipOf('preuve.pdf', pdf, false)).equals(pdf)).to.equal(true);
    expect(pdfFrom(Buffer.concat([zipOf('readme.txt', Buffer.from('hello'), true), zipOf('preuve.pdf', pdf, true)])).equals(pdf)).to.equal(true);
    expect(() => pdfFrom(zipOf('readme.txt', Buffer.from('hello'), true))).to.throw(/without a PDF/);
  });
});

describe('POSTAL_OPERATOR configuration', () => {
  const base = { APP_ENV: 'local', SECRET_KEY: 'ab'.repeat(32), MAIL_FROM: 'Service postal <operations@example.fr>' };
  const credentials = { MAILEVA_CLIENT_ID: 'id', MAILEVA_CLIENT_SECRET: 'secret', MAILEVA_USERNAME: 'user', MAILEVA_PASSWORD: 'password' };

  it('is the simulator by default; maileva with its documented default addresses', () => {
    expect(loadConfig(base).postalOperator).to.deep.equal({ kind: 'simulator' });
    const setting = loadConfig({ ...base, POSTAL_OPERATOR: 'maileva', ...credentials }).postalOperator;
    expect(setting.kind).to.equal('maileva');
    if (setting.kind !== 'maileva') return;
    expect(setting.maileva.apiUrl).to.equal('https://api.maileva.com');
    expect(setting.maileva.authUrl).to.equal('https://connexion.maileva.com/auth/realms/services/protocol/openid-connect');
  });

  it('refuses maileva without its credentials, in one line naming what is missing and no secret', () => {
    expect(() => loadConfig({ ...base, POSTAL_OPERATOR: 'maileva', MAILEVA_CLIENT_ID: 'id', MAILEVA_PASSWORD: 'hunter2' })).to.throw(
      /^POSTAL_OPERATOR=maileva needs MAILEVA_CLIENT_SECRET, MAILEVA_USERNAME \(missing\)$/,
    );
    expect(() => loadConfig({ ...base, POSTAL_OPERATOR: 'laposte' })).to.throw(/POSTAL_OPERATOR must be simulator or maileva/);
    // Maileva refuses a sending whose notification address is not one.
    expect(() => loadConfig({ ...base, ...credentials, POSTAL_OPERATOR: 'maileva', MAIL_FROM: 'Service <no-reply@localhost>' })).to.throw(
      /needs MAIL_FROM with a real address/,
    );
  });
});
