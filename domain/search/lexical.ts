import type { CatalogueData } from '../catalogue/catalogue.js';
import { normalize, tokens } from './normalize.js';

export type SearchKind = 'letter' | 'calculator' | 'ai_tool' | 'quote';

export interface SearchDocument {
  kind: SearchKind;
  slug: string;
  title: string;
  category: string;
  summary: string;
  /** What the semantic engine embeds. */
  text: string;
}

export interface Hit {
  doc: number;
  score: number;
}

/** How much a match in each part of an entry counts. */
const WEIGHT = { keyword: 4, title: 3, provider: 3, category: 1.5, summary: 1 };
const PREFIX_FACTOR = 0.6;

export function searchDocuments(data: CatalogueData): SearchDocument[] {
  const categoryTitle = new Map(data.categories.map((c) => [c.slug, c.title]));
  const doc = (kind: SearchKind, e: { slug: string; title: string; category: string; summary: string }, extra: string[] = []): SearchDocument => ({
    kind,
    slug: e.slug,
    title: e.title,
    category: e.category,
    summary: e.summary,
    text: [e.title, e.summary, ...extra].join('. '),
  });
  return [
    ...data.letters.map((l) => doc('letter', l, l.keywords)),
    ...data.calculators.map((c) => doc('calculator', c)),
    ...data.aiTools.map((t) => doc('ai_tool', t)),
    ...data.quotes.map((q) => doc('quote', q)),
  ].map((d) => ({ ...d, category: d.category, text: `${d.text}. ${categoryTitle.get(d.category) ?? ''}` }));
}

/**
 * Keyword and alias matching, accent- and case-insensitive: an inverted index built once, exact
 * tokens plus prefixes (binary search in the sorted vocabulary). Microseconds per query.
 */
export class LexicalIndex {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly vocabulary: string[];

  constructor(
    readonly documents: SearchDocument[],
    data: CatalogueData,
  ) {
    const categoryTitle = new Map(data.categories.map((c) => [c.slug, c.title]));
    const extras = new Map<string, { keywords: string[]; providers: string[] }>(
      data.letters.map((l) => [l.slug, { keywords: l.keywords, providers: l.providers.map((p) => p.name) }]),
    );
    documents.forEach((d, i) => {
      const extra = extras.get(d.slug);
      // A word counts once per part of the entry it appears in; the parts add up.
      const parts: [string, number][] = [
        [d.title, WEIGHT.title],
        [d.summary, WEIGHT.summary],
        [`${d.category} ${categoryTitle.get(d.category) ?? ''}`, WEIGHT.category],
        [(extra?.keywords ?? []).join(' '), WEIGHT.keyword],
        [(extra?.providers ?? []).join(' '), WEIGHT.provider],
      ];
      for (const [text, weight] of parts) {
        for (const token of new Set(tokens(text))) {
          const posting = this.postings.get(token) ?? new Map<number, number>();
          posting.set(i, (posting.get(i) ?? 0) + weight);
          this.postings.set(token, posting);
        }
      }
    });
    this.vocabulary = [...this.postings.keys()].sort();
  }

  /** Vocabulary words starting with `prefix` (the sorted list makes it a range). */
  private withPrefix(prefix: string): string[] {
    let lo = 0;
    let hi = this.vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.vocabulary[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.vocabulary.length && this.vocabulary[i]!.startsWith(prefix); i++) out.push(this.vocabulary[i]!);
    return out;
  }

  search(query: string): Hit[] {
    const scores = new Map<number, number>();
    for (const token of new Set(tokens(query))) {
      const best = new Map<number, number>();
      for (const [doc, weight] of this.postings.get(token) ?? []) best.set(doc, weight);
      if (token.length >= 3) {
        for (const word of this.withPrefix(token)) {
          if (word === token) continue;
          for (const [doc, weight] of this.postings.get(word)!) best.set(doc, Math.max(best.get(doc) ?? 0, weight * PREFIX_FACTOR));
        }
      }
      for (const [doc, score] of best) scores.set(doc, (scores.get(doc) ?? 0) + score);
    }
    // A phrase that is a whole keyword ("fournisseur d'acces") counts once more.
    const phrase = normalize(query);
    return [...scores]
      .map(([doc, score]) => ({ doc, score: this.documents[doc]!.title && normalize(this.documents[doc]!.text).includes(phrase) ? score + 1 : score }))
      .sort((a, b) => b.score - a.score || this.documents[a.doc]!.title.localeCompare(this.documents[b.doc]!.title, 'fr'));
  }
}
