import type { Db } from '../db/knex.js';
import { breakerStates, type BreakerPartner, type BreakerState } from './lookups/breaker.js';

/** What the health check asks of Temporal (temporal/health.ts). */
export interface HealthPort {
  /**
   * When a worker last polled the main task queue (null: none known to the server), read from the
   * server without running anything. Rejects when Temporal cannot be reached.
   */
  lastWorkerPoll(): Promise<Date | null>;
}

/** GET /health: which of our components answer. Says which is down, never why (no addresses, no driver messages). */
export interface Health {
  status: 'ok' | 'degraded';
  /** When these figures were measured (they are shared for a few seconds). */
  checkedAt: string;
  postgres: { ok: boolean; latencyMs: number };
  temporal: { ok: boolean; latencyMs: number };
  /** A worker polled the main task queue recently. */
  worker: { ok: boolean; lastPollAt?: string };
  /** This process's circuit breaker of each partner (not part of status: partners are not ours). */
  partners: Record<BreakerPartner, { state: BreakerState }>;
}

/**
 * GET /ready: whether this API process can serve requests, which needs its database alone. Reads and
 * most routes need nothing else; what needs Temporal answers 503 on its own while Temporal is away,
 * so a Temporal outage must not take every API process out of its Service (GET /health says that).
 */
export interface Readiness {
  status: 'ready' | 'unready';
  checkedAt: string;
  postgres: { ok: boolean; latencyMs: number };
}

/** A check is answered to every caller for this long: a flood of /health costs one check per period. */
export const HEALTH_CACHE_MS = 3000;

/** How long `SELECT 1` may take. */
const POSTGRES_DEADLINE_MS = 1500;

/**
 * A worker that has not polled for this long is taken as gone. An idle worker's long polls last up
 * to a minute on the server, so a live worker always polls more often than this.
 */
export const WORKER_SILENCE_MS = 90_000;

async function timed<T>(work: () => Promise<T>, deadlineMs?: number): Promise<{ ok: boolean; latencyMs: number; value?: T }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline =
      deadlineMs === undefined
        ? undefined
        : new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('deadline exceeded')), deadlineMs);
          });
    const value = await (deadline ? Promise.race([work(), deadline]) : work());
    return { ok: true, latencyMs: Math.round(performance.now() - started), value };
  } catch {
    // Why it failed is for the logs of the calls that fail, not for a public page.
    return { ok: false, latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The health of Postgres (`SELECT 1`), Temporal (its poller list for the main task queue) and the
 * worker (a poll seen recently), measured at most once per HEALTH_CACHE_MS per process: callers in
 * that window share the result, or the check under way. Nothing is started in Temporal.
 */
export class HealthCheck {
  private last: { at: number; result: Promise<Health> } | undefined;
  private lastReadiness: { at: number; result: Promise<Readiness> } | undefined;

  constructor(private readonly deps: { db: Db; workflows: { health: HealthPort } }) {}

  check(now = Date.now()): Promise<Health> {
    if (this.last && now - this.last.at < HEALTH_CACHE_MS) return this.last.result;
    const result = this.measure();
    this.last = { at: now, result };
    return result;
  }

  /** This process's readiness: its database answers `SELECT 1` (shared for HEALTH_CACHE_MS too). */
  readiness(now = Date.now()): Promise<Readiness> {
    if (this.lastReadiness && now - this.lastReadiness.at < HEALTH_CACHE_MS) return this.lastReadiness.result;
    const result = timed(() => this.deps.db.raw('SELECT 1'), POSTGRES_DEADLINE_MS).then((postgres): Readiness => ({
      status: postgres.ok ? 'ready' : 'unready',
      checkedAt: new Date().toISOString(),
      postgres: { ok: postgres.ok, latencyMs: postgres.latencyMs },
    }));
    this.lastReadiness = { at: now, result };
    return result;
  }

  private async measure(): Promise<Health> {
    const { db, workflows } = this.deps;
    const [postgres, temporal] = await Promise.all([timed(() => db.raw('SELECT 1'), POSTGRES_DEADLINE_MS), timed(() => workflows.health.lastWorkerPoll())]);
    const lastPoll = temporal.value ?? null;
    const worker = {
      ok: lastPoll !== null && Date.now() - lastPoll.getTime() < WORKER_SILENCE_MS,
      ...(lastPoll ? { lastPollAt: lastPoll.toISOString() } : {}),
    };
    return {
      status: postgres.ok && temporal.ok && worker.ok ? 'ok' : 'degraded',
      checkedAt: new Date().toISOString(),
      postgres: { ok: postgres.ok, latencyMs: postgres.latencyMs },
      temporal: { ok: temporal.ok, latencyMs: temporal.latencyMs },
      worker,
      partners: Object.fromEntries(Object.entries(breakerStates()).map(([partner, { state }]) => [partner, { state }])) as Health['partners'],
    };
  }
}
