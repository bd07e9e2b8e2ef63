import type { ElectronicSender, SenderAccount } from '../mailings/electronic.js';
import type { ShortWorkflowRunner } from '../short-workflows.js';

/** What the provider answered about a sender: its account there, or its refusal for good (e.g. a field it will not take). */
export type SenderCall = { kind: 'done'; account: SenderAccount } | { kind: 'refused'; reason: string };

/** The sender identity's calls to the electronic registered letter provider LRE_PROVIDER names (workflows/sender-identity.ts). */
export interface SenderWorkflows {
  /** The sender user, created when missing, and its identity check asked (idempotent at the provider). */
  senderIdentityRequest(sender: ElectronicSender): Promise<SenderCall>;
  /** The sender user as the provider sees it now (AR24: `is_identity_verified`). */
  senderIdentityRead(sender: ElectronicSender): Promise<SenderCall>;
}

/** The sender workflows as the domain runs them (temporal/short-workflows.ts). */
export type SenderPort = ShortWorkflowRunner<SenderWorkflows>;
