import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { LetterDocument } from '../domain/letters/render.js';

const { renderLetterPdf } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  // A crashed browser is replaced by the pool; a second attempt then succeeds.
  retry: { maximumAttempts: 3, initialInterval: '200ms' },
});

/** POST /v1/letters/{slug}/pdf: the A4 PDF is printed by the worker's browser, never by the API. */
export async function letterPdf(document: LetterDocument): Promise<Uint8Array> {
  return renderLetterPdf(document);
}
