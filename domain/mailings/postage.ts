import { unprocessable } from '../errors.js';
import type { Mode } from './states.js';

/**
 * options.postage (issue 55): the speed a simple letter is posted at. Maileva's mail v2 names the
 * same three as `postage_type` (FAST, ECONOMIC, URGENT); registered letters (registered_mail v2)
 * have one speed, so the option is for mode simple only (docs/operators.md, "Postage speed").
 */
export const POSTAGE_SPEEDS = ['fast', 'economic', 'urgent'] as const;
export type PostageSpeed = (typeof POSTAGE_SPEEDS)[number];

/** What a simple letter is posted at when the request does not say: Maileva's default (`postage_type` absent: FAST). */
export const DEFAULT_POSTAGE: PostageSpeed = 'fast';

/** Maileva's `postage_type` (mail v2) for each speed. */
export const MAILEVA_POSTAGE_TYPES: Record<PostageSpeed, 'FAST' | 'ECONOMIC' | 'URGENT'> = {
  fast: 'FAST',
  economic: 'ECONOMIC',
  urgent: 'URGENT',
};

/**
 * The La Poste product each speed stands for and its announced delivery time in working days
 * after posting (J+n, metropolitan France), as La Poste announces it: Lettre verte J+3 since
 * 2023 (J+2 before), Ecopli J+4, the J+1 letter (the former Lettre prioritaire). Indicative: La
 * Poste commits to none of them.
 */
export const POSTAGE_PRODUCTS: Record<PostageSpeed, { product: string; deliveryDays: number }> = {
  urgent: { product: 'Lettre prioritaire', deliveryDays: 1 },
  fast: { product: 'Lettre verte', deliveryDays: 3 },
  economic: { product: 'Ecopli', deliveryDays: 4 },
};

/** A mailing's postage as its resource shows it; null for registered and AR letters (one speed, not chosen). */
export interface MailingPostage {
  speed: PostageSpeed;
  product: string;
  deliveryDays: number;
}

export function mailingPostage(mode: Mode, options: { postage?: PostageSpeed } | null | undefined): MailingPostage | null {
  if (mode !== 'simple') return null;
  const speed = options?.postage ?? DEFAULT_POSTAGE;
  return { speed, ...POSTAGE_PRODUCTS[speed] };
}

/** options.postage with a registered or AR letter: 422 option_not_available naming the field. */
export function checkPostage(request: { mode: Mode; options: { postage?: PostageSpeed } }): void {
  if (request.options.postage === undefined || request.mode === 'simple') return;
  throw unprocessable(
    `options.postage chooses the speed of a simple letter; a ${request.mode === 'ar' ? 'registered letter with acknowledgment' : 'registered letter'} has one speed: leave options.postage out.`,
    { field: 'options.postage' },
    'option_not_available',
  );
}
