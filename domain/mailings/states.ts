/**
 * Modes, statuses and steps of a mailing (DESIGN.md §2). Pure data: workflows import it too.
 */
export type Mode = 'simple' | 'registered' | 'ar';
export type MainStatus = 'paid' | 'printed' | 'posted' | 'in_transit' | 'delivered' | 'ar_signed';
export type TerminalStatus = 'returned' | 'error' | 'canceled';
export type MailingStatus = MainStatus | TerminalStatus;
export type ProofKind = 'filing' | 'delivery' | 'return';

export const MODES: Mode[] = ['simple', 'registered', 'ar'];
export const STATUSES: MailingStatus[] = ['paid', 'printed', 'posted', 'in_transit', 'delivered', 'ar_signed', 'returned', 'error', 'canceled'];
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

export const STATUS_LABELS: Record<MailingStatus, string> = {
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

export function isFinal(mode: Mode, status: MailingStatus): boolean {
  return status === 'returned' || status === 'error' || status === 'canceled' || PATHS[mode].indexOf(status as MainStatus) === lastStep(mode);
}

/** The proof a status makes available, if any. */
export function proofAt(mode: Mode, status: MailingStatus): ProofKind | undefined {
  if (status === 'posted') return 'filing';
  if (status === 'returned') return 'return';
  if ((mode === 'registered' && status === 'delivered') || (mode === 'ar' && status === 'ar_signed')) return 'delivery';
  return undefined;
}

/** V1TestAdvance, a move asked of a test mailing: {} (the next step), { step } (that step) or { status: returned | error }. */
export interface TestAdvance {
  step?: number;
  status?: 'returned' | 'error';
}

/** Why a move is refused: it conflicts with the mailing's state, or asks for a step that does not exist. */
export interface MoveRefusal {
  kind: 'conflict' | 'invalid';
  message: string;
}

/**
 * Whether a test mailing may make this move now (DESIGN.md §2): only test mailings, never from a
 * final state, `returned` only once posted, and a step ahead of the current one within the path.
 */
export function advanceRefusal(mailing: { mode: Mode; status: MailingStatus; step: number; test: boolean }, request: TestAdvance): MoveRefusal | undefined {
  const { mode, status, step } = mailing;
  if (!mailing.test) return { kind: 'conflict', message: 'Only test mailings can be advanced by hand.' };
  if (isFinal(mode, status)) return { kind: 'conflict', message: `This mailing is final (${status}).` };
  if (request.status === 'returned' && step < PATHS[mode].indexOf('posted'))
    return { kind: 'conflict', message: `A letter can be returned only once posted; this one is ${status}.` };
  if (request.status) return undefined;
  const target = request.step ?? step + 1;
  if (target > lastStep(mode)) return { kind: 'invalid', message: `A ${mode} mailing has steps 0 to ${lastStep(mode)}.` };
  if (target <= step) return { kind: 'conflict', message: `Step ${target} is not ahead of the current step ${step}.` };
  return undefined;
}

/** Whether a status the postal operator reports is news for a mailing at `current`. */
export function isAhead(mode: Mode, reported: MailingStatus, current: MailingStatus): boolean {
  if (isFinal(mode, current)) return false;
  if (reported === 'returned' || reported === 'error') return true;
  return PATHS[mode].indexOf(reported as MainStatus) > PATHS[mode].indexOf(current as MainStatus);
}

/**
 * The moves from `current` to a reported status, one per step so that every event goes out:
 * [status, step] pairs; an off-path ending is one move to the last step. A letter returned to its
 * sender was posted first (DESIGN.md: `returned` comes after `posted`): when the operator reports
 * the return before we knew the letter left, the moves go through `posted` (and its filing proof)
 * first, where `posted` is not already the end of the path.
 */
export function movesTo(mode: Mode, current: MailingStatus, reported: MailingStatus): [MailingStatus, number][] {
  if (!isAhead(mode, reported, current)) return [];
  const last = lastStep(mode);
  const posted = PATHS[mode].indexOf('posted');
  if (reported === 'returned' && posted < last && PATHS[mode].indexOf(current as MainStatus) < posted)
    return [...movesTo(mode, current, 'posted'), ['returned', last]];
  if (reported === 'returned' || reported === 'error' || reported === 'canceled') return [[reported, last]];
  const path = PATHS[mode];
  const moves: [MailingStatus, number][] = [];
  for (let s = path.indexOf(current as MainStatus) + 1; s <= path.indexOf(reported as MainStatus); s++) moves.push([path[s]!, s]);
  return moves;
}

/** The next status after `current` towards a reported one (a single move). */
export function nextAfter(mode: Mode, current: MailingStatus, reported: MailingStatus): MailingStatus {
  return movesTo(mode, current, reported)[0]?.[0] ?? current;
}
