import { pino } from 'pino';
import { logLevel } from './config.js';

/** One structured logger; API keys, secrets and signatures are redacted wherever they appear. */
export const logger = pino({
  level: logLevel(),
  base: { service: 'svc-postal-api' },
  redact: {
    paths: ['req.headers.authorization', '*.authorization', '*.secret', '*.key', '*.apiKey', '*.password'],
    censor: '[redacted]',
  },
});
