import type { Config } from '../../lib/config.js';
import { s3DocumentStore } from './s3-store.js';
import { postgresDocumentStore, useDocumentStore, type DocumentStore } from './store.js';

/** The store DOCUMENT_STORE names, made the process's (each entry point calls this once, after loading its settings). */
export function useConfiguredDocumentStore(config: Pick<Config, 'documentStore'>): DocumentStore {
  const store = config.documentStore.kind === 's3' ? s3DocumentStore(config.documentStore) : postgresDocumentStore;
  useDocumentStore(store);
  return store;
}
