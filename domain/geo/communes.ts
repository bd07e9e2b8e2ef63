import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { communeKey } from '../../lib/text.js';

export { communeKey };

interface CommuneRecord {
  code: string;
  nom: string;
  type: string;
  departement: string;
  codesPostaux?: string[];
  population?: number;
}

export interface Commune {
  /** INSEE code. */
  code: string;
  name: string;
  department: string;
  postcodes: string[];
  population: number;
}

/** One commune at one of its postcodes: what goes on an envelope ("69003 Lyon"). */
export interface CityResult {
  label: string;
  postcode: string;
  city: string;
  insee: string;
  department: string;
}

/** The department of a postcode: 20xxx is Corsica (2A or 2B), 97xxx and 98xxx have three digits. */
function departmentsOfPostcode(postcode: string): string[] {
  if (postcode.startsWith('20')) return ['2A', '2B'];
  if (/^9[78]/.test(postcode)) return [postcode.slice(0, 3)];
  return [postcode.slice(0, 2)];
}

/**
 * The official list of French communes (INSEE code, name, postcodes) from the
 * @etalab/decoupage-administratif package, shipped as data: works offline.
 */
export class Communes {
  readonly all: Commune[];
  private readonly byPostcode = new Map<string, Commune[]>();
  private readonly byDepartment = new Map<string, Commune[]>();
  private readonly byCode = new Map<string, Commune>();
  private readonly keys: string[];

  constructor(records: CommuneRecord[]) {
    this.all = records
      .filter((r) => r.type === 'commune-actuelle' && r.codesPostaux?.length)
      .map((r) => ({ code: r.code, name: r.nom, department: r.departement, postcodes: r.codesPostaux!, population: r.population ?? 0 }))
      // Larger communes first: "Saint-Denis" means the one most people look for.
      .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name, 'fr'));
    this.keys = this.all.map((c) => communeKey(c.name));
    for (const commune of this.all) {
      this.byCode.set(commune.code, commune);
      for (const postcode of commune.postcodes) this.byPostcode.set(postcode, [...(this.byPostcode.get(postcode) ?? []), commune]);
      this.byDepartment.set(commune.department, [...(this.byDepartment.get(commune.department) ?? []), commune]);
    }
  }

  withCode(insee: string): Commune | undefined {
    return this.byCode.get(insee);
  }

  withPostcode(postcode: string): Commune[] {
    return this.byPostcode.get(postcode) ?? [];
  }

  /**
   * GET /v1/geo/cities: a 5-digit postcode gives every commune sharing it; otherwise names that
   * start with the query (accents, case, hyphens and "St" ignored), one result per postcode.
   */
  search(query: string, limit: number): CityResult[] {
    const q = query.trim();
    const at = (c: Commune, postcode: string): CityResult => ({
      label: `${postcode} ${c.name}`,
      postcode,
      city: c.name,
      insee: c.code,
      department: c.department,
    });
    if (/^\d{5}$/.test(q)) return this.withPostcode(q).map((c) => at(c, q));
    const key = communeKey(q);
    if (!key) return [];
    const results: CityResult[] = [];
    const exact: number[] = [];
    const prefix: number[] = [];
    this.keys.forEach((k, i) => (k === key ? exact.push(i) : k.startsWith(key) ? prefix.push(i) : undefined));
    for (const i of [...exact, ...prefix]) {
      const commune = this.all[i]!;
      for (const postcode of commune.postcodes) {
        if (results.length === limit) return results;
        results.push(at(commune, postcode));
      }
    }
    return results;
  }

  /**
   * Why a postcode and city cannot go on a French envelope, or undefined when they can. Accepts
   * "Paris", "PARIS 11", "Lyon 3e" and CEDEX addresses ("75371 Paris Cedex 08": the postcode is a
   * CEDEX code, so the city must be a commune of that postcode's department).
   */
  postalProblem(postcode: string, city: string): string | undefined {
    if (!/^\d{5}$/.test(postcode)) return `postcode "${postcode}" is not 5 digits`;
    const cedex = /\bcedex\b/i.test(city);
    const name = communeKey(city.replace(/\bcedex\b.*$/i, '').replace(/\s+\d{1,2}(?:e|er|eme)?$/i, ''));
    if (!name) return 'the city is empty';
    if (cedex) {
      const departments = departmentsOfPostcode(postcode);
      const known = departments.flatMap((d) => this.byDepartment.get(d) ?? []);
      if (known.length === 0) return `postcode ${postcode} is in no French department`;
      return known.some((c) => communeKey(c.name) === name) ? undefined : `${city} is not a commune of department ${departments.join(' or ')}`;
    }
    const communes = this.withPostcode(postcode);
    if (communes.length === 0) return `postcode ${postcode} does not exist`;
    if (communes.some((c) => communeKey(c.name) === name)) return undefined;
    return `postcode ${postcode} is not ${city} (it is ${communes.map((c) => c.name).join(', ')})`;
  }
}

let loaded: Communes | undefined;

/**
 * Read and parsed, not require()d: the module cache would keep the 35,000 raw records (about 7 MB
 * of heap beyond the list itself) for the life of every process, and every full GC marks them.
 */
function officialRecords(): CommuneRecord[] {
  const file = createRequire(import.meta.url).resolve('@etalab/decoupage-administratif/data/communes.json');
  return JSON.parse(readFileSync(file, 'utf8')) as CommuneRecord[];
}

export function communes(): Communes {
  loaded ??= new Communes(officialRecords());
  return loaded;
}
