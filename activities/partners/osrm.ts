import got, { HTTPError } from 'got';
import type { Point, RouteResult } from '../../domain/lookups/results.js';
import { PartnerResponseError } from './failures.js';

interface OsrmResponse {
  code?: string;
  message?: string;
  routes?: { distance?: number; duration?: number; geometry?: { type?: string; coordinates?: [number, number][] } }[];
}

/**
 * An OSRM-compatible routing service: GET {base}/route/v1/driving/{lon},{lat};{lon},{lat}.
 * Answers null when there is no route between the points (OSRM code NoRoute / NoSegment).
 */
export async function carRoute(baseUrl: string, from: Point, to: Point, geometry: boolean, timeoutMs: number): Promise<RouteResult | null> {
  const path = `${from.lon},${from.lat};${to.lon},${to.lat}`;
  let body: OsrmResponse;
  try {
    body = await got(`${baseUrl.replace(/\/$/, '')}/route/v1/driving/${path}`, {
      searchParams: { overview: geometry ? 'simplified' : 'false', geometries: 'geojson', steps: 'false' },
      timeout: { request: timeoutMs },
      retry: { limit: 0 },
    }).json<OsrmResponse>();
  } catch (error) {
    // OSRM answers 400 with a code for "no route"; that is an answer, not a failure.
    if (error instanceof HTTPError && error.response.statusCode === 400) {
      const code = (JSON.parse(String(error.response.body || '{}')) as OsrmResponse).code;
      if (code === 'NoRoute' || code === 'NoSegment') return null;
    }
    throw error;
  }
  if (body?.code === 'NoRoute' || body?.code === 'NoSegment') return null;
  const route = body?.routes?.[0];
  if (body?.code !== 'Ok' || typeof route?.distance !== 'number' || typeof route.duration !== 'number')
    throw new PartnerResponseError('routing service answered without a route');
  return {
    distanceMeters: Math.round(route.distance),
    durationSeconds: Math.round(route.duration),
    ...(geometry && route.geometry?.type === 'LineString' && Array.isArray(route.geometry.coordinates)
      ? { geometry: { type: 'LineString', coordinates: route.geometry.coordinates } }
      : {}),
  };
}
