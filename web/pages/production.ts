import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import { productionAccessInputSchema } from '../../domain/access/production-access.js';
import type { ProductionAccessRequest } from '../../domain/access/production-requests.js';
import { maxLength } from '../forms.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';

export interface ProductionForm {
  siret: string;
  legalName: string;
  address: string;
  useCase: string;
}

export const PRODUCTION_LABELS: Record<keyof ProductionForm, string> = {
  siret: 'SIRET',
  legalName: 'Raison sociale',
  address: 'Adresse',
  useCase: 'Cas d’usage',
};

const max = (field: keyof ProductionForm): number => maxLength(productionAccessInputSchema, field)!;

/** What was sent (and what the directory said), as the operator sees it. */
function sent(request: ProductionAccessRequest): Html {
  return html`<dl id="production-request">
    <dt>${PRODUCTION_LABELS.siret}</dt>
    <dd>${request.siret}</dd>
    <dt>${PRODUCTION_LABELS.legalName}</dt>
    <dd>${request.legalName}</dd>
    <dt>${PRODUCTION_LABELS.address}</dt>
    <dd>${request.address}</dd>
    <dt>${PRODUCTION_LABELS.useCase}</dt>
    <dd>${request.useCase}</dd>
    <dt>Annuaire des entreprises</dt>
    <dd>
      ${
        request.company
          ? html`${request.company.name}, établissement ${request.company.status === 'active' ? 'actif' : 'fermé'} : ${request.company.address}`
          : 'pas encore joint : la vérification sera refaite automatiquement dès qu’il répondra'
      }
    </dd>
    <dt>Envoyée le</dt>
    <dd>${when(new Date(request.createdAt))}</dd>
    ${
      request.decidedAt && request.status === 'approved'
        ? html`<dt>Validée le</dt>
            <dd>
              ${when(new Date(request.decidedAt))}${request.decidedBy === 'automatic' ? ', automatiquement (entreprise active, raison sociale conforme à l’annuaire)' : ', par un opérateur'}
            </dd>`
        : ''
    }
  </dl>`;
}

function requestForm(session: Session, form: ProductionForm): Html {
  return html`<p>
      Pour ouvrir la production, décrivez votre entreprise et votre usage. Le SIRET est vérifié dans l’annuaire des entreprises (cette vérification n’est pas
      facturée). Si l’établissement est actif et que la raison sociale saisie est celle de l’annuaire, la production s’ouvre aussitôt. Sinon (raison sociale
      laissée vide : celle de l’annuaire est reprise), un opérateur valide la demande, en général sous un jour ouvré.
    </p>
    <form method="post" action="${BASE}/production">
      ${csrfField(session)}
      <label for="siret">${PRODUCTION_LABELS.siret} (14 chiffres)</label>
      <input id="siret" name="siret" type="text" required inputmode="numeric" maxlength="${max('siret')}" value="${form.siret}" />
      <label for="legalName">${PRODUCTION_LABELS.legalName}</label>
      <input id="legalName" name="legalName" type="text" maxlength="${max('legalName')}" autocomplete="organization" value="${form.legalName}" />
      <label for="address">${PRODUCTION_LABELS.address}</label>
      <textarea id="address" name="address" rows="3" maxlength="${max('address')}">${form.address}</textarea>
      <label for="useCase">${PRODUCTION_LABELS.useCase} : ce que vous enverrez, à qui, en quels volumes</label>
      <textarea id="useCase" name="useCase" rows="5" required maxlength="${max('useCase')}">${form.useCase}</textarea>
      <p><button type="submit">Demander l’accès à la production</button></p>
    </form>`;
}

const REFUSALS: Record<NonNullable<ProductionAccessRequest['refusal']>, string> = {
  unknown_company: 'aucun établissement ne porte ce SIRET dans l’annuaire des entreprises',
  closed_company: 'l’établissement est fermé selon l’annuaire des entreprises',
  name_mismatch: 'la raison sociale saisie n’est pas celle de l’annuaire pour ce SIRET',
};

/** A request checked later and refused: why, so that the next one is right. */
function refused(request: ProductionAccessRequest): Html {
  return html`<p class="error" id="production-refused">
    Votre demande du ${when(new Date(request.createdAt))} (SIRET ${request.siret}) n’a pas été acceptée : ${REFUSALS[request.refusal ?? 'unknown_company']}.
    Vérifiez et envoyez une nouvelle demande.
  </p>`;
}

export const EMPTY_PRODUCTION_FORM: ProductionForm = { siret: '', legalName: '', address: '', useCase: '' };

/** Production access: not requested (the form), pending (what was sent), or open. */
export function productionPage(
  session: Session,
  input: { liveEnabled: boolean; request: ProductionAccessRequest | undefined; form?: ProductionForm; m?: Message },
): string {
  const { liveEnabled, request } = input;
  let body: Html;
  if (liveEnabled)
    body = html`<p class="notice" id="production-status" data-state="open">
        Production ouverte : vos clés svc_live_ envoient de vrais courriers, débités de votre solde.
      </p>
      ${request?.status === 'approved' ? sent(request) : ''}`;
  else if (request?.status === 'pending' && !request.company)
    body = html`<p class="notice" id="production-status" data-state="checking">
        Demande enregistrée. L’annuaire des entreprises ne répondait pas : la vérification du SIRET sera refaite automatiquement dès qu’il répondra (en général
        en quelques minutes), puis la production s’ouvrira si l’entreprise est confirmée ; sinon un opérateur examinera la demande, en général sous un jour
        ouvré. Rien à renvoyer de votre côté. D’ici là, les clés svc_live_ répondent 403 live_not_enabled.
      </p>
      ${sent(request)}`;
  else if (request?.status === 'pending')
    body = html`<p class="notice" id="production-status" data-state="pending">
        Demande envoyée, en attente de validation par un opérateur, en général sous un jour ouvré (du lundi au vendredi). D’ici là, les clés svc_live_ répondent
        403 live_not_enabled ; les clés svc_test_ fonctionnent en sandbox.
      </p>
      ${sent(request)}`;
  else
    body = html`${request?.status === 'refused' ? refused(request) : ''}
      <p id="production-status" data-state="none">
        Production pas encore demandée : les clés svc_live_ répondent 403 live_not_enabled ; les clés svc_test_ fonctionnent en sandbox.
      </p>
      ${requestForm(session, input.form ?? EMPTY_PRODUCTION_FORM)}`;
  return layout('Accès à la production', session, html`${message(input.m)}${body}`);
}
