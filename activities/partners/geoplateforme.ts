import got from 'got';
import type { AddressMatch, AddressResult } from '../../domain/lookups/results.js';
import { PartnerResponseError } from './failures.js';

interface Feature {
  geometry?: { type?: string; coordinates?: unknown };
  properties?: {
    label?: unknown;
    name?: unknown;
    street?: unknown;
    housenumber?: unknown;
    postcode?: unknown;
    city?: unknown;
    citycode?: unknown;
    type?: unknown;
    score?: unknown;
  };
}

/** The geocoder's own filters: `type=municipality&citycode=69123` finds a commune's centre. */
export interface GeocoderFilters {
  type?: 'municipality';
  citycode?: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The national address base geocoder (Géoplateforme, BAN data): GET {base}/search?q=&limit=,
 * a GeoJSON FeatureCollection. One attempt with a time limit; retries belong to the activity.
 */
async function search(baseUrl: string, searchParams: Record<string, string | number>, timeoutMs: number): Promise<Feature[]> {
  const body = await got(`${baseUrl.replace(/\/$/, '')}/search`, {
    searchParams,
    timeout: { request: timeoutMs },
    retry: { limit: 0 },
  }).json<{ type?: string; features?: Feature[] }>();
  if (body?.type !== 'FeatureCollection' || !Array.isArray(body.features))
    throw new PartnerResponseError('geocoder answered something other than a FeatureCollection');
  return body.features;
}

export async function searchAddresses(baseUrl: string, q: string, limit: number, timeoutMs: number, filters: GeocoderFilters = {}): Promise<AddressResult[]> {
  const features = await search(baseUrl, { q, limit, autocomplete: 1, ...filters }, timeoutMs);
  return features.map((feature) => {
    const p = feature.properties ?? {};
    const coordinates = feature.geometry?.coordinates;
    if (!Array.isArray(coordinates) || typeof coordinates[0] !== 'number' || typeof coordinates[1] !== 'number' || !text(p.label) || !text(p.postcode)) {
      throw new PartnerResponseError('geocoder feature without label, postcode or coordinates');
    }
    // Streets and house numbers have a street; a locality or a commune gives its own name.
    const street = text(p.street) ? [text(p.housenumber), text(p.street)].filter(Boolean).join(' ') : text(p.name);
    return { label: text(p.label), street, postcode: text(p.postcode), city: text(p.city), lat: coordinates[1], lon: coordinates[0] };
  });
}

const MATCH_TYPES = ['housenumber', 'street', 'locality', 'municipality'] as const;

/**
 * A whole address checked against the base (autocomplete off: the query is complete), each
 * candidate with the geocoder's score (0 to 1) and type, best first, as the partner ranks them.
 */
export async function matchAddress(baseUrl: string, q: string, limit: number, timeoutMs: number): Promise<AddressMatch[]> {
  const features = await search(baseUrl, { q, limit, autocomplete: 0 }, timeoutMs);
  return features.map((feature) => {
    const p = feature.properties ?? {};
    const type = MATCH_TYPES.find((t) => t === p.type);
    if (!text(p.label) || !text(p.postcode) || !text(p.city) || typeof p.score !== 'number' || !type)
      throw new PartnerResponseError('geocoder feature without label, postcode, city, score or type');
    return {
      label: text(p.label),
      score: p.score,
      type,
      housenumber: text(p.housenumber) || null,
      street: text(p.street) || null,
      name: text(p.name),
      postcode: text(p.postcode),
      city: text(p.city),
      citycode: text(p.citycode),
    };
  });
}
