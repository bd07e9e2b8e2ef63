/**
 * Modes, statuses and steps of a shipment (DESIGN.md §2). Pure data: workflows import it too.
 */
export type Mode = 'simple' | 'registered' | 'ar';
export type MainStatus = 'paid' | 'printed' | 'posted' | 'in_transit' | 'delivered' | 'ar_signed';
export type TerminalStatus = 'returned' | 'error' | 'canceled';
export type ShipmentStatus = MainStatus | TerminalStatus;
export type ProofKind = 'filing' | 'delivery' | 'return';

export const MODES: Mode[] = ['simple', 'registered', 'ar'];
export const STATUSES: ShipmentStatus[] = ['paid', 'printed', 'posted', 'in_transit', 'delivered', 'ar_signed', 'returned', 'error', 'canceled'];
export const PROOF_KINDS: ProofKind[] = ['filing', 'delivery', 'return'];

/** The main path of each mode; the index is the step. */
export const PATHS: Record<Mode, MainStatus[]> = {
  simple: ['paid', 'printed', 'posted'],
  registered: ['paid', 'printed', 'posted', 'in_transit', 'delivered'],
  ar: ['paid', 'printed', 'posted', 'in_transit', 'delivered', 'ar_signed'],
};

export const MODE_LABELS: Record<Mode, string> = {
  simple: 'Lettre simple',
  registered: 'Lettre recommandée',
  ar: 'Lettre recommandée avec accusé de réception',
};

export const STATUS_LABELS: Record<ShipmentStatus, string> = {
  paid: 'Payée, en attente de dépôt',
  printed: 'Imprimée et mise sous pli',
  posted: "Remise à l'opérateur postal",
  in_transit: "En cours d'acheminement",
  delivered: 'Distribuée',
  ar_signed: 'Accusé de réception signé',
  returned: "Retournée à l'expéditeur",
  error: 'Incident',
  canceled: 'Annulée',
};

export const PROOF_LABELS: Record<ProofKind, string> = {
  filing: 'Preuve de dépôt',
  delivery: 'Preuve de distribution',
  return: 'Preuve de retour',
};

export function lastStep(mode: Mode): number {
  return PATHS[mode].length - 1;
}

export function isFinal(mode: Mode, status: ShipmentStatus): boolean {
  return status === 'returned' || status === 'error' || status === 'canceled' || PATHS[mode].indexOf(status as MainStatus) === lastStep(mode);
}

/** The proof a status makes available, if any. */
export function proofAt(mode: Mode, status: ShipmentStatus): ProofKind | undefined {
  if (status === 'posted') return 'filing';
  if (status === 'returned') return 'return';
  if ((mode === 'registered' && status === 'delivered') || (mode === 'ar' && status === 'ar_signed')) return 'delivery';
  return undefined;
}
