import { html, type Html } from '../html.js';
import type { Mailing } from '../../domain/mailings/mailing.js';
import type { RequestWarning } from '../../domain/catalogue/compatibility.js';

/** The page's French heading of each warning code; the API's own message follows it. */
const WARNING_LABELS: Record<RequestWarning['code'], string> = {
  field_replaced: 'Champ remplacé',
  field_renamed: 'Champ renommé',
  field_defaulted: 'Valeur par défaut',
  value_retired: 'Option retirée',
  address_unverified: 'Adresse non confirmée par la Base Adresse Nationale',
  address_check_unavailable: 'Adresse non vérifiée (base d’adresses indisponible)',
  address_check_not_applied: 'Adresse à l’étranger : la Base Adresse Nationale ne s’applique pas',
};

/** A mailing's warnings on the mailings page (what was done with its request instead of refusing it); nothing without any. */
export function mailingWarnings(s: Pick<Mailing, 'warnings'>): Html | string {
  if (!s.warnings.length) return '';
  return html`<ul class="warnings">
    ${s.warnings.map((w) => html`<li data-warning="${w.code}"><strong>${WARNING_LABELS[w.code] ?? w.code}</strong> (${w.field}) : ${w.message}</li>`)}
  </ul>`;
}
