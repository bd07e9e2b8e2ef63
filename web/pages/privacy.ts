import { html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { AiConsent } from '../../domain/access/ai-consent.js';
import type { Processor } from '../../domain/privacy/processors.js';
import { BASE, layout, when } from './layout.js';

export interface PrivacyPageInput {
  /** The sub-processors (domain/privacy/processors.ts), each with the host this deployment sends to (null: not used here). */
  processors: { processor: Processor; host: string | null }[];
  ai: { consent: AiConsent; provider: { name: string; host: string; hosted: string } };
}

/** `/dashboard/confidentialite`: who receives what, where it is hosted, and a summary of the processing register and the DPA. */
export function privacyPage(session: Session, input: PrivacyPageInput): string {
  const { consent, provider } = input.ai;
  return layout(
    'Données personnelles',
    session,
    html`<p>
        Les lettres que vous envoyez contiennent des données personnelles (noms, adresses, et souvent bien plus dans leur texte). Vous en êtes le responsable de
        traitement ; nous les traitons pour votre compte, comme sous-traitant au sens de l’article 28 du RGPD, et seulement pour produire, poster et suivre vos
        envois.
      </p>
      <h2>Fonctions d’IA de ce compte</h2>
      <p id="privacy-ai">
        ${consent.enabled ? html`Activées depuis le ${when(consent.enabledAt)}` : 'Désactivées'}. Fournisseur : <strong>${provider.name}</strong>
        (<code>${provider.host}</code>), hébergement : ${provider.hosted}. Un propriétaire du compte les active ou les désactive dans les
        <a href="${BASE}/parametres">paramètres du compte</a>.
      </p>
      <h2>Nos sous-traitants</h2>
      <table id="processors">
        <thead>
          <tr>
            <th>Sous-traitant</th>
            <th>Pour quoi</th>
            <th>Ce qu’il reçoit</th>
            <th>Hébergement</th>
            <th>Dans ce service</th>
          </tr>
        </thead>
        <tbody>
          ${input.processors.map(
            ({ processor, host }) =>
              html`<tr data-processor="${processor.id}">
                <td>${processor.name}</td>
                <td>${processor.purpose.fr}</td>
                <td>${processor.receives.fr}</td>
                <td>${processor.hosted.fr}</td>
                <td>${host ? html`<code>${host}</code>` : 'non utilisé ici'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h2>Registre des traitements et accord de sous-traitance</h2>
      <ul id="privacy-register">
        <li>
          Données : l’identité et l’adresse des expéditeurs et destinataires, l’e-mail des destinataires s’il est donné, le texte ou le PDF des lettres, les
          preuves de dépôt et de distribution, les événements de webhooks ; pour votre compte : les e-mails des membres, le profil de facturation, les journaux
          d’appels et d’audit (avec l’adresse IP des clients).
        </li>
        <li>Personnes concernées : les destinataires et expéditeurs de vos lettres, les membres de votre compte.</li>
        <li>Finalités : produire, poster et suivre vos lettres, en garder la preuve, facturer, sécuriser le service.</li>
        <li>Durées de conservation : voir les règles de conservation.</li>
        <li>
          Sécurité : TLS de bout en bout, clés d’API gardées par leur seule empreinte SHA-256, secrets chiffrés (AES-GCM), double authentification, journaux de
          l’application sans contenu de lettre, adresse ni e-mail de destinataire.
        </li>
      </ul>
      <p>
        Le registre complet et un modèle d’accord de sous-traitance (DPA, clauses de l’article 28, paragraphe 3, du RGPD) figurent dans la documentation du
        service, <code>docs/privacy.md</code> ; demandez-le à l’opérateur du service pour le signer.
      </p>`,
  );
}
