import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { BASE, csrfField } from './layout.js';
import { ARCHIVE_INCLUDED_YEARS, ARCHIVE_YEARS, type PostalSettings } from '../../domain/access/postal-settings.js';

/** The account's postal settings as the settings page shows them (owners may change them). */
export interface PostalSettingsState {
  settings: PostalSettings;
  mayChange: boolean;
}

const ENVELOPE_LABELS = { FRANKING_ENVELOPE: 'enveloppe à affranchir', PREPAID_ENVELOPE: 'enveloppe T (port payé)' } as const;
const years = (n: number): string => (n === 0 ? 'aucun archivage' : `${n} an${n > 1 ? 's' : ''}`);

function archiveSelect(api: 'simple' | 'registered', current: number | null): Html {
  const name = `archive_${api}`;
  const options = [
    html`<option value="default" ${current === null ? 'selected' : ''}>Par défaut (${years(ARCHIVE_INCLUDED_YEARS[api])}, compris dans le prix)</option>`,
    ...ARCHIVE_YEARS[api].map((n) => html`<option value="${String(n)}" ${current === n ? 'selected' : ''}>${years(n)}</option>`),
  ];
  return html`<select id="${name}" name="${name}">
    ${options}
  </select>`;
}

/**
 * « Courrier » of /dashboard/parametres (issue 55): the return envelope the operator slips into a
 * letter that asks for it (options.returnEnvelope), and how long the operator archives the letters.
 */
export function postalSettingsSection(session: Session, state: PostalSettingsState): Html {
  const { returnEnvelope, archiveYears } = state.settings;
  const envelope = returnEnvelope
    ? html`<p id="return-envelope-state">
        Enveloppe retour : <strong>${ENVELOPE_LABELS[returnEnvelope.type]}</strong>, référence opérateur <code>${returnEnvelope.id}</code>.
      </p>`
    : html`<p id="return-envelope-state">
        Aucune enveloppe retour : un envoi qui demande options.returnEnvelope est refusé (422 return_envelope_not_configured).
      </p>`;
  const archive = html`<p id="archive-state">
    Archivage chez l’opérateur : lettres simples <strong>${archiveYears.simple === null ? 'par défaut' : years(archiveYears.simple)}</strong>, recommandées
    <strong>${archiveYears.registered === null ? 'par défaut' : years(archiveYears.registered)}</strong>.
  </p>`;
  const forms = state.mayChange
    ? html`<form id="return-envelope-form" method="post" action="${BASE}/parametres/enveloppe-retour">
          ${csrfField(session)}
          <label for="return_envelope_type">Type d’enveloppe retour</label
          ><select id="return_envelope_type" name="return_envelope_type">
            <option value="" ${returnEnvelope ? '' : 'selected'}>Aucune</option>
            <option value="FRANKING_ENVELOPE" ${returnEnvelope?.type === 'FRANKING_ENVELOPE' ? 'selected' : ''}>Enveloppe à affranchir</option>
            <option value="PREPAID_ENVELOPE" ${returnEnvelope?.type === 'PREPAID_ENVELOPE' ? 'selected' : ''}>Enveloppe T (port payé)</option>
          </select>
          <label for="return_envelope_id">Référence de l’enveloppe chez l’opérateur (identifiant UUID)</label
          ><input id="return_envelope_id" name="return_envelope_id" type="text" maxlength="36" value="${returnEnvelope?.id ?? ''}" />
          <p>Une enveloppe T n’est pas jointe pour un destinataire hors de France métropolitaine et des DOM.</p>
          <p><button type="submit">Enregistrer l’enveloppe retour</button></p>
        </form>
        <form id="archive-form" method="post" action="${BASE}/parametres/archivage">
          ${csrfField(session)}
          <label for="archive_simple">Lettres simples</label>${archiveSelect('simple', archiveYears.simple)}
          <label for="archive_registered">Lettres recommandées</label>${archiveSelect('registered', archiveYears.registered)}
          <p>Chaque année au-delà de celles comprises est facturée par lettre ; un envoi peut choisir autrement (options.archiveYears).</p>
          <p><button type="submit">Enregistrer l’archivage</button></p>
        </form>`
    : html`<p>Seul un propriétaire du compte peut changer ces réglages.</p>`;
  return html`<h2 id="courrier">Courrier : enveloppe retour et archivage</h2>
    ${envelope} ${archive} ${forms}`;
}
