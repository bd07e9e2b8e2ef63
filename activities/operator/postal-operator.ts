import type { Mode, ShipmentStatus } from '../../domain/mailings/states.js';

export interface Filing {
  shipmentId: string;
  mode: Mode;
  trackingNumber: string;
  /** The printed letter, A4 PDF. */
  pdf: Uint8Array;
}

/** The operator certainly did not take the letter (it refused or could not be reached before sending). */
export class OperatorUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorUnavailableError';
  }
}

/** The operator refuses this letter for good (a 4xx of a real operator): retrying cannot help. */
export class OperatorRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorRejectedError';
  }
}

/**
 * What the service needs from a postal operator. The bundled implementation is a simulator; a
 * real operator plugs in behind the same interface.
 */
export interface PostalOperator {
  /**
   * Hands a letter over. Idempotent on the shipment id: a retried filing never sends twice.
   * Throws while the operator does not confirm (the activity is retried): OperatorUnavailableError
   * when the letter was certainly not taken, any other error when that is unknown;
   * OperatorRejectedError when it will never take this letter.
   */
  file(filing: Filing): Promise<void>;
  /**
   * The latest status the operator reports for a filed letter, asked now (it never waits): the
   * workflow asks again later while nothing changes, without holding a worker slot meanwhile.
   */
  trackingStatus(shipmentId: string, mode: Mode): Promise<ShipmentStatus>;
}
