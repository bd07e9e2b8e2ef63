import { expect } from 'chai';
import { loadConfig } from '../../lib/config.js';
import { postgresDocumentStore, sha256Hex } from '../../domain/documents/store.js';

describe('document store settings (DOCUMENT_STORE, S3_*)', () => {
  const store = (env: Record<string, string>) => loadConfig({ APP_ENV: 'local', ...env }).documentStore;

  it('keeps documents in PostgreSQL unless told', () => {
    expect(store({})).to.deep.equal({ kind: 'postgres' });
  });

  it('reads an S3-compatible store: endpoint, bucket, region, keys and path style', () => {
    expect(
      store({
        DOCUMENT_STORE: 's3',
        S3_ENDPOINT: 'http://127.0.0.1:8333',
        S3_BUCKET: 'letters',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: '1',
      }),
    ).to.deep.equal({
      kind: 's3',
      endpoint: 'http://127.0.0.1:8333',
      bucket: 'letters',
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(store({ DOCUMENT_STORE: 's3', S3_BUCKET: 'letters', S3_REGION: 'eu-west-3' })).to.include({
      endpoint: undefined,
      region: 'eu-west-3',
      credentials: undefined,
    });
  });

  it('refuses inconsistent settings in one line naming the setting', () => {
    const refusals: [Record<string, string>, string][] = [
      [{ DOCUMENT_STORE: 'gcs' }, 'DOCUMENT_STORE must be postgres or s3, got "gcs"'],
      [{ DOCUMENT_STORE: 's3' }, 'DOCUMENT_STORE=s3 needs S3_BUCKET (missing)'],
      [{ S3_BUCKET: 'letters' }, 'S3_BUCKET set without DOCUMENT_STORE=s3'],
      [{ DOCUMENT_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'seaweedfs:8333' }, 'S3_ENDPOINT must be an http(s) URL, got "seaweedfs:8333"'],
      [{ DOCUMENT_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together'],
      [{ DOCUMENT_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be 1 or 0, got "yes"'],
    ];
    for (const [env, message] of refusals) {
      expect(() => store(env), JSON.stringify(env)).to.throw(message);
      try {
        store(env);
      } catch (error) {
        expect((error as Error).message, 'one line').to.not.include('\n');
      }
    }
  });

  it('PostgreSQL keeps the bytes in the row, keyed by their SHA-256', async () => {
    const bytes = Buffer.from('%PDF-1.4 test');
    expect(await postgresDocumentStore.put(bytes)).to.deep.equal({ sha256: sha256Hex(bytes), pdf: bytes, objectKey: null, objectSize: null });
    expect(sha256Hex(bytes)).to.match(/^[0-9a-f]{64}$/);
  });
});
