import type { PostalAddress } from '../../domain/catalogue/catalogue.js';
import type { OperatorNews, OperatorReference } from '../../domain/mailings/projection.js';
import type { Mode, ProofKind } from '../../domain/mailings/states.js';
import type { PostageSpeed } from '../../domain/mailings/postage.js';
import type { ReturnedMail } from '../../domain/mailings/returned-mail.js';

export interface Filing {
  shipmentId: string;
  mode: Mode;
  trackingNumber: string;
  /** The printed letter, A4 PDF. */
  pdf: Uint8Array;
  title: string;
  sender: PostalAddress;
  recipient: PostalAddress;
  /** As the request gave them (postage: a simple letter's speed, absent: fast). */
  options: { color?: boolean; duplex?: boolean; postage?: PostageSpeed; returnedMail?: ReturnedMail };
}

/** The operator certainly did not take the letter (it refused or could not be reached before sending). */
export class OperatorUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorUnavailableError';
  }
}

/** The operator refuses this letter for good (a 4xx of a real operator, an address it rejects): retrying cannot help. */
export class OperatorRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorRejectedError';
  }
}

/** The operator has the letter but has not said yet whether it takes it: asked again later, the letter stays its. */
export class OperatorPendingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorPendingError';
  }
}

/** Where an operator keeps what it calls a letter (its sending and recipient ids), in our projection. */
export interface OperatorRecords {
  reference(mailingId: string): Promise<OperatorReference>;
  remember(mailingId: string, reference: Partial<OperatorReference>): Promise<void>;
}

/**
 * What the service needs from a postal operator: the bundled simulator, or Maileva
 * (docs/operators.md says how to add another behind the same interface).
 */
export interface PostalOperator {
  /** Kept with each letter it takes (shipments.operator): its tracking and proofs are asked of it. */
  readonly name: 'simulator' | 'maileva';
  /**
   * Hands a letter over. Idempotent on the mailing id: a retried filing never sends twice.
   * Resolves once the operator has taken the letter for good. Throws while it has not:
   * OperatorUnavailableError when the letter was certainly not taken, OperatorPendingError when
   * the operator has it but not yet accepted it, any other error when that is unknown;
   * OperatorRejectedError when it will never take this letter.
   */
  file(filing: Filing): Promise<void>;
  /**
   * What the operator reports for a filed letter, asked now (it never waits): the workflow asks
   * again later while nothing changes, without holding a worker slot meanwhile.
   */
  trackingStatus(mailingId: string, mode: Mode): Promise<OperatorNews>;
  /** The operator's own document for a proof (deposit proof, AR scan), or undefined: then we print ours. */
  proof(mailingId: string, mode: Mode, kind: ProofKind): Promise<Uint8Array | undefined>;
}
