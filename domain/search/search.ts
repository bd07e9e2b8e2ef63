import type { Deps } from '../deps.js';
import { catalogue } from '../catalogue/catalogue.js';
import { LexicalIndex, searchDocuments, type SearchKind } from './lexical.js';
import { wordCount } from './normalize.js';
import { SemanticIndex } from './semantic.js';

export interface SearchResult {
  kind: SearchKind;
  slug: string;
  title: string;
  category: string;
  summary: string;
  score: number;
  matchedBy: ('lexical' | 'semantic')[];
}

export interface SearchResults {
  query: string;
  mode: 'hybrid' | 'lexical';
  results: SearchResult[];
}

/** Reciprocal rank fusion: robust merging of two rankings whose scores are not comparable. */
const RRF_K = 60;

let indexes: { lexical: LexicalIndex; semantic: SemanticIndex } | undefined;

function searchIndexes(): { lexical: LexicalIndex; semantic: SemanticIndex } {
  if (!indexes) {
    const data = catalogue().data;
    const documents = searchDocuments(data);
    indexes = { lexical: new LexicalIndex(documents, data), semantic: new SemanticIndex(documents) };
  }
  return indexes;
}

/**
 * SPEC.md "Search rules": keywords first (instantaneous); the semantic engine is merged in only
 * when keywords find nothing or the query has 3 words or more, never with mode=lexical; when it
 * is unavailable the answer stays lexical and says so.
 */
export async function searchCatalogue(deps: Deps, query: string, limit: number, mode: 'hybrid' | 'lexical'): Promise<SearchResults> {
  const { lexical, semantic } = searchIndexes();
  const docs = lexical.documents;
  const lexicalHits = lexical.search(query);
  let semanticHits: { doc: number; similarity: number }[] | undefined;
  if (mode === 'hybrid' && (lexicalHits.length === 0 || wordCount(query) >= 3)) {
    semanticHits = await semantic.search(deps, query, Math.max(limit, 10)).catch(() => undefined);
  }
  const fused = new Map<number, { score: number; matchedBy: Set<'lexical' | 'semantic'> }>();
  const add = (doc: number, rank: number, by: 'lexical' | 'semantic'): void => {
    const entry = fused.get(doc) ?? { score: 0, matchedBy: new Set() };
    entry.score += 1 / (RRF_K + rank);
    entry.matchedBy.add(by);
    fused.set(doc, entry);
  };
  lexicalHits.forEach((h, rank) => add(h.doc, rank, 'lexical'));
  semanticHits?.forEach((h, rank) => add(h.doc, rank, 'semantic'));
  const results = [...fused]
    .sort((a, b) => b[1].score - a[1].score)
    .slice(0, limit)
    .map(([doc, entry]) => {
      const d = docs[doc]!;
      return {
        kind: d.kind,
        slug: d.slug,
        title: d.title,
        category: d.category,
        summary: d.summary,
        score: Math.round(entry.score * 1e5) / 1e5,
        matchedBy: [...entry.matchedBy],
      };
    });
  return { query, mode: semanticHits ? 'hybrid' : 'lexical', results };
}

/** For the benchmark: the lexical index alone. */
export function lexicalIndex(): LexicalIndex {
  return searchIndexes().lexical;
}
