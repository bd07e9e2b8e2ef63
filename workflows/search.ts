import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

// A search waits for this: fail fast, the response then stays lexical.
const forQuery = proxyActivities<Activities>({ startToCloseTimeout: '5s', retry: { maximumAttempts: 2, initialInterval: '100ms' } });
// The catalogue's vectors are computed once: worth a few retries.
const forCatalogue = proxyActivities<Activities>({ startToCloseTimeout: '60s', retry: { maximumAttempts: 4 } });

export async function embedQuery(text: string): Promise<number[]> {
  const [vector] = await forQuery.embedTexts([text]);
  return vector!;
}

export async function embedCatalogue(texts: string[]): Promise<number[][]> {
  return forCatalogue.embedTexts(texts);
}
