import type { Config } from '../../lib/config.js';

/**
 * Our sub-processors (GDPR art. 28(2) and (4)): who receives personal data of our customers'
 * letters or accounts, what they receive, and where they are hosted. The one list: docs/privacy.md
 * shows it as a table (`processorsMarkdown`, kept equal by test/unit/privacy-processors.test.ts)
 * and the developer space's /dashboard/confidentialite page renders it, with the host each
 * configurable one has in this deployment (`configuredHost`).
 */
export interface Processor {
  id: 'postal-operator' | 'registered-email' | 'payments' | 'email' | 'ai' | 'embeddings' | 'workflows' | 'geocoding' | 'companies' | 'routing' | 'fuel';
  /** Who, by default. */
  name: string;
  /** Where the data is processed (as the provider states it; the operator's contract with it governs). */
  hosted: { en: string; fr: string };
  /** What it is used for. */
  purpose: { en: string; fr: string };
  /** What personal data it receives, and when. */
  receives: { en: string; fr: string };
  /** The setting that chooses it (lib/config.ts), if any. */
  setting: string | null;
}

export const PROCESSORS: readonly Processor[] = [
  {
    id: 'postal-operator',
    name: 'Maileva (Docaposte, groupe La Poste)',
    hosted: { en: 'France', fr: 'France' },
    purpose: { en: 'Prints and posts live letters; tracking and proofs', fr: 'Impression et dépôt des lettres en production ; suivi et preuves' },
    receives: {
      en: 'Each live mailing: the letter (its PDF), sender and recipient names and postal addresses, the reference. Never for test mailings',
      fr: 'Chaque envoi en production : la lettre (son PDF), les noms et adresses postales de l’expéditeur et du destinataire, la référence. Jamais pour les envois de test',
    },
    setting: 'POSTAL_OPERATOR=maileva',
  },
  {
    id: 'registered-email',
    name: 'AR24',
    hosted: { en: 'France', fr: 'France' },
    purpose: {
      en: 'Electronic registered letters (LRE); the sender’s identity check',
      fr: 'Lettres recommandées électroniques (LRE) ; la vérification de l’identité de l’expéditeur',
    },
    receives: {
      en: 'When an owner requests the sender identity check: the company’s name, SIRET and address, and the name and email address of the person the identity letter is for. Once electronic letters are offered: the letter, the recipient’s name and email address',
      fr: 'Quand un propriétaire demande la vérification de l’identité d’expéditeur : la raison sociale, le SIRET et l’adresse de l’entreprise, le nom et l’adresse e-mail de la personne à qui s’adresse la lettre de vérification. Une fois les LRE proposées : la lettre, le nom et l’adresse e-mail du destinataire',
    },
    setting: 'LRE_PROVIDER=ar24',
  },
  {
    id: 'payments',
    name: 'Stripe (Stripe Payments Europe, Ltd.)',
    hosted: {
      en: 'Ireland (EU); Stripe also processes in the United States (EU-US Data Privacy Framework)',
      fr: 'Irlande (UE) ; Stripe traite aussi aux États-Unis (cadre de protection des données UE-États-Unis)',
    },
    purpose: { en: 'Balance top-ups by card; the billing customer', fr: 'Recharges du solde par carte ; le client de facturation' },
    receives: {
      en: 'The account’s billing name and address, the paying user’s email, amounts. Card numbers go to Stripe’s page, never to us. No letter, no recipient',
      fr: 'Nom et adresse de facturation du compte, e-mail de l’utilisateur qui paie, montants. Les numéros de carte sont saisis chez Stripe, jamais chez nous. Aucune lettre, aucun destinataire',
    },
    setting: 'STRIPE_SECRET_KEY',
  },
  {
    id: 'email',
    name: 'The SMTP provider chosen by the operator',
    hosted: { en: 'Where that provider is (the host of SMTP_URL)', fr: 'Là où est ce fournisseur (l’hôte de SMTP_URL)' },
    purpose: { en: 'Emails of the developer space', fr: 'E-mails de l’espace développeur' },
    receives: {
      en: 'Developer-space users’ email addresses and our messages to them (confirmation links, notices). No letter, no recipient',
      fr: 'Adresses e-mail des utilisateurs de l’espace développeur et nos messages (liens de confirmation, avis). Aucune lettre, aucun destinataire',
    },
    setting: 'SMTP_URL',
  },
  {
    id: 'ai',
    name: 'Mistral AI (default)',
    hosted: { en: 'EU (Mistral AI SAS, Paris, France)', fr: 'UE (Mistral AI SAS, Paris, France)' },
    purpose: { en: 'The AI features: fill a letter, draft a letter, AI tools', fr: 'Les fonctions d’IA : remplir une lettre, rédiger une lettre, outils d’IA' },
    receives: {
      en: 'What a live key sends to POST /v1/ai/* (a sentence, a description and facts, a tool’s inputs: may hold personal data), only for an account that turned AI on. Never for test keys',
      fr: 'Ce qu’une clé de production envoie à POST /v1/ai/* (une phrase, une description et des faits, les entrées d’un outil : peut contenir des données personnelles), seulement pour un compte qui a activé l’IA. Jamais pour les clés de test',
    },
    setting: 'LLM_BASE_URL',
  },
  {
    id: 'embeddings',
    name: 'None by default (semantic search off)',
    hosted: {
      en: 'Where the configured provider is (the host of EMBEDDINGS_BASE_URL)',
      fr: 'Là où est le fournisseur configuré (l’hôte de EMBEDDINGS_BASE_URL)',
    },
    purpose: { en: 'Semantic search of the catalogue', fr: 'Recherche sémantique dans le catalogue' },
    receives: {
      en: 'When configured: the words of GET /v1/search queries and the catalogue’s texts. No letter, no recipient',
      fr: 'Si configuré : les mots des recherches GET /v1/search et les textes du catalogue. Aucune lettre, aucun destinataire',
    },
    setting: 'EMBEDDINGS_BASE_URL',
  },
  {
    id: 'workflows',
    name: 'Temporal (self-hosted by the operator, or Temporal Cloud)',
    hosted: { en: 'Where the operator runs it (the host of TEMPORAL_ADDRESS)', fr: 'Là où l’opérateur l’exploite (l’hôte de TEMPORAL_ADDRESS)' },
    purpose: { en: 'Runs each mailing, batch and AI call as a workflow', fr: 'Exécute chaque envoi, lot et appel d’IA comme un workflow' },
    receives: {
      en: 'The workflows’ inputs and results: a mailing’s letter and addresses, an AI call’s input and answer',
      fr: 'Les entrées et résultats des workflows : la lettre et les adresses d’un envoi, l’entrée et la réponse d’un appel d’IA',
    },
    setting: 'TEMPORAL_ADDRESS',
  },
  {
    id: 'geocoding',
    name: 'Géoplateforme (IGN)',
    hosted: { en: 'France', fr: 'France' },
    purpose: { en: 'National address base: recipient address check, /v1/geo', fr: 'Base adresse nationale : contrôle de l’adresse du destinataire, /v1/geo' },
    receives: {
      en: 'Recipients’ postal addresses (without their names) and the addresses searched',
      fr: 'Adresses postales des destinataires (sans leur nom) et adresses recherchées',
    },
    setting: 'GEOCODING_BASE_URL',
  },
  {
    id: 'companies',
    name: 'Recherche d’entreprises (DINUM, api.gouv.fr)',
    hosted: { en: 'France', fr: 'France' },
    purpose: {
      en: 'Company directory: a recipient by SIRET, production access checks, /v1/companies',
      fr: 'Annuaire des entreprises : destinataire par SIRET, contrôle d’accès à la production, /v1/companies',
    },
    receives: { en: 'SIRET numbers and company names searched', fr: 'Numéros SIRET et noms d’entreprises recherchés' },
    setting: 'COMPANIES_BASE_URL',
  },
  {
    id: 'routing',
    name: 'OSRM public server (router.project-osrm.org, FOSSGIS e.V.)',
    hosted: { en: 'Germany', fr: 'Allemagne' },
    purpose: { en: 'Driving distances of /v1/car-routes and mileage allowances', fr: 'Distances routières de /v1/car-routes et des indemnités kilométriques' },
    receives: {
      en: 'The coordinates of a route’s points (a home address may be one of them)',
      fr: 'Les coordonnées des points d’un trajet (l’un peut être une adresse personnelle)',
    },
    setting: 'ROUTING_BASE_URL',
  },
  {
    id: 'fuel',
    name: 'Prix des carburants (data.economie.gouv.fr)',
    hosted: { en: 'France', fr: 'France' },
    purpose: { en: 'Fuel stations and prices of /v1/fuel', fr: 'Stations et prix des carburants de /v1/fuel' },
    receives: { en: 'The place searched (coordinates or postcode)', fr: 'Le lieu recherché (coordonnées ou code postal)' },
    setting: 'FUEL_BASE_URL',
  },
];

const hostOf = (url: string | undefined): string | null => {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

/**
 * The host this deployment sends a processor's data to, from its settings (no credentials:
 * SMTP_URL's user and password are not shown); null when it is not used here.
 */
export function configuredHost(config: Config, id: Processor['id']): string | null {
  switch (id) {
    case 'postal-operator':
      return config.postalOperator.kind === 'maileva' ? hostOf(config.postalOperator.maileva.apiUrl) : null;
    case 'registered-email':
      return config.lreProvider.kind === 'ar24' ? hostOf(config.lreProvider.ar24.apiUrl) : null;
    case 'payments':
      return config.stripe.mode === 'stripe' ? 'api.stripe.com' : null;
    case 'email':
      return hostOf(config.mail.smtpUrl);
    case 'ai':
      return hostOf(config.llm.baseUrl);
    case 'embeddings':
      return hostOf(config.embeddings.baseUrl);
    case 'workflows':
      return config.temporalAddress ?? null;
    case 'geocoding':
      return hostOf(config.partners.geocodingBaseUrl);
    case 'companies':
      return hostOf(config.partners.companiesBaseUrl);
    case 'routing':
      return hostOf(config.partners.routingBaseUrl);
    case 'fuel':
      return hostOf(config.partners.fuelBaseUrl);
  }
}

/** The AI provider of this deployment as the developer space names it before an owner turns AI on. */
export function aiProvider(config: Config): { name: string; host: string; hosted: string } {
  const host = hostOf(config.llm.baseUrl) ?? config.llm.baseUrl;
  const known: Record<string, { name: string; hosted: string }> = {
    'api.mistral.ai': { name: 'Mistral AI', hosted: 'UE (Mistral AI SAS, Paris, France)' },
    'api.openai.com': { name: 'OpenAI', hosted: 'États-Unis (OpenAI, L.L.C.) : hors de l’UE' },
  };
  const entry = known[host];
  return entry ? { ...entry, host } : { name: `le fournisseur configuré (${host})`, hosted: `là où est ${host} (choisi par l’opérateur du service)`, host };
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The table of docs/privacy.md, "Sub-processors" (English). */
export function processorsMarkdown(): string {
  const rows = PROCESSORS.map(
    (p) => `| ${cell(p.name)} | ${cell(p.purpose.en)} | ${cell(p.receives.en)} | ${cell(p.hosted.en)} | ${p.setting ? `\`${p.setting}\`` : '—'} |`,
  );
  return ['| Sub-processor | Purpose | Receives | Hosted | Chosen by |', '|---|---|---|---|---|', ...rows].join('\n');
}
