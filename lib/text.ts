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

/** A UUID in its usual text form (any version, either case): what may be looked up in a uuid column. */
export const isUuid = (text: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
