import type { LogLevel, LogMetadata, Logger } from '@temporalio/worker';
import { logger } from '../lib/logger.js';

const PINO_LEVEL = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/**
 * The Temporal SDK's log lines (its TypeScript side and, forwarded, its native core) as our JSON
 * lines through pino, with the process's role and `component: "temporal-sdk"`, instead of the
 * SDK's own plain text on stderr: one format for the log store to parse. The SDK's level is
 * TEMPORAL_LOG_LEVEL, apart from LOG_LEVEL.
 */
export class SdkLogger implements Logger {
  private readonly lines;

  constructor(level: LogLevel) {
    this.lines = logger.child({ component: 'temporal-sdk' }, { level: PINO_LEVEL[level] });
  }

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    // Every activity-only worker (tracking, partners) is told so at start: expected here.
    if (message.startsWith('No workflows registered')) return;
    const { error, ...rest } = (meta ?? {}) as LogMetadata & { error?: unknown };
    // pino serialises an error under `err` only.
    const fields = error === undefined ? rest : { ...rest, err: error };
    this.lines[PINO_LEVEL[level]](fields, message);
  }

  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }

  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }

  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }

  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }

  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}
