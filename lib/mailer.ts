import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from './config.js';
import { logger } from './logger.js';

export interface Email {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
  close(): void;
}

/**
 * Email through nodemailer: to SMTP_URL when set; otherwise each message is written as an .eml file
 * to the outbox folder (DATA_DIR/outbox) and logged, so a local run needs no mail server.
 */
export function createMailer(config: Config): Mailer {
  const { smtpUrl, from, outboxDir } = config.mail;
  if (!smtpUrl && config.appEnv !== 'local') logger.warn('SMTP_URL is not set: the developer space writes its emails to the outbox folder only');
  const transport: Transporter = smtpUrl
    ? nodemailer.createTransport(smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(email) {
      // Plain text in base64: links survive intact (no quoted-printable line breaks inside them).
      const info = await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.text, textEncoding: 'base64' });
      if (smtpUrl) return;
      mkdirSync(outboxDir, { recursive: true });
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
      writeFileSync(file, (info as { message: Buffer }).message);
      // Locally the log shows the message (its links): the developer's own machine. Deployed, only the file: an address is personal data.
      if (config.appEnv === 'local') logger.info({ to: email.to, subject: email.subject, file }, `email written to the outbox\n${email.text}`);
      else logger.info({ subject: email.subject, file }, 'email written to the outbox');
    },
    close() {
      transport.close();
    },
  };
}
