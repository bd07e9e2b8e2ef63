import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { LetterDocument } from '../domain/letters/render.js';
import { mainQueueOf, printingQueue } from './contract.js';

const { renderLetterPdf } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  // A crashed browser is replaced by the pool; a second attempt then succeeds.
  retry: { maximumAttempts: 3, initialInterval: '200ms' },
});

/**
 * POST /v1/letters/{slug}/pdf: the A4 PDF is printed by the worker's browser, never by the API, on
 * the printing queue (the `printing` worker role: only those processes start a browser).
 */
export async function letterPdf(document: LetterDocument): Promise<Uint8Array> {
  return renderLetterPdf.executeWithOptions({ taskQueue: printingQueue(mainQueueOf(workflowInfo().taskQueue)) }, [document]);
}
