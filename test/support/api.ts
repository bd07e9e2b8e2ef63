import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { stack } from './stack.js';
import { createApiKey } from '../../domain/access/keys.js';
import { SCOPES, type KeyMode, type Scope } from '../../domain/access/scopes.js';
import { topUp } from '../../domain/billing/ledger.js';
import { freePort } from '../../lib/net/ports.js';
import { createAccount as createDomainAccount } from '../../domain/access/accounts.js';
import { spawnNode } from './processes.js';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { mailingWorkflowId } from '../../workflows/contract.js';
import { freeLetter, recipient, sender } from './fixtures.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is (a string or bytes), for malformed and oversized bodies. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  baseUrl?: string;
}

export async function call<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch((options.baseUrl ?? stack().api.url) + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (PDF, HTML): keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export interface TestAccount {
  id: string;
  testKey: string;
  liveKey: string;
}

/** A fresh account with a test key and a live key, created through the same functions as the admin CLI. */
/** `aiEnabled`: the account has turned the AI features on (a new account has them off, as in production). */
export async function createAccount(
  options: { liveEnabled?: boolean; balanceCents?: number; scopes?: Scope[]; name?: string; aiEnabled?: boolean } = {},
): Promise<TestAccount> {
  const { db } = stack();
  const row = await createDomainAccount(db, { name: options.name ?? 'test account', liveEnabled: options.liveEnabled ?? true });
  if (options.aiEnabled) await db('accounts').where({ id: row.id }).update({ ai_enabled_at: db.fn.now(), ai_enabled_by: 'test setup' });
  const scopes = options.scopes ?? [...SCOPES];
  const test = await createApiKey(db, row.id, 'test', scopes);
  const live = await createApiKey(db, row.id, 'live', scopes);
  if (options.balanceCents) await topUp(db, row.id, options.balanceCents, 'test setup');
  return { id: row.id, testKey: test.key, liveKey: live.key };
}

export async function createKey(accountId: string, mode: KeyMode, scopes: Scope[]): Promise<string> {
  return (await createApiKey(stack().db, accountId, mode, scopes)).key;
}

/** Uses up the account's free monthly quota of data lookups and calculations. */
export async function exhaustFreeQuota(accountId: string): Promise<void> {
  const { db } = stack();
  await db.raw(
    `INSERT INTO usage_counters (account_id, period, count) VALUES (?, to_char(now() AT TIME ZONE 'Europe/Paris', 'YYYY-MM'), 500)
     ON CONFLICT (account_id, period) DO UPDATE SET count = 500`,
    [accountId],
  );
}

export async function balanceOf(accountId: string): Promise<number> {
  const row = await stack().db('accounts').where({ id: accountId }).first('balance_cents');
  return Number(row.balance_cents);
}

/** A small valid expense group: the cheapest paid POST of the API. */
export function expenseGroup(amountCents = 3000): unknown {
  return { members: [{ id: 'ana' }, { id: 'ben' }, { id: 'cyd' }], expenses: [{ amountCents, paidBy: 'ana' }] };
}

export interface ApiProcess {
  url: string;
  output: () => string;
  stop(): Promise<void>;
  /** SIGKILL: gone at once, with whatever it was answering. */
  kill(): Promise<void>;
}

/** A separate API process (dist/server/main.js) on the test stack's Postgres and Temporal. */
export async function spawnApiProcess(env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawnNode('server', { PORT: String(port), ...env }, 'pipe');
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('API process exited: ' + output);
    try {
      await fetch(url + '/v1/openapi.json');
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('API process did not start: ' + output);
      await sleep(100);
    }
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Waits, if needed, so that a burst of requests stays inside one rate-limit minute. */
export async function awayFromMinuteBoundary(seconds = 10): Promise<void> {
  const intoMinute = (Date.now() / 1000) % 60;
  if (intoMinute > 60 - seconds) await sleep((60 - intoMinute + 0.2) * 1000);
}

/**
 * Repeats `probe` until `accept` holds, for changes made outside the API (admin CLI, SQL) that API
 * processes learn through the auth_changed notification: milliseconds, bounded here at 2 s.
 */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 2000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!accept(value) && Date.now() < deadline) {
    await sleep(intervalMs);
    value = await probe();
  }
  return value;
}

/**
 * An API process, and a worker started when the test says, on their own task queue with their
 * own knobs (e.g. an operator that refuses every filing). Stopping is graceful: a worker that
 * does not exit within 15 s of SIGTERM is killed, and that is reported as a failure.
 */
export class IsolatedServices {
  api!: ApiProcess;
  worker: ChildProcess | undefined;

  /** `apiEnv`: settings of the API process alone (e.g. its METRICS_PORT, which a worker would also bind). */
  constructor(
    private readonly env: Record<string, string>,
    private readonly apiEnv: Record<string, string> = {},
  ) {}

  async start(): Promise<this> {
    this.api = await spawnApiProcess({ ...this.env, ...this.apiEnv });
    return this;
  }

  startWorker(): ChildProcess {
    this.worker = spawnNode('worker', this.env);
    return this.worker;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    let killed = false;
    if (worker && worker.exitCode === null && worker.signalCode === null) {
      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      const killer = setTimeout(() => {
        killed = true;
        worker.kill('SIGKILL');
      }, 15_000);
      await exited;
      clearTimeout(killer);
    }
    await this.api.stop();
    if (killed) throw new Error('the worker did not stop within 15 s of SIGTERM');
  }

  /** A mailing created through this API process. */
  mail(key: string, mode = 'simple'): Promise<ApiResponse> {
    return call('POST', '/v1/mailings', { key, body: { mode, letter: freeLetter, sender, recipient }, baseUrl: this.api.url });
  }
}

/**
 * A mailing's workflow once it exists: POST /v1/mailings answers as soon as the mailing is
 * recorded, and its workflow starts right after (docs/decisions.md), a few milliseconds later.
 */
export async function startedMailingWorkflow(mailingId: string, client: Client = stack().temporal.client, timeoutMs = 10_000): Promise<WorkflowHandle> {
  const handle = client.workflow.getHandle(mailingWorkflowId(mailingId));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await handle.describe();
      return handle;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError) || Date.now() > deadline) throw error;
      await sleep(25);
    }
  }
}

/** Posts a simple free-form letter with `key` and gives the mailing's id (anything but 201 throws, with the answer). */
export async function postSimpleLetter(baseUrl: string, key: string): Promise<string> {
  const created = await call('POST', '/v1/mailings', { baseUrl, key, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
  if (created.status !== 201) throw new Error(`POST /v1/mailings answered ${created.status}: ${created.text}`);
  return created.body.id as string;
}
