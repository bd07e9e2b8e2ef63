import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { PDFArray, PDFDocument, PDFRawStream, type PDFPage } from 'pdf-lib';
import { balanceOf, call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { base64, encryptedPdf, javascriptPdf, malformedPdf, textPdf, US_LETTER } from '../support/own-pdfs.js';
import { readPdf } from '../support/pdf.js';
import { stack } from '../support/stack.js';
import { priceOf } from '../../domain/billing/prices.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A page's content streams as stored in the file (still compressed): copied pages carry the same bytes. */
function rawContent(page: PDFPage): Buffer {
  const contents = page.node.Contents();
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  return Buffer.concat(
    refs.map((ref) => {
      const stream = page.doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) throw new Error('a content stream that was not read as stored');
      return Buffer.from(stream.getContents());
    }),
  );
}

/**
 * letter.pdf end to end: every refusal before anything is charged, the quote and the debit that
 * agree to the cent, and the file the bundled operator was handed (operator_filings.pdf) compared
 * with the one sent: its pages after our address sheet, or the file itself with first_page.
 */
describe('mailings of the customer’s own PDF (letter.pdf)', function () {
  this.timeout(120_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
  });

  const body = (pdf: Uint8Array, options: Record<string, unknown> = {}, mode = 'simple') => ({
    mode,
    letter: { pdf: base64(pdf), title: 'Mon courrier' },
    sender,
    recipient,
    options,
  });
  const post = (key: string, request: unknown) => call('POST', '/v1/mailings', { key, body: request });
  const quote = (key: string, request: unknown) => call('POST', '/v1/mailing-quotes', { key, body: request });
  const filed = (id: string) =>
    eventually(
      () => stack().db('operator_filings').where({ shipment_id: id }).first('filed_at', 'pdf'),
      (row) => !!row?.filed_at,
      60_000,
      200,
    ) as Promise<{ filed_at: Date; pdf: Buffer }>;

  it('refuses malformed, encrypted, JavaScript-carrying, US letter and over-long PDFs with their reasons; nothing is charged or created', async () => {
    const cases: [string, Uint8Array, string][] = [
      ['malformed', malformedPdf(), 'unreadable'],
      ['encrypted', await encryptedPdf(), 'encrypted'],
      ['JavaScript', await javascriptPdf(), 'active_content'],
      ['US letter', await textPdf({ size: US_LETTER }), 'page_size'],
      ['46 pages', await textPdf({ pages: 46 }), 'too_many_sheets'],
      ['Helvetica not embedded', await textPdf({ standardFont: true }), 'font_not_embedded'],
    ];
    const before = await balanceOf(account.id);
    const count = async () => Number((await stack().db('shipments').where({ account_id: account.id }).count({ n: '*' }))[0]!.n);
    const mailings = await count();
    for (const [name, pdf, reason] of cases) {
      for (const answer of [await post(account.liveKey, body(pdf)), await quote(account.liveKey, body(pdf))]) {
        expect(answer.status, `${name}: ${answer.text}`).to.equal(422);
        expect(answer.body.error.code, name).to.equal('pdf_refused');
        expect(answer.body.error.details, name).to.include({ field: 'letter.pdf', reason });
      }
    }
    const letter = (await post(account.liveKey, body(await textPdf({ size: US_LETTER })))).body.error;
    expect(letter.details.pages).to.deep.equal([{ page: 1, widthPt: 612, heightPt: 792 }]);
    const long = (await post(account.liveKey, body(await textPdf({ pages: 46 })))).body.error;
    expect(long.details).to.include({ pages: 46, sheets: 46, maxSheets: 45 });
    expect(await balanceOf(account.id)).to.equal(before);
    expect(await count()).to.equal(mailings);
    // Not base64 at all: the schema's 400; beyond SPEC.md's 1 MB body: 413 as for any request.
    expect((await post(account.liveKey, { ...body(await textPdf()), letter: { pdf: 'not base64!' } })).status).to.equal(400);
    const huge = await post(account.liveKey, { ...body(await textPdf()), letter: { pdf: 'A'.repeat(1_100_000) } });
    expect(huge.status).to.equal(413);
    expect(huge.body.error.code).to.equal('payload_too_large');
  });

  it('quotes a 3-sheet colour duplex PDF exactly, and the live mailing debits just that', async () => {
    // 6 pages in duplex: 3 sheets of the customer's, in colour, plus the address sheet in front.
    const pdf = await textPdf({ pages: 6 });
    const request = body(pdf, { color: true, duplex: true });
    const expected = priceOf('mailing.simple') + 3 * priceOf('mailing.sheet') + 3 * priceOf('mailing.sheet.color');
    expect(expected).to.equal(189 + 3 * 12 + 3 * 25);
    const before = await balanceOf(account.id);
    const priced = await quote(account.liveKey, request);
    expect(priced.status, priced.text).to.equal(200);
    expect(priced.body).to.deep.equal({
      amountCents: expected,
      vatCents: Math.round(expected * 0.2),
      sheets: 4,
      pages: 6,
      lines: [
        { unit: 'mailing.simple', quantity: 1, amountCents: 189 },
        { unit: 'mailing.sheet', quantity: 3, amountCents: 36 },
        { unit: 'mailing.sheet.color', quantity: 3, amountCents: 75 },
      ],
    });
    // Counting the address sheet instead: 4 pages in duplex make 3 sheets in the envelope.
    const three = await quote(account.liveKey, body(await textPdf({ pages: 4 }), { color: true, duplex: true }));
    expect(three.body).to.deep.include({ amountCents: 189 + 2 * 12 + 2 * 25, sheets: 3, pages: 4 });
    expect(await balanceOf(account.id), 'a quote is free').to.equal(before);
    const created = await post(account.liveKey, request);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.amountCents).to.equal(expected);
    expect(await balanceOf(account.id)).to.equal(before - expected);
    expect(created.headers.get('x-service-balance')).to.equal(String(before - expected));
    expect(created.body.document).to.deep.equal({
      kind: 'pdf',
      title: 'Mon courrier',
      text: '',
      sha256: sha256(pdf),
      pages: 6,
      sheets: 4,
      addressPlacement: 'insert_blank_page',
    });
    // Duplex: the address sheet's back stays blank so that page 1 starts a sheet of its own.
    const { pdf: sent } = await filed(created.body.id);
    expect((await PDFDocument.load(sent)).getPageCount()).to.equal(8);
  });

  it('quotes catalogue and free letters at their flat price, as before', async () => {
    const free = await quote(account.testKey, { mode: 'registered', letter: freeLetter, sender, recipient, options: { color: true } });
    expect(free.status, free.text).to.equal(200);
    expect(free.body).to.deep.equal({
      amountCents: 649,
      vatCents: 130,
      sheets: null,
      pages: null,
      lines: [{ unit: 'mailing.registered', quantity: 1, amountCents: 649 }],
    });
    const unknown = await quote(account.testKey, { mode: 'simple', letter: { slug: 'no-such-letter' }, sender, recipient });
    expect(unknown.status).to.equal(404);
  });

  it('files the address sheet then the customer’s pages unchanged; the SHA-256 is in the shipment and the filing proof', async () => {
    const pdf = await textPdf({ pages: 3 });
    const created = await post(account.liveKey, body(pdf));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.amountCents).to.equal(189 + 3 * 12);
    const id = created.body.id as string;
    const { pdf: sent } = await filed(id);
    const stored = await stack()
      .db('shipment_pdfs as p')
      .join('pdf_documents as d', 'd.sha256', 'p.sha256')
      .where({ shipment_id: id })
      .first('d.pdf', 'p.sha256');
    expect(Buffer.compare(stored.pdf, Buffer.from(pdf)), 'stored byte for byte').to.equal(0);
    // The same PDF mailed again is linked to the stored bytes, not stored twice.
    const again = await post(account.liveKey, body(pdf));
    expect(again.status, again.text).to.equal(201);
    expect(await stack().db('shipment_pdfs').where({ sha256: stored.sha256 }).count({ n: '*' }).first()).to.deep.equal({ n: '2' });
    expect(await stack().db('pdf_documents').where({ sha256: stored.sha256 }).count({ n: '*' }).first()).to.deep.equal({ n: '1' });
    const [mine, theirs] = [await PDFDocument.load(pdf), await PDFDocument.load(sent)];
    expect(theirs.getPageCount()).to.equal(4);
    mine.getPages().forEach((page, i) => {
      expect(Buffer.compare(rawContent(page), rawContent(theirs.getPage(i + 1))), `page ${i + 1}`).to.equal(0);
      expect(theirs.getPage(i + 1).getSize()).to.deep.equal(page.getSize());
    });
    const facts = await readPdf(sent);
    const [sheet, ...pages] = facts.text.split('\f');
    expect(sheet)
      .to.include('Mairie de Lyon')
      .and.include('1 Place de la Comédie') // as the national address base writes it
      .and.include('69001 LYON')
      .and.include('Marie Dupont')
      .and.include('69003 LYON');
    expect(pages.map((text) => text.replace(/\s+/g, ' ').trim())).to.deep.equal([1, 2, 3].map((n) => `Page ${n} du document client Fin de la page ${n}`));
    expect(
      facts.fonts.every((font) => font.embedded),
      JSON.stringify(facts.fonts),
    ).to.equal(true);

    const mailing = await eventually(
      () => call('GET', `/v1/mailings/${id}`, { key: account.liveKey }),
      (r) => r.body.proofs?.some((p: { kind: string }) => p.kind === 'filing'),
      60_000,
      500,
    );
    expect(mailing.body.document).to.include({ kind: 'pdf', sha256: sha256(pdf), pages: 3, sheets: 4 });
    const link = await call('GET', `/v1/mailings/${id}/proofs/filing`, { key: account.liveKey });
    const proof = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
    expect((await readPdf(proof)).text.replace(/\s+/g, '')).to.include(sha256(pdf));
  });

  it('first_page: refused when the window zone of page 1 holds content; accepted without, the address then drawn in that zone', async () => {
    const busy = await textPdf({ page1TextAt: { leftMm: 120, topMm: 60, text: 'Mairie de Lyon' } });
    const refused = await post(account.liveKey, body(busy, { addressPlacement: 'first_page' }));
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.error.details).to.deep.include({ reason: 'window_not_blank', found: { kind: 'text', operator: 'Tj' } });
    expect(refused.body.error.details.window).to.include({ left: 100, right: 200, top: 40, bottom: 95 });

    const clear = await textPdf({ pages: 2, page1TextAt: { leftMm: 20, topMm: 120, text: 'Madame, Monsieur,' } });
    const priced = await quote(account.liveKey, body(clear, { addressPlacement: 'first_page' }));
    expect(priced.body).to.include({ amountCents: 189 + priceOf('mailing.sheet'), sheets: 2, pages: 2 });
    const created = await post(account.liveKey, body(clear, { addressPlacement: 'first_page' }));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.document).to.include({ sheets: 2, addressPlacement: 'first_page' });
    const { pdf: sent } = await filed(created.body.id);
    const [mine, theirs] = [await PDFDocument.load(clear), await PDFDocument.load(sent)];
    expect(theirs.getPageCount()).to.equal(2);
    expect(Buffer.compare(rawContent(mine.getPage(1)), rawContent(theirs.getPage(1))), 'page 2 unchanged').to.equal(0);
    // Page 1 keeps its own content, with the recipient's block (not the sender's) drawn over its window zone.
    expect(rawContent(theirs.getPage(0)).includes(rawContent(mine.getPage(0))), 'page 1 content kept').to.equal(true);
    const [first, second] = (await readPdf(sent)).text.split('\f');
    expect(first).to.include('Madame, Monsieur,').and.include('Page 1 du document client').and.include('Mairie de Lyon').and.include('69001 LYON');
    expect(first).to.not.include('Marie Dupont');
    expect(second?.replace(/\s+/g, ' ').trim()).to.equal('Page 2 du document client Fin de la page 2');
    expect(created.body.document.sha256).to.equal(sha256(clear));
  });

  it('a test key checks and records a PDF mailing without charging; GET and the list show its document', async () => {
    const pdf = await textPdf({ pages: 2 });
    const created = await post(account.testKey, body(pdf, { duplex: true }, 'ar'));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.amountCents).to.equal(0);
    const listed = await call('GET', '/v1/mailings?limit=5', { key: account.testKey });
    expect(listed.body.data.find((s: { id: string }) => s.id === created.body.id).document).to.include({ kind: 'pdf', sha256: sha256(pdf), sheets: 2 });
    const advanced = await call('POST', `/v1/test/mailings/${created.body.id}/advance`, { key: account.testKey, body: { step: 2 } });
    expect(advanced.status, advanced.text).to.equal(200);
  });
});
