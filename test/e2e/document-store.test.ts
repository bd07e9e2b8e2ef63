import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { balanceOf, call, createAccount, eventually, IsolatedServices, startedMailingWorkflow, type TestAccount } from '../support/api.js';
import { admin } from '../support/admin.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { base64, textPdf } from '../support/own-pdfs.js';
import { stack } from '../support/stack.js';
import { freeWeedPorts, resolveWeed, startWeed, type RunningWeed, type WeedPorts } from '../../scripts/local/seaweedfs.js';
import { s3Client } from '../../domain/documents/s3-store.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * DOCUMENT_STORE=s3 against a real S3-compatible server: SeaweedFS's S3 gateway (scripts/local/
 * seaweedfs.ts), started here on free ports over a temporary folder and stopped by its pid. An API
 * and a worker of their own (their own task queue) use it; the test stack's stay on PostgreSQL.
 */
describe('documents and proofs in an S3-compatible object store (DOCUMENT_STORE=s3, SeaweedFS)', function () {
  this.timeout(600_000);
  const bucket = 'svc-postal-documents';
  let dataDir: string;
  let binary: string;
  let ports: WeedPorts;
  let weed: RunningWeed | undefined;
  let s3: S3Client;
  let settings: Record<string, string>;
  let services: IsolatedServices;
  let account: TestAccount;
  /** The live AR mailing of the second test, final once it has both proofs. */
  let arMailing: string;

  const object = async (key: string): Promise<Buffer | undefined> => {
    try {
      const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  };
  const objectExists = async (key: string): Promise<boolean> =>
    s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
      () => true,
      (error: { $metadata?: { httpStatusCode?: number } }) => {
        if (error.$metadata?.httpStatusCode === 404) return false;
        throw error;
      },
    );
  const mailing = (id: string) => call('GET', `/v1/mailings/${id}`, { key: account.liveKey, baseUrl: services.api.url });
  const proofLink = (id: string, kind: string) => call('GET', `/v1/mailings/${id}/proofs/${kind}`, { key: account.liveKey, baseUrl: services.api.url });
  const ownPdfMailing = (pdf: Uint8Array, key = account.liveKey) =>
    call('POST', '/v1/mailings', {
      key,
      baseUrl: services.api.url,
      body: { mode: 'simple', letter: { pdf: base64(pdf), title: 'Mon courrier' }, sender, recipient },
    });
  const arLetter = () =>
    call('POST', '/v1/mailings', { key: account.liveKey, baseUrl: services.api.url, body: { mode: 'ar', letter: freeLetter, sender, recipient } });
  const withProofs = (id: string, kinds: string[]) =>
    eventually(
      () => mailing(id),
      (answer) => kinds.every((kind) => answer.body.proofs?.some((p: { kind: string }) => p.kind === kind)),
      240_000,
      500,
    );

  before(async function () {
    // The first build of weed takes minutes (test/support/global-setup.ts builds it before any test).
    this.timeout(1_800_000);
    binary = await resolveWeed((line) => process.stderr.write(`[seaweedfs] ${line}\n`));
    dataDir = mkdtempSync(join(tmpdir(), 'svc-weed-'));
    ports = await freeWeedPorts();
    weed = await startWeed(binary, dataDir, ports);
    settings = {
      DOCUMENT_STORE: 's3',
      S3_ENDPOINT: weed.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'svc-postal-test',
      S3_SECRET_ACCESS_KEY: 'svc-postal-test-secret',
      S3_FORCE_PATH_STYLE: '1',
    };
    s3 = s3Client({
      kind: 's3',
      endpoint: weed.endpoint,
      bucket,
      region: 'us-east-1',
      credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID!, secretAccessKey: settings.S3_SECRET_ACCESS_KEY! },
      forcePathStyle: true,
    });
    // Its volume server registers with its master a moment after the gateway answers.
    const created = await eventually(
      () =>
        s3.send(new CreateBucketCommand({ Bucket: bucket })).then(
          () => 'created',
          (error: Error) => (error.name === 'BucketAlreadyOwnedByYou' || error.name === 'BucketAlreadyExists' ? 'created' : error.message),
        ),
      (outcome) => outcome === 'created',
      60_000,
      500,
    );
    expect(created).to.equal('created');
    services = new IsolatedServices({ ...settings, TEMPORAL_TASK_QUEUE: 'document-store', LOG_LEVEL: 'warn', TEMPORAL_LOG_LEVEL: 'ERROR' });
    await services.start();
    services.startWorker();
    account = await createAccount({ balanceCents: 50_000 });
  });

  after(async () => {
    await services?.stop();
    await weed?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores a mailing’s own PDF in the store under its SHA-256 before its row, and files the letter read back from it', async () => {
    const pdf = await textPdf({ pages: 2 });
    const created = await ownPdfMailing(pdf);
    expect(created.status, created.text).to.equal(201);
    const { db } = stack();
    const document = await db('pdf_documents')
      .where({ sha256: sha256(pdf) })
      .first();
    expect(document, 'the row names the object').to.include({ pdf: null, object_key: sha256(pdf), object_size: pdf.byteLength });
    expect((await object(sha256(pdf)))?.equals(Buffer.from(pdf)), 'the object holds the bytes').to.equal(true);
    // The worker read it back from the store to compose the letter it filed.
    const filing = await eventually(
      () => db('operator_filings').where({ shipment_id: created.body.id }).first('filed_at', 'pdf'),
      (row) => !!row?.filed_at,
      120_000,
      200,
    );
    expect(filing?.filed_at).to.be.an.instanceOf(Date);
    // A second mailing of the same bytes names the same object.
    const again = await ownPdfMailing(pdf);
    expect(again.status, again.text).to.equal(201);
    expect(
      await db('shipment_pdfs')
        .where({ sha256: sha256(pdf) })
        .whereIn('shipment_id', [created.body.id, again.body.id])
        .count({ n: '*' }),
    ).to.deep.equal([{ n: '2' }]);
  });

  it('stores a live AR mailing’s proofs in the store (the rows’ bytea null) and serves them through the same links', async () => {
    const created = await arLetter();
    expect(created.status, created.text).to.equal(201);
    arMailing = created.body.id as string;
    const listed = await withProofs(arMailing, ['filing', 'delivery']);
    expect(listed.body.proofs.map((p: { kind: string }) => p.kind).sort()).to.deep.equal(['delivery', 'filing']);
    const { db } = stack();
    const proofs = await db('shipment_proofs').where({ shipment_id: arMailing }).orderBy('kind');
    expect(proofs.map((p) => p.kind)).to.deep.equal(['delivery', 'filing']);
    for (const proof of proofs) {
      expect(proof.pdf, proof.kind).to.equal(null);
      expect(proof.object_key, proof.kind).to.equal(proof.sha256);
      const stored = await object(proof.object_key);
      expect(stored?.byteLength, proof.kind).to.equal(proof.object_size);
      expect(sha256(stored!), proof.kind).to.equal(proof.sha256);
      const link = await proofLink(arMailing, proof.kind);
      expect(link.status, link.text).to.equal(200);
      const served = await fetch(link.body.url);
      expect(served.status).to.equal(200);
      expect(served.headers.get('content-type')).to.equal('application/pdf');
      expect(Buffer.from(await served.arrayBuffer()).equals(stored!), `${proof.kind}: the link serves the object`).to.equal(true);
    }
    // What a live AR mailing takes, for docs/deploy.md's sizing.
    const rows = await db.raw(
      `SELECT (SELECT pg_column_size(s.*) FROM shipments s WHERE s.id = ?) AS shipment,
              (SELECT coalesce(sum(pg_column_size(e.*)), 0) FROM shipment_events e WHERE e.shipment_id = ?) AS events,
              (SELECT coalesce(sum(pg_column_size(p.*)), 0) FROM shipment_proofs p WHERE p.shipment_id = ?) AS proofs,
              (SELECT coalesce(sum(pg_column_size(w.*)), 0) FROM webhook_events w WHERE w.shipment_id = ?) AS webhook_events,
              (SELECT coalesce(sum(pg_column_size(f.*)), 0) FROM operator_filings f WHERE f.shipment_id = ?) AS operator_filing,
              (SELECT coalesce(sum(p.object_size), 0) FROM shipment_proofs p WHERE p.shipment_id = ?) AS objects`,
      Array(6).fill(arMailing),
    );
    process.stderr.write(`[document store] a live AR mailing's bytes: ${JSON.stringify(rows.rows[0])}\n`);
  });

  it('the store down: 503 with Retry-After for an own PDF and a proof read, nothing written; once it is back the proof is stored and served', async () => {
    const { db } = stack();
    const pdf = await textPdf({ pages: 4 });
    const arLink = await proofLink(arMailing, 'filing');
    expect(arLink.status).to.equal(200);
    await weed!.stop();
    weed = undefined;
    try {
      const balance = await balanceOf(account.id);
      const mailings = await db('shipments').where({ account_id: account.id }).count({ n: '*' });
      const refused = await ownPdfMailing(pdf);
      expect(refused.status, refused.text).to.equal(503);
      expect(refused.body.error.code).to.equal('service_unavailable');
      expect(Number(refused.headers.get('retry-after'))).to.be.above(0);
      expect(await db('shipments').where({ account_id: account.id }).count({ n: '*' }), 'no mailing recorded').to.deep.equal(mailings);
      expect(
        await db('pdf_documents')
          .where({ sha256: sha256(pdf) })
          .first(),
        'no document row',
      ).to.equal(undefined);
      expect(await balanceOf(account.id), 'nothing charged').to.equal(balance);

      const read = await fetch(arLink.body.url);
      expect(read.status).to.equal(503);
      expect(Number(read.headers.get('retry-after'))).to.be.above(0);
      expect(((await read.json()) as { error: { code: string } }).error.code).to.equal('service_unavailable');

      // A mailing that needs the store only for its proofs: its printing activity fails and is retried.
      const created = await arLetter();
      expect(created.status, created.text).to.equal(201);
      const id = created.body.id as string;
      const handle = await startedMailingWorkflow(id, stack().temporal.client, 60_000);
      // publishProof, or publishProofs when the operator reported several steps at once.
      const retried = (described: Awaited<ReturnType<typeof handle.describe>>): boolean =>
        (described.raw.pendingActivities ?? []).some((a) => a.activityType?.name?.startsWith('publishProof') && Number(a.attempt) >= 2);
      expect(retried(await eventually(() => handle.describe(), retried, 180_000, 500)), 'the proof printing failed and is retried').to.equal(true);
      expect(await db('shipment_proofs').where({ shipment_id: id }).first(), 'no proof row while the store is down').to.equal(undefined);

      weed = await startWeed(binary, dataDir, ports);
      const served = await withProofs(id, ['filing']);
      expect(served.body.proofs.map((p: { kind: string }) => p.kind)).to.include('filing');
      const proof = await db('shipment_proofs').where({ shipment_id: id, kind: 'filing' }).first();
      expect(proof).to.include({ pdf: null, object_key: proof.sha256 });
      expect(await objectExists(proof.object_key)).to.equal(true);
      const link = await proofLink(id, 'filing');
      const pdfAnswer = await fetch(link.body.url);
      expect(pdfAnswer.status).to.equal(200);
      expect(sha256(Buffer.from(await pdfAnswer.arrayBuffer()))).to.equal(proof.sha256);
      // The proof read that was refused opens again.
      expect((await fetch(arLink.body.url)).status).to.equal(200);
    } finally {
      weed ??= await startWeed(binary, dataDir, ports);
    }
  });

  it('erasing a mailing deletes its proofs’ objects (no other row names them)', async () => {
    const { db } = stack();
    const final = await eventually(
      () => mailing(arMailing),
      (answer) => answer.body.status === 'ar_signed',
      240_000,
      500,
    );
    expect(final.body.status).to.equal('ar_signed');
    const keys = (await db('shipment_proofs').where({ shipment_id: arMailing }).pluck('object_key')) as string[];
    expect(keys).to.have.length(2);
    for (const key of keys) expect(await objectExists(key)).to.equal(true);
    const erased = await call('POST', `/v1/mailings/${arMailing}/erase`, { key: account.liveKey, baseUrl: services.api.url });
    expect(erased.status, erased.text).to.equal(200);
    const proofs = await db('shipment_proofs').where({ shipment_id: arMailing });
    for (const proof of proofs) expect(proof).to.include({ pdf: null, object_key: null, object_size: null });
    for (const key of keys) expect(await objectExists(key), key).to.equal(false);
    expect(await db('document_deletions').whereIn('object_key', keys)).to.deep.equal([]);
  });

  it('erasing mailings of the same own PDF deletes its object only once no mailing that is not erased prints it', async () => {
    const { db } = stack();
    const pdf = await textPdf({ pages: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await ownPdfMailing(pdf, account.testKey);
      expect(created.status, created.text).to.equal(201);
      const advanced = await call('POST', `/v1/test/mailings/${created.body.id}/advance`, {
        key: account.testKey,
        baseUrl: services.api.url,
        body: { step: 2 },
      });
      expect(advanced.body.status, advanced.text).to.equal('posted');
      ids.push(created.body.id as string);
    }
    const erase = (id: string) => call('POST', `/v1/mailings/${id}/erase`, { key: account.testKey, baseUrl: services.api.url });
    expect((await erase(ids[0]!)).status).to.equal(200);
    expect(await objectExists(sha256(pdf)), 'another mailing still prints it').to.equal(true);
    expect(
      await db('pdf_documents')
        .where({ sha256: sha256(pdf) })
        .first(),
    ).to.include({ object_key: sha256(pdf) });
    expect((await erase(ids[1]!)).status).to.equal(200);
    expect(await objectExists(sha256(pdf)), 'no mailing prints it any more').to.equal(false);
    expect(
      await db('pdf_documents')
        .where({ sha256: sha256(pdf) })
        .first(),
    ).to.include({ pdf: null, object_key: null, object_size: null });
    // A new mailing of the same PDF stores it again.
    const again = await ownPdfMailing(pdf, account.testKey);
    expect(again.status, again.text).to.equal(201);
    expect((await object(sha256(pdf)))?.equals(Buffer.from(pdf))).to.equal(true);
  });

  it('`admin documents migrate` moves rows written before the store out of the database, in batches, and a second run moves nothing', async () => {
    // Written by the test stack's API, on PostgreSQL: bytes in the rows.
    const before = await createAccount({ balanceCents: 10_000 });
    const pdf = await textPdf({ pages: 3 });
    const own = await call('POST', '/v1/mailings', {
      key: before.testKey,
      body: { mode: 'simple', letter: { pdf: base64(pdf), title: 'Avant' }, sender, recipient },
    });
    expect(own.status, own.text).to.equal(201);
    const free = await call('POST', '/v1/mailings', { key: before.testKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
    expect((await call('POST', `/v1/test/mailings/${free.body.id}/advance`, { key: before.testKey, body: { step: 4 } })).status).to.equal(200);
    const { db } = stack();
    const proofsBefore = await db('shipment_proofs').where({ shipment_id: free.body.id }).orderBy('kind');
    expect(proofsBefore.map((p) => p.kind)).to.deep.equal(['delivery', 'filing']);
    for (const proof of proofsBefore) expect(proof.pdf).to.be.an.instanceOf(Buffer);
    expect(
      (
        await db('pdf_documents')
          .where({ sha256: sha256(pdf) })
          .first()
      ).pdf,
    ).to.be.an.instanceOf(Buffer);

    // Served from the rows by the API that uses the store, before they move.
    const link = await call('GET', `/v1/mailings/${free.body.id}/proofs/filing`, { key: before.testKey, baseUrl: services.api.url });
    expect((await fetch(link.body.url)).status).to.equal(200);

    // This account's only: the other files of this mocha worker share its database, and read their
    // own proofs through the PostgreSQL store.
    const moved = await admin(['documents', 'migrate', '--batch', '1', '--account', before.id], settings);
    expect(moved.code, JSON.stringify(moved.json)).to.equal(0);
    expect(moved.json.ownPdfs).to.be.at.least(1);
    expect(moved.json.proofs).to.be.at.least(2);
    const document = await db('pdf_documents')
      .where({ sha256: sha256(pdf) })
      .first();
    expect(document).to.include({ pdf: null, object_key: sha256(pdf), object_size: pdf.byteLength });
    expect((await object(sha256(pdf)))?.equals(Buffer.from(pdf))).to.equal(true);
    for (const proof of proofsBefore) {
      const row = await db('shipment_proofs').where({ shipment_id: free.body.id, kind: proof.kind }).first();
      expect(row).to.include({ pdf: null, object_key: proof.sha256, object_size: proof.pdf.byteLength, sha256: proof.sha256 });
      expect((await object(proof.sha256))?.equals(proof.pdf), proof.kind).to.equal(true);
    }
    // None of this account's documents keeps its bytes (other accounts' are not this run's: --account).
    const accountDocuments = db('shipment_pdfs as sp').join('shipments as s', 's.id', 'sp.shipment_id').where('s.account_id', before.id).select('sp.sha256');
    expect(await db('pdf_documents').whereIn('sha256', accountDocuments).whereNotNull('pdf').count({ n: '*' })).to.deep.equal([{ n: '0' }]);

    // Again: nothing left of what it moved (proofs that the test stack's worker stored since, on PostgreSQL, it would move too).
    const again = await admin(['documents', 'migrate', '--account', before.id], settings);
    expect(again.code, JSON.stringify(again.json)).to.equal(0);
    expect(again.json.ownPdfs).to.equal(0);
    for (const proof of proofsBefore)
      expect(await db('shipment_proofs').where({ shipment_id: free.body.id, kind: proof.kind }).first()).to.include({ pdf: null, object_key: proof.sha256 });
    // The same link, now served from the store.
    const served = await fetch(link.body.url);
    expect(served.status).to.equal(200);
    expect(sha256(Buffer.from(await served.arrayBuffer()))).to.equal(proofsBefore.find((p) => p.kind === 'filing')!.sha256);
  });
});
