import { createHash } from 'node:crypto';
import { Unavailable } from '../errors.js';

/**
 * Where the bytes of own PDFs and proofs live (DOCUMENT_STORE, lib/config.ts). One port, two
 * adapters: `postgres` keeps them in their rows (bytea, the embedded default), `s3` in an
 * S3-compatible bucket under their SHA-256 (./s3-store.ts), the row keeping that key and the size.
 */
export interface DocumentStore {
  readonly kind: 'postgres' | 's3';
  /**
   * What a row that names these bytes stores: the bytes themselves (postgres), or the key of an
   * object already written (s3: content-addressed, a second put of the same bytes writes nothing).
   * DocumentStoreUnavailable when the store cannot be reached: nothing may name the bytes then.
   */
  put(bytes: Uint8Array): Promise<StoredDocument>;
  /** The bytes of an object (s3); DocumentStoreUnavailable when the store cannot be reached. */
  get(key: string): Promise<Buffer>;
  /** Deletes an object (s3), once no row names its key (./deletions.ts). */
  delete(key: string): Promise<void>;
}

/** The columns of a row that names a document: `pdf` (bytea) or `object_key` + `object_size`. */
export interface StoredDocument {
  sha256: string;
  pdf: Buffer | null;
  objectKey: string | null;
  objectSize: number | null;
}

/** The store cannot be reached: 503 service_unavailable with Retry-After at the API; a retried activity in the worker. */
export class DocumentStoreUnavailable extends Unavailable {}

export const documentStoreUnavailable = (cause: unknown): DocumentStoreUnavailable =>
  new DocumentStoreUnavailable(`The document store cannot be reached right now (${(cause as Error)?.message ?? String(cause)}); please retry shortly.`);

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The embedded default: the bytes stay in their row, as before the store existed. */
export const postgresDocumentStore: DocumentStore = {
  kind: 'postgres',
  async put(bytes) {
    return { sha256: sha256Hex(bytes), pdf: Buffer.from(bytes), objectKey: null, objectSize: null };
  },
  async get(key) {
    // A row written while DOCUMENT_STORE was s3 names an object this process cannot reach.
    throw new DocumentStoreUnavailable(`Document ${key} is in the object store, and this process has DOCUMENT_STORE=postgres; please retry shortly.`);
  },
  async delete() {
    throw new DocumentStoreUnavailable('DOCUMENT_STORE=postgres: no object store to delete from');
  },
};

let current: DocumentStore = postgresDocumentStore;

/**
 * The process's store, set once by its entry point from its settings (server, worker, admin CLI),
 * like its database pool: every module that reads or writes document bytes asks it here, rather
 * than each of their many callers passing it down.
 */
export function documentStore(): DocumentStore {
  return current;
}

export function useDocumentStore(store: DocumentStore): void {
  current = store;
}

/** The bytes a row names: its own (`pdf`), else its object's. */
export async function documentBytes(row: { pdf: Buffer | null; object_key: string | null }): Promise<Buffer> {
  if (row.pdf) return row.pdf;
  if (!row.object_key) throw new Error('a document row names neither bytes nor an object');
  return documentStore().get(row.object_key);
}
