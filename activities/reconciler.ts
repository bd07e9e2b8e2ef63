import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import { mailingStart } from '../domain/mailings/create.js';
import { lastStep, MODES, type Mode } from '../domain/mailings/states.js';
import { mailingWorkflowId } from '../workflows/contract.js';
import { temporalWorkflows } from '../workflows/client.js';

/** A mailing younger than this may still be starting: the reconciler leaves it alone. */
const GRACE_MS = 2 * 60_000;
const BATCH = 500;

export interface ReconcileOptions {
  /** Only this account's mailings (tests, or an operator repairing one customer). */
  accountId?: string;
}

/**
 * The repair of DESIGN.md §1: a shipment that is not final has a running workflow. One that has
 * none (terminated by hand, failed on a bug, lost in a disaster recovery) is started again, and
 * the workflow resumes from the projection: it files an unfiled letter, follows a filed one, or
 * refunds one paid too long ago (`mailing.error`).
 */
export function reconcilerActivities(db: Db, config: Config, temporal: Client | undefined) {
  return {
    async resumeUnattendedMailings(options: ReconcileOptions = {}): Promise<{ checked: number; resumed: string[] }> {
      if (!temporal) throw new Error('this worker has no Temporal client for the reconciler');
      const unfinished = db('shipments')
        .where('created_at', '<', new Date(Date.now() - GRACE_MS))
        .whereNotIn('status', ['canceled', 'error', 'returned'])
        .andWhere((q) => {
          for (const mode of MODES) q.orWhere((m) => m.where({ mode }).andWhere('step', '<', lastStep(mode)));
        })
        .orderBy('created_at')
        .limit(BATCH)
        .select('id', 'account_id', 'mode', 'test', 'reference');
      if (options.accountId) unfinished.andWhere({ account_id: options.accountId });
      const rows = (await unfinished) as { id: string; account_id: string; mode: Mode; test: boolean; reference: string | null }[];
      const workflows = temporalWorkflows(temporal, config);
      const resumed: string[] = [];
      for (const row of rows) {
        if (await isRunning(temporal, row.id)) continue;
        try {
          const { input, reference } = mailingStart(config, row);
          await workflows.startMailing({ ...input, resumed: true }, reference, { restart: true });
          resumed.push(row.id);
          logger.warn({ shipmentId: row.id }, 'reconciler: mailing without a running workflow, started again');
        } catch (error) {
          // Started meanwhile by someone else: attended after all.
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
      }
      return { checked: rows.length, resumed };
    },
  };
}

async function isRunning(temporal: Client, shipmentId: string): Promise<boolean> {
  try {
    const description = await temporal.workflow.getHandle(mailingWorkflowId(shipmentId)).describe();
    return description.status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
