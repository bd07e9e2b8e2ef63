import { normalize } from '../../lib/text.js';

export { normalize };

/** Words that say nothing about what a user looks for. */
const STOPWORDS = new Set(
  'a au aux avec ce ces cette d de des du en et il je j l la le les leur lui m ma mais me mes moi mon ne nos notre ou par pas pour qu que qui s sa se ses son sur t ta te tes ton tu un une vos votre vous y veux voudrais faire comment'.split(
    ' ',
  ),
);

/** Light French stemming: plural and feminine endings, so "resiliations" finds "resiliation". */
export function stem(word: string): string {
  if (word.length > 4 && /(?:s|x)$/.test(word)) word = word.slice(0, -1);
  return word;
}

export function tokens(text: string): string[] {
  return normalize(text)
    .split(' ')
    .filter((w) => w && !STOPWORDS.has(w))
    .map(stem);
}

/** Words of a query as a user counts them (for the "3 words or more" rule). */
export function wordCount(text: string): number {
  return normalize(text).split(' ').filter(Boolean).length;
}
