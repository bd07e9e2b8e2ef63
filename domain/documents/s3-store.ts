import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { DocumentStoreConfig } from '../../lib/config.js';
import { documentStoreUnavailable, sha256Hex, type DocumentStore } from './store.js';

type S3Settings = Extract<DocumentStoreConfig, { kind: 's3' }>;

/** A missing object (404) is not an outage: the store answered. */
function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata?.httpStatusCode === 404);
}

/**
 * The S3-compatible adapter (AWS S3, or a self-hosted store such as SeaweedFS or MinIO through
 * S3_ENDPOINT and S3_FORCE_PATH_STYLE). Objects are keyed by the SHA-256 of their bytes.
 */
export function s3DocumentStore(settings: S3Settings, client = s3Client(settings)): DocumentStore & { client: S3Client } {
  const bucket = settings.bucket;
  return {
    kind: 's3',
    client,
    async put(bytes) {
      const key = sha256Hex(bytes);
      try {
        // Content-addressed: the same bytes are already there, under the same key.
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (!isNotFound(error)) throw documentStoreUnavailable(error);
        try {
          await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: 'application/pdf' }));
        } catch (putError) {
          throw documentStoreUnavailable(putError);
        }
      }
      return { sha256: key, pdf: null, objectKey: key, objectSize: bytes.byteLength };
    },
    async get(key) {
      try {
        const body = (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body;
        if (!body) throw new Error('an empty answer');
        return Buffer.from(await body.transformToByteArray());
      } catch (error) {
        // An object its row names and the store does not have is lost data, not an outage.
        if (isNotFound(error)) throw new Error(`document ${key} is missing from bucket ${bucket}`, { cause: error });
        throw documentStoreUnavailable(error);
      }
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (!isNotFound(error)) throw documentStoreUnavailable(error);
      }
    },
  };
}

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    ...(settings.credentials && { credentials: settings.credentials }),
    forcePathStyle: settings.forcePathStyle,
    // One retry; a store that is down answers 503 soon, rather than after the SDK's backoffs.
    maxAttempts: 2,
    // A store that stopped answering fails the request (else the SDK only warns and waits on).
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 10_000, throwOnRequestTimeout: true },
    // Self-hosted stores do not all check the newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
