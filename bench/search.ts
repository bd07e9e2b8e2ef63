import { lexicalIndex } from '../domain/search/search.js';
import { summary } from './stats.js';

const QUERIES = [
  'démission',
  'résilier box internet',
  'préavis logement',
  'depot de garantie',
  'amende',
  'retard de train',
  'kilométrique',
  'mise en demeure',
  'résiliation FREE',
  'zzz introuvable',
];

/** Lexical search latency over the whole catalogue, in-process (target p99 < 1 ms). */
export function benchLexicalSearch(rounds = 2000): { line: string; p99: number } {
  const index = lexicalIndex();
  for (let i = 0; i < 200; i++) index.search(QUERIES[i % QUERIES.length]!);
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    index.search(QUERIES[i % QUERIES.length]!);
    samples.push(performance.now() - started);
  }
  const s = summary(samples);
  return {
    p99: s.p99,
    line: `lexical search, ${index.documents.length} entries, ${rounds} queries: p50 ${s.p50.toFixed(3)} ms, p99 ${s.p99.toFixed(3)} ms, max ${s.max.toFixed(3)} ms (target p99 < 1 ms)`,
  };
}
