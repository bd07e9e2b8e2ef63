import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { BILLING_MAX, type BillingField, type BillingProblem, type BillingProfile } from '../../domain/billing/profiles.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';

export const BILLING_LABELS: Record<BillingField, string> = {
  legalName: 'Raison sociale',
  addressLine1: 'Adresse',
  addressLine2: 'Complément d’adresse',
  postalCode: 'Code postal',
  city: 'Ville',
  country: 'Pays',
  siret: 'SIRET',
  vatNumber: 'Numéro de TVA intracommunautaire',
  email: 'E-mail de facturation',
};

/** Each refusal in French, for its field. */
export function billingProblemText(field: BillingField, problem: BillingProblem): string {
  const label = BILLING_LABELS[field];
  switch (problem) {
    case 'required':
      return `${label} : ce champ est obligatoire.`;
    case 'too_long':
      return `${label} : ${BILLING_MAX[field]} caractères au plus.`;
    case 'postcode':
      return `${label} : 5 chiffres.`;
    case 'country':
      return `${label} : seule la France est proposée pour l’instant.`;
    case 'email':
      return `${label} : adresse e-mail invalide.`;
    case 'siret_format':
      return `${label} : exactement 14 chiffres (les espaces sont acceptés).`;
    case 'siret_checksum':
      return `${label} : ce numéro n’est pas un SIRET valide, sa clé de contrôle ne correspond pas. Vérifiez-le.`;
    case 'vat_format':
      return `${label} : FR, une clé de 2 chiffres puis les 9 chiffres du SIREN (par exemple FR11123456782).`;
    case 'vat_key':
      return `${label} : la clé (les 2 chiffres après FR) ne correspond pas au SIREN qui suit. Vérifiez le numéro.`;
    case 'siren_mismatch':
      return `${label} : son SIREN (les 9 derniers chiffres) n’est pas celui du SIRET (ses 9 premiers chiffres).`;
  }
}

export type BillingForm = Record<BillingField, string>;

export const profileForm = (p: BillingProfile | undefined): BillingForm => ({
  legalName: p?.legalName ?? '',
  addressLine1: p?.addressLine1 ?? '',
  addressLine2: p?.addressLine2 ?? '',
  postalCode: p?.postalCode ?? '',
  city: p?.city ?? '',
  country: p?.country ?? 'FR',
  siret: p?.siret ?? '',
  vatNumber: p?.vatNumber ?? '',
  email: p?.email ?? '',
});

function field(form: BillingForm, problems: Partial<Record<BillingField, BillingProblem>>, name: BillingField, attrs: Html, hint = ''): Html {
  const problem = problems[name];
  return html`<label for="${name}">${BILLING_LABELS[name]}${hint ? html` <small>${hint}</small>` : ''}</label>
    <input
      id="${name}"
      name="${name}"
      type="text"
      maxlength="${BILLING_MAX[name]}"
      value="${form[name]}"
      ${attrs}
      ${problem ? html`aria-invalid="true"` : ''}
    />
    ${problem ? html`<p class="error field-error" id="error-${name}" data-problem="${problem}">${billingProblemText(name, problem)}</p>` : ''}`;
}

/** The billing profile: what the invoices say about the buyer, and the form that changes it. */
export function billingProfilePage(
  session: Session,
  input: { profile: BillingProfile | undefined; form: BillingForm; problems?: Partial<Record<BillingField, BillingProblem>>; m?: Message },
): string {
  const problems = input.problems ?? {};
  const { form, profile } = input;
  return layout(
    'Profil de facturation',
    session,
    html`${message(input.m)}
      <p>
        Vos factures de recharge (émises par Stripe) sont établies au nom et à l’adresse ci-dessous, avec votre SIRET et votre numéro de TVA intracommunautaire.
        Chaque modification est inscrite au <a href="${BASE}/audit">journal d’audit</a> et vaut pour les factures suivantes.
      </p>
      ${
        profile
          ? html`<p id="profile-status" data-version="${profile.version}">Dernière modification : ${when(profile.updatedAt)}.</p>`
          : html`<p id="profile-status" data-version="0">Aucun profil pour l’instant : vos factures ne portent que votre adresse e-mail.</p>`
      }
      <form method="post" action="${BASE}/facturation" id="billing-profile-form" novalidate>
        ${csrfField(session)} ${field(form, problems, 'legalName', html`required autocomplete="organization"`)}
        ${field(form, problems, 'addressLine1', html`required autocomplete="address-line1"`)}
        ${field(form, problems, 'addressLine2', html`autocomplete="address-line2"`, '(facultatif)')}
        ${field(form, problems, 'postalCode', html`required inputmode="numeric" autocomplete="postal-code"`)}
        ${field(form, problems, 'city', html`required autocomplete="address-level2"`)}
        <label for="country">${BILLING_LABELS.country}</label>
        <select id="country" name="country">
          <option value="FR" selected>France</option>
        </select>
        ${problems.country ? html`<p class="error field-error" id="error-country">${billingProblemText('country', problems.country)}</p>` : ''}
        ${field(form, problems, 'siret', html`inputmode="numeric"`, '(14 chiffres, facultatif)')}
        ${field(form, problems, 'vatNumber', html``, '(FR + clé + SIREN, facultatif)')} ${field(form, problems, 'email', html`required autocomplete="email"`)}
        <p><button type="submit">Enregistrer le profil de facturation</button></p>
      </form>`,
  );
}
