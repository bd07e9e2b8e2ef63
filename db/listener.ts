import pg from 'pg';
import { logger } from '../lib/logger.js';
import { postgresConnection } from './connection.js';

export interface ChannelListener {
  /** True while notifications arrive: a cache may keep what it reads only then. */
  readonly listening: boolean;
  stop(): Promise<void>;
}

export interface ChannelHandlers {
  /** One notification's payload. */
  notify(payload: string): void;
  /** The connection was lost or (re)established: what was cached may have changed unseen. */
  reset(): void;
}

/**
 * LISTENs on a Postgres channel over a connection of its own, and comes back by itself (after
 * 1 s) when the connection drops. Caches of the API processes rely on it: a change committed
 * anywhere is announced to every process within milliseconds.
 */
export async function listenTo(databaseUrl: string, channel: string, handlers: ChannelHandlers): Promise<ChannelListener> {
  let client: pg.Client | undefined;
  let stopped = false;
  const state = { listening: false };

  async function connect(): Promise<void> {
    const current = new pg.Client(postgresConnection(databaseUrl, 'listener'));
    const lost = (): void => {
      // 'error' and then 'end' both come when a connection drops: one reconnection, not two.
      if (client !== current) return;
      client = undefined;
      state.listening = false;
      handlers.reset();
      if (stopped) return;
      setTimeout(() => {
        if (!stopped) void connect().catch((error: unknown) => logger.warn({ err: error, channel }, 'listener failed'));
      }, 1000);
    };
    current.on('error', lost);
    current.on('end', lost);
    current.on('notification', (message) => handlers.notify(message.payload ?? ''));
    client = current;
    await current.connect();
    await current.query(`LISTEN ${channel}`);
    handlers.reset();
    state.listening = true;
  }

  await connect();
  return {
    get listening() {
      return state.listening;
    },
    async stop() {
      stopped = true;
      state.listening = false;
      await client?.end().catch(() => undefined);
    },
  };
}
