/** Lowercase, accents removed, punctuation as spaces: "Résiliation d'un abonnement" → "resiliation d un abonnement". */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** "St Denis", "SAINT-DENIS" and "Saint Denis" are the same name on an envelope. */
export function communeKey(name: string): string {
  return normalize(name)
    .replace(/\bste\b/g, 'sainte')
    .replace(/\bst\b/g, 'saint')
    .replace(/\s+/g, ' ');
}
