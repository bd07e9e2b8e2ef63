import type { Db } from '../../db/knex.js';
import type { OperatorNews } from '../../domain/mailings/projection.js';
import { addressLines } from '../../domain/mailings/mailing.js';
import { PATHS, type Mode, type ProofKind } from '../../domain/mailings/states.js';
import { simulatorDocument } from './simulator-documents.js';
import { OperatorRejectedError, OperatorUnavailableError, type Filing, type PostalOperator } from './postal-operator.js';
import { pdfPageCount } from '../pdf.js';
import { mailevaOptionFields } from './maileva-options.js';

export interface SimulatorSettings {
  /** Time between two automatic steps (OPERATOR_STEP_DELAY). */
  stepDelayMs: number;
  /** The first n filing attempts of each mailing fail (OPERATOR_FAIL_FIRST_FILINGS). */
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
      .update({
        filed_at: this.db.fn.now(),
        pages,
        pdf: Buffer.from(filing.pdf),
        // What its documents show (see proof).
        tracking_number: filing.trackingNumber,
        sender_lines: addressLines(filing.sender),
        recipient_lines: addressLines(filing.recipient),
        // The operator's options it was asked (docs/operators.md): accepted as Maileva accepts them.
        options: JSON.stringify(simulatorOptions(filing)),
      });
  }

  /**
   * Like a real operator's tracking: the letter is `printed` when filed and moves one step along
   * its mode's path every stepDelayMs after that, by the operator's own clock.
   */
  async trackingStatus(mailingId: string, mode: Mode): Promise<OperatorNews> {
    const row = (await this.db('operator_filings').where({ shipment_id: mailingId }).first('filed_at')) as { filed_at: Date | null } | undefined;
    if (!row?.filed_at) throw new Error(`shipment ${mailingId} was never filed with the operator`);
    const path = PATHS[mode];
    const elapsed = Date.now() - row.filed_at.getTime();
    const steps = this.settings.stepDelayMs === 0 ? path.length : Math.floor(elapsed / this.settings.stepDelayMs);
    return { status: path[Math.min(1 + Math.max(0, steps), path.length - 1)]! };
  }

  /**
   * Like Maileva: its own deposit proof for a registered or AR letter, its own signed acknowledgment
   * for an AR letter (signed when its path reaches `delivered`, by the operator's clock); nothing for
   * a simple letter or a return, whose proofs we print. A letter taken before it kept what its
   * documents show has none either.
   */
  async proof(mailingId: string, mode: Mode, kind: ProofKind): Promise<Uint8Array | undefined> {
    const documentKind =
      mode === 'simple' ? undefined : kind === 'filing' ? 'deposit_proof' : kind === 'delivery' && mode === 'ar' ? 'acknowledgment' : undefined;
    if (!documentKind) return undefined;
    const row = (await this.db('operator_filings')
      .where({ shipment_id: mailingId })
      .first('filed_at', 'pages', 'tracking_number', 'sender_lines', 'recipient_lines')) as FiledLetter | undefined;
    if (!row?.filed_at || !row.tracking_number) return undefined;
    const deliveredAfterSteps = PATHS[mode].indexOf('delivered') - 1;
    return simulatorDocument({
      kind: documentKind,
      mode,
      trackingNumber: row.tracking_number,
      senderLines: row.sender_lines ?? [],
      recipientLines: row.recipient_lines ?? [],
      ...(documentKind === 'deposit_proof'
        ? { at: row.filed_at, ...(row.pages === null ? {} : { pages: row.pages }) }
        : { at: new Date(row.filed_at.getTime() + deliveredAfterSteps * this.settings.stepDelayMs) }),
    });
  }
}

/** The operator's options of a filing as the simulator records them (`operator_filings.options`), with Maileva's field names. */
export function simulatorOptions(filing: Pick<Filing, 'mode' | 'options'>): Record<string, unknown> {
  return mailevaOptionFields(filing);
}

/** What the simulator's documents are made from (operator_filings). */
interface FiledLetter {
  filed_at: Date | null;
  pages: number | null;
  tracking_number: string | null;
  sender_lines: string[] | null;
  recipient_lines: string[] | null;
}
