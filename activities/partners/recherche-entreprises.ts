import got from 'got';
import type { CompanyProfile, CompanySummary } from '../../domain/lookups/results.js';
import { PartnerResponseError } from './failures.js';

/** The fields of the French government's company search API (recherche-entreprises) that we use. */
interface Establishment {
  siret?: string;
  adresse?: string;
  code_postal?: string;
  libelle_commune?: string;
  activite_principale?: string;
  etat_administratif?: string;
  est_siege?: boolean;
  date_creation?: string;
}

interface Company {
  siren?: string;
  nom_complet?: string;
  nom_raison_sociale?: string;
  sigle?: string | null;
  nombre_etablissements?: number;
  nombre_etablissements_ouverts?: number;
  siege?: Establishment;
  activite_principale?: string;
  categorie_entreprise?: string | null;
  tranche_effectif_salarie?: string | null;
  date_creation?: string;
  date_mise_a_jour?: string;
  etat_administratif?: string;
  nature_juridique?: string;
  matching_etablissements?: Establishment[];
}

const status = (code: string | undefined): 'active' | 'closed' => (code === 'C' || code === 'F' ? 'closed' : 'active');
const place = (e: Establishment | undefined) => ({
  siret: e?.siret ?? '',
  address: e?.adresse ?? '',
  postcode: e?.code_postal ?? '',
  city: e?.libelle_commune ?? '',
});

async function search(baseUrl: string, params: Record<string, string | number>, timeoutMs: number): Promise<Company[]> {
  const body = await got(`${baseUrl.replace(/\/$/, '')}/search`, { searchParams: params, timeout: { request: timeoutMs }, retry: { limit: 0 } }).json<{
    results?: Company[];
  }>();
  if (!Array.isArray(body?.results) || body.results.some((c) => typeof c?.siren !== 'string'))
    throw new PartnerResponseError('company search answered without results');
  return body.results;
}

/** GET /v1/companies: by name, trade name, SIREN or SIRET; `active` keeps open companies only. */
export async function searchCompanies(baseUrl: string, q: string, limit: number, only: 'active' | 'all', timeoutMs: number): Promise<CompanySummary[]> {
  const results = await search(baseUrl, { q, per_page: limit, page: 1, ...(only === 'active' ? { etat_administratif: 'A' } : {}) }, timeoutMs);
  return results.map((c) => ({
    siren: c.siren!,
    name: c.nom_complet ?? c.nom_raison_sociale ?? '',
    acronym: c.sigle ?? null,
    status: status(c.etat_administratif),
    headOffice: place(c.siege),
    activity: c.activite_principale ?? null,
    establishments: c.nombre_etablissements ?? 0,
  }));
}

/** GET /v1/companies/{siret}: the establishment, its company and head office; null when unknown. */
export async function companyProfile(baseUrl: string, siret: string, timeoutMs: number): Promise<CompanyProfile | null> {
  const results = await search(baseUrl, { q: siret, per_page: 1, page: 1 }, timeoutMs);
  const company = results.find((c) => c.siren === siret.slice(0, 9));
  if (!company) return null;
  const establishment = [company.siege, ...(company.matching_etablissements ?? [])].find((e) => e?.siret === siret);
  if (!establishment) return null;
  return {
    siret,
    establishment: {
      ...place(establishment),
      status: status(establishment.etat_administratif),
      isHeadOffice: establishment.siret === company.siege?.siret,
      activity: establishment.activite_principale ?? null,
      createdOn: establishment.date_creation ?? null,
    },
    company: {
      siren: company.siren!,
      name: company.nom_complet ?? company.nom_raison_sociale ?? '',
      acronym: company.sigle ?? null,
      status: status(company.etat_administratif),
      category: company.categorie_entreprise ?? null,
      legalForm: company.nature_juridique ?? null,
      createdOn: company.date_creation ?? null,
      establishments: company.nombre_etablissements ?? 0,
    },
    headOffice: place(company.siege),
    activity: { code: company.activite_principale ?? null },
    headcount: { range: company.tranche_effectif_salarie ?? null },
    dataFreshness: company.date_mise_a_jour ?? null,
  };
}
