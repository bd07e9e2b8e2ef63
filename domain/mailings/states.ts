/**
 * Modes, statuses and steps of a mailing (DESIGN.md §2). Pure data: workflows import it too.
 */
export type Mode = 'simple' | 'registered' | 'ar';
export type MainStatus = 'paid' | 'printed' | 'posted' | 'in_transit' | 'delivered' | 'ar_signed';
export type TerminalStatus = 'returned' | 'error' | 'canceled';
/** The electronic path's statuses (issue 54): sent → notified → accepted, or an end refused / unclaimed / bounced at step 3. */
export type ElectronicStatus = 'sent' | 'notified' | 'accepted' | 'refused' | 'unclaimed' | 'bounced';
export type MailingStatus = MainStatus | TerminalStatus | ElectronicStatus;
/** The postal proofs, then the electronic provider's (deposit, acceptance, refusal, negligence: domain/mailings/electronic.ts). */
export type ProofKind = 'filing' | 'delivery' | 'return' | 'deposit' | 'acceptance' | 'refusal' | 'negligence';

/** How a mailing reaches its recipient: posted, or as a qualified electronic registered letter. */
export type Channel = 'paper' | 'electronic';
export const CHANNELS: Channel[] = ['paper', 'electronic'];
/** The modes the electronic channel takes: an LRE has the effect of a registered letter with acknowledgment (CPCE L100). */
export const ELECTRONIC_MODES: Mode[] = ['registered', 'ar'];
/** What happens when the recipient refuses, does not claim, or the address bounces: nothing, or the same letter posted. */
export type Fallback = 'none' | 'paper';
export const FALLBACKS: Fallback[] = ['none', 'paper'];

export const MODES: Mode[] = ['simple', 'registered', 'ar'];
export const STATUSES: MailingStatus[] = [
  'paid',
  'printed',
  'posted',
  'in_transit',
  'delivered',
  'ar_signed',
  'returned',
  'error',
  'canceled',
  'sent',
  'notified',
  'accepted',
  'refused',
  'unclaimed',
  'bounced',
];
export const PROOF_KINDS: ProofKind[] = ['filing', 'delivery', 'return', 'deposit', 'acceptance', 'refusal', 'negligence'];

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
  sent: 'Envoyée électroniquement, preuve de dépôt émise',
  notified: 'Destinataire avisé par courriel',
  accepted: 'Acceptée par le destinataire',
  refused: 'Refusée par le destinataire',
  unclaimed: 'Non réclamée dans les 15 jours',
  bounced: 'Adresse électronique injoignable',
};

export const PROOF_LABELS: Record<ProofKind, string> = {
  filing: 'Preuve de dépôt',
  delivery: 'Preuve de distribution',
  return: 'Preuve de retour',
  deposit: 'Preuve de dépôt électronique',
  acceptance: 'Preuve de réception (acceptation)',
  refusal: 'Preuve de refus',
  negligence: 'Preuve de non-réclamation',
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

/** V1TestAdvance, a move asked of a test mailing: {} (the next step), { step } (that step) or { status } (an end: returned | error, or an electronic one). */
export interface TestAdvance {
  step?: number;
  status?: 'returned' | 'error' | ElectronicEnd;
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

/** The ends of the electronic path, all at step 3 (ELECTRONIC_LAST_STEP). */
export type ElectronicEnd = 'accepted' | 'refused' | 'unclaimed' | 'bounced';
export const ELECTRONIC_ENDS: ElectronicEnd[] = ['accepted', 'refused', 'unclaimed', 'bounced'];
/** The ends after which a mailing with `fallback: "paper"` goes on through the postal operator. */
export const FALLBACK_ENDS: ReadonlySet<MailingStatus> = new Set(['refused', 'unclaimed', 'bounced']);

/** The electronic path; the index is the step. */
export const ELECTRONIC_PATH: MailingStatus[] = ['paid', 'sent', 'notified', 'accepted'];
export const ELECTRONIC_LAST_STEP = ELECTRONIC_PATH.length - 1;

/**
 * Where a mailing goes: its mode, and for an electronic one its fallback and whether the fallback
 * began (docs/api-guide.md, "Electronic registered letters"). A paper mailing is `{ mode }`.
 */
export interface Track {
  mode: Mode;
  channel?: Channel;
  fallback?: Fallback;
  fallbackUsed?: boolean;
}

/**
 * A track's path, the index being the step. Electronic: paid 0 → sent 1 → notified 2 → accepted 3.
 * Once a fallback began (after refused, unclaimed or bounced at step 3): the mode's paper path
 * from printed on, at steps 4 onwards (printed 4 … delivered 7, ar_signed 8); step 3 is then the
 * electronic end it came from (`end`, refused when unknown).
 */
export function pathOf(track: Track, end: MailingStatus = 'refused'): MailingStatus[] {
  if (track.channel !== 'electronic') return PATHS[track.mode];
  if (!track.fallbackUsed) return ELECTRONIC_PATH;
  return [...ELECTRONIC_PATH.slice(0, ELECTRONIC_LAST_STEP), end, ...PATHS[track.mode].slice(1)];
}

/** A track's last step: 3 on the electronic path, 7 (registered) or 8 (ar) once the paper fallback began. */
export function lastStepOf(track: Track): number {
  return pathOf(track).length - 1;
}

/** Whether a mailing on this track is final in this status (an electronic end with a paper fallback is not: the letter is posted next). */
export function isFinalOn(track: Track, status: MailingStatus): boolean {
  if (track.channel !== 'electronic') return isFinal(track.mode, status);
  if (status === 'returned' || status === 'error' || status === 'canceled') return true;
  if (!track.fallbackUsed) return status === 'accepted' || (FALLBACK_ENDS.has(status) && track.fallback !== 'paper');
  return status === PATHS[track.mode][lastStep(track.mode)];
}

/** The proof a move makes available on this track (the postal ones only: the electronic provider's come with its news). */
export function proofOn(track: Track, status: MailingStatus): ProofKind | undefined {
  if (track.channel === 'electronic' && !track.fallbackUsed) return undefined;
  return proofAt(track.mode, status);
}

/**
 * Whether a test mailing of the electronic channel may make this move now: the electronic
 * path's steps and ends (`accepted`, `refused`, `unclaimed`, `bounced`, `error`) until step 3;
 * once its paper fallback began, the paper path's steps and `returned` / `error`, as paper mailings.
 */
export function electronicAdvanceRefusal(
  mailing: { track: Track; status: MailingStatus; step: number; test: boolean },
  request: TestAdvance,
): MoveRefusal | undefined {
  const { track, status, step } = mailing;
  if (!mailing.test) return { kind: 'conflict', message: 'Only test mailings can be advanced by hand.' };
  if (isFinalOn(track, status)) return { kind: 'conflict', message: `This mailing is final (${status}).` };
  const last = lastStepOf(track);
  if (request.status) {
    const electronicEnd = (ELECTRONIC_ENDS as string[]).includes(request.status);
    if (track.fallbackUsed) {
      if (electronicEnd)
        return { kind: 'conflict', message: `The electronic path has ended (${pathOf(track)[ELECTRONIC_LAST_STEP]}); the letter is now posted.` };
      if (request.status === 'returned' && step < pathOf(track).indexOf('posted'))
        return { kind: 'conflict', message: `A letter can be returned only once posted; this one is ${status}.` };
      return undefined;
    }
    if (request.status === 'returned')
      return { kind: 'conflict', message: 'An electronic letter is not returned; its ends are accepted, refused, unclaimed or bounced.' };
    return undefined;
  }
  const target = request.step ?? step + 1;
  if (target > last) return { kind: 'invalid', message: `This mailing has steps 0 to ${last} now.` };
  if (target <= step) return { kind: 'conflict', message: `Step ${target} is not ahead of the current step ${step}.` };
  return undefined;
}

/** The electronic provider's proof a status of the electronic path makes available (a bounced letter has none but its deposit). */
export function electronicProofAt(status: MailingStatus): ProofKind | undefined {
  const proofs: Partial<Record<MailingStatus, ProofKind>> = { sent: 'deposit', accepted: 'acceptance', refused: 'refusal', unclaimed: 'negligence' };
  return proofs[status];
}

/** The proof a move on this track makes available: the provider's on the electronic path, the postal ones once posted. */
export function proofOfMove(track: Track, status: MailingStatus, step: number): ProofKind | undefined {
  if (track.channel === 'electronic' && step <= ELECTRONIC_LAST_STEP) return electronicProofAt(status);
  return proofAt(track.mode, status);
}

/**
 * movesTo on a track: once an electronic letter's paper fallback began, the postal operator's
 * reports move it along its mode's paper path from step 4 (the paper step + 3), its ends at its
 * last step; otherwise as movesTo.
 */
export function movesOn(track: Track, current: MailingStatus, reported: MailingStatus): [MailingStatus, number][] {
  if (track.channel !== 'electronic') return movesTo(track.mode, current, reported);
  if (!track.fallbackUsed) return [];
  // Right after the fallback began, the paper path stands at its start (paid).
  const paperCurrent = FALLBACK_ENDS.has(current) ? 'paid' : current;
  return movesTo(track.mode, paperCurrent, reported).map(([status, step]) => [status, step + ELECTRONIC_LAST_STEP]);
}

/**
 * The moves of an electronic letter from `current` to what its provider reports, one per step
 * reached: along the path (sent 1, notified 2, accepted 3); refused and unclaimed come after the
 * recipient was notified (notified 2 first when it was not known); bounced and error end at
 * step 3 from where the letter is. Nothing when the report is not ahead.
 */
export function electronicMovesTo(current: MailingStatus, reported: MailingStatus): [MailingStatus, number][] {
  const at = ELECTRONIC_PATH.indexOf(current);
  if (at < 0 || at === ELECTRONIC_LAST_STEP) return [];
  const along = (to: number): [MailingStatus, number][] => {
    const moves: [MailingStatus, number][] = [];
    for (let s = at + 1; s <= to; s++) moves.push([ELECTRONIC_PATH[s]!, s]);
    return moves;
  };
  if (reported === 'bounced' || reported === 'error') return [[reported, ELECTRONIC_LAST_STEP]];
  if (reported === 'refused' || reported === 'unclaimed') return [...along(ELECTRONIC_PATH.indexOf('notified')), [reported, ELECTRONIC_LAST_STEP]];
  const target = ELECTRONIC_PATH.indexOf(reported);
  return target > at ? along(target) : [];
}

/**
 * Whether a mailing as read (row or resource) is final: a paper one by its status, an electronic
 * one at its last step (every end is recorded there, and its last step grows when a fallback begins).
 */
export function isFinalMailing(m: { mode: Mode; status: MailingStatus; channel?: Channel; step: number; lastStep: number }): boolean {
  if (m.channel === 'electronic') return m.step >= m.lastStep;
  return isFinal(m.mode, m.status);
}

// Returned mail handled digitally (options.returnedMail, issue 55; domain/mailings/returned-mail.ts): pure, for the workflow too.
/** The step a digitally returned simple letter ends at: after `posted` (2), its lastStep becoming 3. */
export const DIGITAL_RETURN_STEP = 3;

/** How long after `posted` a digitally handled simple letter is watched for its return; then it stays `posted`. */
export const DIGITAL_RETURN_WINDOW_MS = 45 * 24 * 3600_000;

/** The reason mailing.returned carries for a letter Maileva reports undeliverable (N10). */
export const DIGITAL_RETURN_REASON = "Pli non distribuable (N10), revenu à l'opérateur qui l'a traité électroniquement";
