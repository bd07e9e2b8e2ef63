import type { Db } from '../db/knex.js';
import type { Mailer } from '../lib/mailer.js';
import { logger } from '../lib/logger.js';
import { claimEmails, dropEmail, emailFailed, OUTBOX_MAX_ATTEMPTS } from '../domain/developers/outbox.js';

/** How often due emails are looked for (retries, and those their own process did not send). */
const POLL_MS = 5000;

/**
 * Sends the developer space's queued emails: each one right after the answer of the request that
 * queued it (`sendSoon`), and every few seconds whatever is due (retries, or an email whose process
 * died first), from any API process. A failure is logged and retried; the last one is logged as an
 * error: no email is dropped unseen.
 */
export class OutboxSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly mailer: Mailer,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sendSoon(), POLL_MS);
    this.timer.unref();
  }

  /** Sends the emails `ids` (queued here), or what is due, after any run under way (one run at a time per process). */
  sendSoon(ids?: string[]): void {
    if (this.stopped) return;
    this.running = this.running.then(() => this.run(ids)).catch((error: unknown) => logger.warn({ err: error }, 'developer space outbox: run failed'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async run(ids?: string[]): Promise<void> {
    for (;;) {
      const due = await claimEmails(this.db, this.key, 10, ids);
      if (due.length === 0) return;
      for (const { id, attempts, email } of due) {
        if (!email) {
          logger.error({ outboxId: id }, 'developer space outbox: an email sealed with another SECRET_KEY is dropped');
          await dropEmail(this.db, id);
          continue;
        }
        try {
          await this.mailer.send(email);
          await dropEmail(this.db, id);
        } catch (error) {
          // No address: an email is personal data, and the outbox id finds the message.
          const context = { err: error, outboxId: id, subject: email.subject, attempts };
          if (attempts >= OUTBOX_MAX_ATTEMPTS) {
            logger.error(context, 'developer space outbox: email given up after its last attempt');
            await dropEmail(this.db, id);
          } else {
            logger.warn(context, 'developer space outbox: email not sent, retried later');
            await emailFailed(this.db, id, attempts, String((error as Error).message ?? error));
          }
        }
      }
      if (this.stopped || ids) return;
    }
  }
}
