import type { ElectronicNews, ElectronicProofKind, ElectronicSender, ElectronicSending, SenderAccount } from '../../domain/mailings/electronic.js';

/** The provider certainly did not take the letter (it refused before doing anything, was in maintenance, or could not be reached before sending). */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/** The provider refuses this letter for good (an address it rejects, a sender it will not let send): retrying cannot help. */
export class ProviderRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderRejectedError';
  }
}

/** The provider has the letter but has not deposited it yet: asked again later, the letter stays its. */
export class ProviderPendingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderPendingError';
  }
}

// Plain data, the domain's (the sender identity's records read it too).
export type { SenderAccount } from '../../domain/mailings/electronic.js';

/**
 * What the service needs from a qualified electronic registered letter provider: the bundled
 * simulator, or AR24 (docs/electronic-registered-letters.md). Any other error than the three
 * above means "unknown": the letter may or may not be the provider's, and a retried send finds it.
 */
export interface ElectronicProvider {
  readonly name: 'simulator' | 'ar24';
  /** The provider's sender user for one of our accounts, created when it has none; and its identity check's state. */
  ensureSender(sender: ElectronicSender): Promise<SenderAccount>;
  /** Asks the provider to verify the sender's identity (AR24 posts a paper letter with its OTP key). Idempotent. */
  requestIdentityCheck(sender: ElectronicSender): Promise<SenderAccount>;
  /**
   * Sends one letter. Idempotent on the mailing id: a retried send (after a timeout, a worker
   * killed mid-call, the provider's maintenance answer) finds the earlier one by our reference
   * first, and never makes two. Resolves with the deposit once the provider holds it; throws
   * ProviderUnavailableError / ProviderPendingError / ProviderRejectedError as their names say.
   */
  send(sending: ElectronicSending): Promise<ElectronicNews>;
  /** What the provider reports now (never waits); the workflow asks again later. */
  status(mailingId: string): Promise<ElectronicNews>;
  /** The provider's own PDF of one proof (throws when it has none of that kind yet). */
  proof(mailingId: string, kind: ElectronicProofKind): Promise<Uint8Array>;
  /**
   * The mailing a provider's callback is about, or undefined when it names none of ours. Only a
   * hint: the workflow reads the state again with status().
   */
  callbackMailing(body: unknown): Promise<string | undefined>;
}
