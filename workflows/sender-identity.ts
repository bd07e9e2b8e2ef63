import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { SenderCall } from '../domain/developers/port.js';
import type { ElectronicSender, SenderAccount } from '../domain/mailings/electronic.js';

/** The provider's refusal for good (activities/lre/electronic-provider.ts): its name is the failure's type. */
const REJECTED = 'ProviderRejectedError';

// A developer waits on the page: a few quick attempts (AR24's maintenance answer, a 5xx), within the run's minute.
const provider = proxyActivities<Activities>({
  startToCloseTimeout: '20s',
  scheduleToCloseTimeout: '50s',
  retry: { maximumAttempts: 4, initialInterval: '500ms', maximumInterval: '5s', nonRetryableErrorTypes: [REJECTED] },
});

/** The provider's refusal as an answer (the page says it), any other failure as the run's. */
async function answered(call: () => Promise<SenderAccount>): Promise<SenderCall> {
  try {
    return { kind: 'done', account: await call() };
  } catch (error) {
    if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === REJECTED)
      return { kind: 'refused', reason: error.cause.message };
    throw error;
  }
}

/** The developer space's "Demander la vérification": the sender user created when missing, and its identity check asked. */
export async function senderIdentityRequest(sender: ElectronicSender): Promise<SenderCall> {
  return answered(() => provider.requestSenderIdentityCheck(sender));
}

/** The developer space's page opened: the sender user as the provider sees it now. */
export async function senderIdentityRead(sender: ElectronicSender): Promise<SenderCall> {
  return answered(() => provider.readSenderIdentity(sender));
}
