import { normalize } from '../../lib/text.js';

/** What the simulated AI operations of test keys read in a text: deterministic, never guessed. */

const MONTHS = ['janvier', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'aout', 'septembre', 'octobre', 'novembre', 'decembre'];
const pad = (n: number | string): string => String(n).padStart(2, '0');

/** Dates in the order they appear: 2026-03-31, 31/03/2026, "31 mars 2026", "1er avril 2026". */
export function datesIn(sentence: string): string[] {
  const text = normalize(sentence);
  const found: { at: number; iso: string }[] = [];
  for (const m of sentence.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) found.push({ at: m.index!, iso: `${m[1]}-${m[2]}-${m[3]}` });
  for (const m of sentence.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g)) found.push({ at: m.index!, iso: `${m[3]}-${pad(m[2]!)}-${pad(m[1]!)}` });
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:er)? (${MONTHS.join('|')}) (\\d{4})\\b`, 'g'))) {
    found.push({ at: m.index! * (sentence.length / Math.max(1, text.length)), iso: `${m[3]}-${pad(MONTHS.indexOf(m[2]!) + 1)}-${pad(m[1]!)}` });
  }
  return found.sort((a, b) => a.at - b.at).map((d) => d.iso);
}

/** Amounts in euros, as cents: "85 €", "1 250,50 euros", "85EUR". */
export function amountsIn(sentence: string): number[] {
  return [...sentence.matchAll(/(\d{1,3}(?:[ \u00a0\u202f]\d{3})*|\d+)(?:[,.](\d{1,2}))?\s*(?:€|euros?\b|eur\b)/gi)].map(
    (m) => Number(m[1]!.replace(/[ \u00a0\u202f]/g, '')) * 100 + Number((m[2] ?? '0').padEnd(2, '0')),
  );
}

/** References: what follows "n°", "numéro", "identifiant", "référence". */
export function referencesIn(sentence: string): string[] {
  return [
    ...sentence.matchAll(
      /(?:n°|n o|no\.?|numéro|numero|identifiant|référence|reference|réf\.?)\s*(?:de\s+\p{L}+\s+|client\s+|d'abonné\s+|adhérent\s+)?:?\s*([A-Z0-9][A-Z0-9-]{3,})/giu,
    ),
  ].map((m) => m[1]!);
}

/** Sentences of a text, trimmed. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
