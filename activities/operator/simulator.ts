import type { Db } from '../../db/knex.js';
import type { OperatorNews } from '../../domain/mailings/projection.js';
import { PATHS, type Mode } from '../../domain/mailings/states.js';
import { OperatorRejectedError, OperatorUnavailableError, type Filing, type PostalOperator } from './postal-operator.js';
import { pdfPageCount } from '../pdf.js';

export interface SimulatorSettings {
  /** Time between two automatic steps (OPERATOR_STEP_DELAY). */
  stepDelayMs: number;
  /** The first n filing attempts of each shipment fail (OPERATOR_FAIL_FIRST_FILINGS). */
  failFirstFilings: number;
}

/**
 * A postal operator that keeps its own records (operator_filings) and moves each letter along its
 * mode's path, one step every stepDelayMs. Filing is idempotent: the row is created once and
 * `filed_at` is set once, whatever the number of attempts.
 */
export class SimulatedOperator implements PostalOperator {
  readonly name = 'simulator';

  constructor(
    private readonly db: Db,
    private readonly settings: SimulatorSettings,
  ) {}

  async file(filing: Filing): Promise<void> {
    const { rows } = await this.db.raw(
      `INSERT INTO operator_filings AS f (shipment_id, attempts) VALUES (?, 1)
       ON CONFLICT (shipment_id) DO UPDATE SET attempts = f.attempts + 1
       RETURNING attempts, filed_at`,
      [filing.shipmentId],
    );
    const { attempts, filed_at: filedAt } = rows[0] as { attempts: number; filed_at: Date | null };
    if (filedAt) return; // already filed: a retry confirms, never sends again
    if (attempts <= this.settings.failFirstFilings)
      throw new OperatorUnavailableError(`filing attempt ${attempts} of shipment ${filing.shipmentId} not confirmed by the operator`);
    if (filing.pdf.byteLength < 100) throw new OperatorRejectedError('the printed letter is empty');
    const pages = pdfPageCount(filing.pdf);
    await this.db('operator_filings')
      .where({ shipment_id: filing.shipmentId })
      .whereNull('filed_at')
      .update({ filed_at: this.db.fn.now(), pages, pdf: Buffer.from(filing.pdf) });
  }

  /**
   * Like a real operator's tracking: the letter is `printed` when filed and moves one step along
   * its mode's path every stepDelayMs after that, by the operator's own clock.
   */
  async trackingStatus(shipmentId: string, mode: Mode): Promise<OperatorNews> {
    const row = (await this.db('operator_filings').where({ shipment_id: shipmentId }).first('filed_at')) as { filed_at: Date | null } | undefined;
    if (!row?.filed_at) throw new Error(`shipment ${shipmentId} was never filed with the operator`);
    const path = PATHS[mode];
    const elapsed = Date.now() - row.filed_at.getTime();
    const steps = this.settings.stepDelayMs === 0 ? path.length : Math.floor(elapsed / this.settings.stepDelayMs);
    return { status: path[Math.min(1 + Math.max(0, steps), path.length - 1)]! };
  }

  /** The simulator has no documents of its own: every proof is printed by us. */
  async proof(): Promise<undefined> {
    return undefined;
  }
}
