import { setTimeout as sleep } from 'node:timers/promises';
import { sha256Hex } from '../../lib/crypto.js';
import { logger } from '../../lib/logger.js';
import type { Deps } from '../deps.js';
import type { SearchDocument } from './lexical.js';

/** Below this cosine similarity an entry is not considered related to the query. */
export const MIN_SIMILARITY = 0.25;
/** How long a search waits for the catalogue's vectors on first use before answering lexically. */
const FIRST_LOAD_WAIT_MS = 3000;
const BATCH = 64;

function unit(vector: number[]): Float32Array {
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0)) || 1;
  return Float32Array.from(vector, (x) => x / norm);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Nearest catalogue entries by embedding. The entries' vectors are computed once per model (kept
 * in Postgres for every process, then in memory); each query is embedded by a short workflow.
 * Any failure is thrown: the caller then answers lexically.
 */
export class SemanticIndex {
  private vectors: Promise<Float32Array[]> | undefined;

  constructor(private readonly documents: SearchDocument[]) {}

  private load(deps: Deps): Promise<Float32Array[]> {
    this.vectors ??= (async () => {
      const { db, config } = deps;
      const model = config.embeddings.model;
      const hashes = this.documents.map((d) => sha256Hex(`${model}\n${d.text}`));
      const rows: { text_hash: string; embedding: number[] }[] = await db('catalogue_embeddings')
        .where({ model })
        .whereIn('text_hash', hashes)
        .select('text_hash', 'embedding');
      const known = new Map(rows.map((r) => [r.text_hash, r.embedding]));
      const missing = this.documents.map((d, i) => ({ text: d.text, hash: hashes[i]! })).filter((d) => !known.has(d.hash));
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        const vectors = await deps.workflows.search.run('embedCatalogue', [batch.map((d) => d.text)], { idPrefix: 'embed-catalogue', timeout: '5m' });
        await db('catalogue_embeddings')
          .insert(batch.map((d, i) => ({ model, text_hash: d.hash, embedding: vectors[i] })))
          .onConflict(['model', 'text_hash'])
          .ignore();
        batch.forEach((d, i) => known.set(d.hash, vectors[i]!));
      }
      return hashes.map((h) => unit(known.get(h)!));
    })().catch((error) => {
      this.vectors = undefined;
      throw error;
    });
    return this.vectors;
  }

  async search(deps: Deps, query: string, limit: number): Promise<{ doc: number; similarity: number }[]> {
    if (!deps.config.embeddings.baseUrl) throw new Error('semantic search is not configured');
    const loading = this.load(deps);
    loading.catch((error) => logger.warn({ err: error }, 'catalogue embeddings unavailable'));
    const vectors = await Promise.race([loading, sleep(FIRST_LOAD_WAIT_MS).then(() => Promise.reject(new Error('catalogue embeddings still loading')))]);
    const query_ = unit(await deps.workflows.search.run('embedQuery', [query], { idPrefix: 'embed-query', timeout: '15s' }));
    return vectors
      .map((v, doc) => ({ doc, similarity: dot(v, query_) }))
      .filter((h) => h.similarity >= MIN_SIMILARITY)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, limit);
  }
}
