import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { distRoot } from '../lib/paths.js';
import { freePort } from '../lib/net/ports.js';
import { freeLetter, recipient, sender } from '../test/support/fixtures.js';
import type { BenchDeps } from './deps.js';
import { memoryOf } from './memory.js';
import type { Report } from './report.js';
import { checkAnswers, generateLoad, sampleAnswers, ScenarioFailed, startProcess, steadyLoad, stopProcess, type LoadOptions } from './support.js';
import { middle, pairedRatio, roundRatios } from './stats.js';
import { freshNamespace } from './namespaces.js';

type RoundNamespace = Awaited<ReturnType<typeof freshNamespace>>;
import { mailingWorkflowId } from '../workflows/contract.js';
import { GeocoderStandIn } from './geocoder-stand-in.js';

const body = JSON.stringify({ mode: 'ar', letter: freeLetter, sender, recipient });

/**
 * A mailing as created: paid, and its recipient's address checked. An address check that missed its
 * deadline (no worker answering the lookup) leaves a warning: that run measured the deadline, not
 * the intake, and fails.
 */
export function createdMailingProblem(text: string): string | undefined {
  const mailing = JSON.parse(text) as { status?: string; warnings?: { code: string }[] };
  if (mailing.status !== 'paid') return 'not a paid mailing';
  if (mailing.warnings?.length) return `warnings: ${mailing.warnings.map((w) => w.code).join(', ')}`;
  return undefined;
}

/** One mailing posted (the bench's AR letter unless another body is given), its answer checked; its id. */
export async function postMailing(url: string, headers: Record<string, string>, mailing: string = body): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers, body: mailing });
  const text = await res.text();
  const problem = res.status === 201 ? createdMailingProblem(text) : `status ${res.status}`;
  if (problem) throw new ScenarioFailed(`POST /v1/mailings answered ${problem}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { id: string }).id;
}
const SECONDS = 8;
const CONCURRENCY = 20;
const ROUNDS = 3;
/** Past this wait after the load, mailings answered without a started workflow fail the scenario. */
const STARTS_DEADLINE_MS = 60_000;

/** Workflows started on a queue, as Temporal's visibility shows them (a scan: asked once a second at most). */
async function startedOn(client: Client, taskQueue: string): Promise<number> {
  return (await client.workflow.count(`TaskQueue = "${taskQueue}"`)).count;
}

/** Waits until Temporal's visibility shows `expected` workflows on the queue, or fails naming the missing. */
async function allVisible(client: Client, taskQueue: string, expected: number, what: string): Promise<void> {
  const deadline = performance.now() + STARTS_DEADLINE_MS;
  for (;;) {
    const count = await startedOn(client, taskQueue);
    if (count >= expected) return;
    if (performance.now() > deadline)
      throw new ScenarioFailed(`${what}: ${expected - count} of ${expected} had no workflow started ${STARTS_DEADLINE_MS / 1000} s after the load`);
    await sleep(1000);
  }
}

/** Waits until one mailing's workflow exists (a point read, cheap enough to ask every 10 ms); the time it did. */
export async function started(client: Client, mailingId: string, deadlineMs = STARTS_DEADLINE_MS): Promise<number> {
  const handle = client.workflow.getHandle(mailingWorkflowId(mailingId));
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    if (
      await handle.describe().then(
        () => true,
        () => false,
      )
    )
      return performance.now();
    if (performance.now() > deadline) throw new ScenarioFailed(`the workflow of mailing ${mailingId} did not start`);
    await sleep(10);
  }
}

/**
 * POST /v1/mailings for `seconds` (20 connections), counted when each mailing's workflow has
 * started, not when the API answered: it starts the workflows of answered mailings in the order it
 * answered them, so one more mailing posted at the end is started last, and the load is done when
 * its workflow exists. Until then the answers run ahead of the starts (DESIGN.md §1).
 */
export async function intakeRate(
  client: Client,
  request: { url: string; headers: Record<string, string>; body: string },
  seconds: number,
): Promise<{ answered: number; perSecond: number; answeredPerSecond: number }> {
  const begun = performance.now();
  const figures = await generateLoad({ kind: 'closed', ...request, method: 'POST', connections: CONCURRENCY, durationSeconds: seconds });
  const { statuses } = checkAnswers({ name: 'intake', ...figures }, 201);
  const answered = statuses['201']!;
  const done = await started(client, await postMailing(request.url, request.headers, request.body));
  return { answered, perSecond: answered / ((done - begun) / 1000), answeredPerSecond: answered / seconds };
}

/**
 * The API's intake, counted when each mailing's workflow has started (not when the API answered):
 * a fresh API process on a fresh queue no worker polls, warmed up, then SECONDS of POST /v1/mailings
 * (20 connections). The API starts the workflows of answered mailings in the order it answered
 * them: one more mailing posted at the end is started last, so the load is done when its workflow
 * exists. The rate is the mailings answered over that time; Temporal's visibility must then show
 * every one of them.
 */
async function intakeRound(deps: BenchDeps, env: Record<string, string>, round: RoundNamespace): Promise<{ perSecond: number; answeredPerSecond: number }> {
  const { client } = round;
  const port = await freePort();
  const taskQueue = `bench-intake-${randomUUID()}`;
  const api = await startProcess(
    join(distRoot, 'server', 'main.js'),
    { ...env, PORT: String(port), TEMPORAL_TASK_QUEUE: taskQueue, TEMPORAL_NAMESPACE: round.namespace },
    `http://127.0.0.1:${port}/v1/openapi.json`,
  );
  try {
    const options: LoadOptions = {
      url: `http://127.0.0.1:${port}/v1/mailings`,
      method: 'POST',
      headers: { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' },
      body,
      expect: { status: 201, body: createdMailingProblem },
    };
    await sampleAnswers('intake', options);
    const warm = await generateLoad({
      kind: 'closed',
      url: options.url,
      method: 'POST',
      headers: options.headers,
      body,
      connections: CONCURRENCY,
      durationSeconds: 1,
    });
    await started(client, await postMailing(options.url, options.headers!));
    const before = 5 + warm.total + 1;
    const rate = await intakeRate(client, { url: options.url, headers: options.headers!, body }, SECONDS);
    await allVisible(client, taskQueue, before + rate.answered + 1, 'intake');
    return rate;
  } finally {
    await stopProcess(api);
  }
}

/**
 * Posts until a mailing is created with its address checked (paid, no warning): the worker may still
 * be bundling its workflows, and a late answer fills the address cache for the next try.
 */
export async function firstCheckedMailing(url: string, headers: Record<string, string>, mailing: () => string = () => body): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await postMailing(url, headers, mailing());
      return;
    } catch (error) {
      if (!(error instanceof ScenarioFailed) || attempt === 10) throw error;
      await sleep(1000);
    }
  }
}

/**
 * The measured API processes start workflows on queues no worker polls, so the recipient's address
 * check could not be answered there (it would wait for its deadline, and the answers would fail).
 * One mailing through an API and a worker first: its answer is cached, as for a sender who mails the
 * same recipients again, and each round's API reads it from the cache.
 */
async function checkAddressOnce(deps: BenchDeps, env: Record<string, string>): Promise<void> {
  const port = await freePort();
  const queueEnv = { ...env, PORT: String(port), TEMPORAL_TASK_QUEUE: `bench-intake-address-${randomUUID()}` };
  const ready = `http://127.0.0.1:${port}/v1/openapi.json`;
  const api = await startProcess(join(distRoot, 'server', 'main.js'), queueEnv, ready);
  const worker = await startProcess(join(distRoot, 'worker', 'main.js'), queueEnv, ready);
  const headers = { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' };
  try {
    await firstCheckedMailing(`http://127.0.0.1:${port}/v1/mailings`, headers);
  } finally {
    await stopProcess(worker);
    await stopProcess(api);
  }
}

/** The baseline: bare starts of the mailing workflow from a fresh process (bench/bare-starts.ts), done when every start is acknowledged. */
async function bareRound(deps: BenchDeps, round: RoundNamespace): Promise<number> {
  const taskQueue = `bench-bare-${randomUUID()}`;
  const child = fork(join(distRoot, 'bench', 'bare-starts.js'), [], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: deps.temporalAddress,
      TEMPORAL_NAMESPACE: round.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      SECONDS: String(SECONDS),
      CONCURRENCY: String(CONCURRENCY),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const [{ warm }] = (await once(child, 'message')) as [{ warm: number }];
    const begun = performance.now();
    child.send('go');
    const [{ started: count }] = (await once(child, 'message')) as [{ started: number }];
    const done = performance.now();
    await allVisible(round.client, taskQueue, warm + count, 'bare starts');
    return count / ((done - begun) / 1000);
  } finally {
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/**
 * Intake against bare starts: one round of each not counted, then ROUNDS alternating (bare, API, bare, API…), each round's ratio; then the
 * p99 of POST /v1/mailings at half that rate, evenly spaced and at random (Poisson), each on a
 * fresh API process.
 */
export async function benchIntake(deps: BenchDeps, env: Record<string, string>, report: Report): Promise<void> {
  await checkAddressOnce(deps, env);
  const bare: number[] = [];
  const intake: number[] = [];
  const answered: number[] = [];
  // Temporal's dev server slows as a namespace fills up (the first starts of a run, on an empty
  // namespace, went fastest: 165-246 /s against 121-195 after): each round has a fresh namespace of
  // its own (bench/namespaces.ts), both sides in it. A round of each side first, not counted (the
  // processes' and the server's warm-up), then the order alternates (bare first, then the API first…).
  const warmUp = await freshNamespace(deps, 'intake-warm');
  await bareRound(deps, warmUp);
  await intakeRound(deps, env, warmUp);
  for (let round = 0; round < ROUNDS; round++) {
    const apiFirst = round % 2 === 1;
    const namespace = await freshNamespace(deps, `intake-${round + 1}`);
    if (!apiFirst) bare.push(await bareRound(deps, namespace));
    const r = await intakeRound(deps, env, namespace);
    if (apiFirst) bare.push(await bareRound(deps, namespace));
    intake.push(r.perSecond);
    answered.push(r.answeredPerSecond);
    console.log(
      `intake round ${round + 1}: bare ${bare.at(-1)!.toFixed(0)} starts/s, API ${r.perSecond.toFixed(0)} workflows started/s (${r.answeredPerSecond.toFixed(0)} answered/s)`,
    );
  }
  const part = 'intake';
  const bareRate = middle(bare);
  const intakeRate = middle(intake);
  report.add({ part, name: 'bare starts of the mailing workflow (fresh process, 20 at a time), counted in Temporal', value: bareRate, unit: '/s' });
  report.add({
    part,
    name: 'POST /v1/mailings, counted when the workflow has started',
    value: intakeRate,
    unit: '/s',
    note: `answered ${middle(answered).toFixed(0)}/s`,
  });
  report.add({
    part,
    name: 'intake ÷ bare starts (both counted at workflow start)',
    value: pairedRatio(intake, bare),
    unit: 'ratio',
    rounds: roundRatios(intake, bare),
    target: { atLeast: 0.8 },
  });

  const rate = Math.max(1, Math.round(intakeRate / 2));
  const p99s: number[] = [];
  for (const arrivals of ['uniform', 'poisson'] as const) {
    const port = await freePort();
    const api = await startProcess(
      join(distRoot, 'server', 'main.js'),
      { ...env, PORT: String(port), TEMPORAL_TASK_QUEUE: `bench-half-${randomUUID()}` },
      `http://127.0.0.1:${port}/v1/openapi.json`,
    );
    try {
      const idle = await memoryOf(api);
      const half = await steadyLoad('POST /v1/mailings at half load', {
        url: `http://127.0.0.1:${port}/v1/mailings`,
        method: 'POST',
        headers: { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' },
        body,
        durationSeconds: 15,
        rate,
        arrivals,
        expect: { status: 201, body: createdMailingProblem },
      });
      p99s.push(half.p99Ms);
      const label = arrivals === 'uniform' ? 'evenly spaced' : 'Poisson arrivals';
      report.add({ part, name: `POST /v1/mailings at half load (${rate}/s, ${label}): p50`, value: half.p50Ms, unit: 'ms' });
      report.add({ part, name: `POST /v1/mailings at half load (${rate}/s, ${label}): p99`, value: half.p99Ms, unit: 'ms', target: { below: 50 } });
      if (arrivals === 'poisson') {
        const after = await memoryOf(api);
        report.add({ part, name: 'API RSS, idle', value: idle.rssMb, unit: 'MB' });
        report.add({ part, name: 'API RSS, after 15 s of intake at half load', value: after.rssMb, unit: 'MB' });
      }
    } finally {
      await stopProcess(api);
    }
  }
  await benchPartnerOutage(deps, env, report, rate);
}

/** A mailing created unchecked, as when the geocoder fails: paid, with the one warning that says so. */
function uncheckedMailingProblem(text: string): string | undefined {
  const mailing = JSON.parse(text) as { status?: string; warnings?: { code: string }[] };
  if (mailing.status !== 'paid') return 'not a paid mailing';
  const codes = (mailing.warnings ?? []).map((w) => w.code).join(', ');
  return codes === 'address_check_unavailable' ? undefined : `warnings: ${codes || 'none'}`;
}

/** The geocoder's breaker in the API process, as its /health says (shared there for 3 s). */
async function geocoderBreaker(apiUrl: string): Promise<string> {
  const health = (await (await fetch(`${apiUrl}/health`)).json()) as { partners?: { geocoder?: { state: string } } };
  return health.partners?.geocoder?.state ?? 'unknown';
}

/**
 * The front door during a partner outage (domain/lookups/breaker.ts): POST /v1/mailings, each to an
 * address no cache knows, so that each asks the geocoder (an API process and a `partners` worker on
 * a queue of their own; the geocoder a stand-in that confirms any address,
 * bench/geocoder-stand-in.ts). The API first serves 15 s of the usual mailings (a known address),
 * as a running API does when an outage begins; then the geocoder refuses every connection, and the
 * same half load is measured once its breaker is open: each mailing goes on unchecked at once, and the p99 must
 * stay within the half-load target; a request that reaches the geocoder while it is open fails the
 * scenario. Then, on a fresh API process (its breaker closed), with the geocoder answering in 80 ms,
 * at a fifth of that load. In that order: the lookups of the second leave the Temporal server
 * busier for a while, which the first must not inherit.
 */
export async function benchPartnerOutage(deps: BenchDeps, env: Record<string, string>, report: Report, rate: number): Promise<void> {
  const part = 'intake';
  const geocoder = await new GeocoderStandIn().start();
  const queueEnv = {
    ...env,
    TEMPORAL_TASK_QUEUE: `bench-partner-${randomUUID()}`,
    GEOCODING_BASE_URL: geocoder.baseUrl,
    GEOCODING_RATE_PER_SECOND: '100000',
    // Open for the whole measure.
    PARTNER_BREAKER_COOL_DOWN: '2m',
    WORKER_ROLES: 'partners',
  };
  const headers = { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' };
  const numbered = '{{n}}';
  const mailing = JSON.stringify({
    mode: 'ar',
    letter: freeLetter,
    sender,
    recipient: { name: 'Mairie', lines: [`${numbered} rue du Banc`], postcode: '69001', city: 'Lyon' },
  });
  const fresh = (): string => mailing.replace(numbered, String(800_000 + Math.floor(Math.random() * 99_999)));
  const startApi = async (): Promise<{ url: string; process: Awaited<ReturnType<typeof startProcess>> }> => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    return { url, process: await startProcess(join(distRoot, 'server', 'main.js'), { ...queueEnv, PORT: String(port) }, `${url}/v1/openapi.json`) };
  };
  /** Until a mailing comes back checked: the worker may still be bundling its workflows. */
  const firstChecked = (url: string): Promise<void> => firstCheckedMailing(`${url}/v1/mailings`, headers, fresh);
  const load = (url: string) => ({
    url: `${url}/v1/mailings`,
    method: 'POST' as const,
    headers,
    body: mailing,
    numbered,
    durationSeconds: 15,
    arrivals: 'poisson' as const,
  });
  let api = await startApi();
  const worker = await startProcess(join(distRoot, 'worker', 'main.js'), { ...queueEnv, PORT: '0' }, `${api.url}/v1/openapi.json`);
  try {
    await firstChecked(api.url);
    // An API serving mailings when the outage begins (not one started into it): the bench's usual
    // mailing, its address checked once and then known, at the same rate for 15 s, not counted.
    await postMailing(`${api.url}/v1/mailings`, headers);
    await steadyLoad('POST /v1/mailings before the outage (a known address)', {
      url: `${api.url}/v1/mailings`,
      method: 'POST',
      headers,
      body,
      durationSeconds: 15,
      arrivals: 'poisson',
      rate,
      expect: { status: 201, body: createdMailingProblem },
    });
    geocoder.mode = 'refuse';
    for (let i = 0; (await geocoderBreaker(api.url)) !== 'open'; i++) {
      if (i === 20) throw new ScenarioFailed('the geocoder refused 20 address checks and its breaker did not open');
      const res = await fetch(`${api.url}/v1/mailings`, { method: 'POST', headers, body: fresh() });
      const problem = res.status === 201 ? uncheckedMailingProblem(await res.text()) : `status ${res.status}`;
      if (problem) throw new ScenarioFailed(`POST /v1/mailings with the geocoder refusing answered ${problem}`);
      await sleep(200);
    }
    // The failed lookups' last attempts end first (their workflows give up within 5 s).
    await sleep(5000);
    const reached = geocoder.requests;
    const open = await steadyLoad('POST /v1/mailings, geocoder refusing, its breaker open', {
      ...load(api.url),
      rate,
      expect: { status: 201, body: uncheckedMailingProblem },
    });
    if (geocoder.requests !== reached) throw new ScenarioFailed(`${geocoder.requests - reached} requests reached the geocoder while its breaker was open`);
    const refusing = `at half load (${rate}/s, Poisson), geocoder refusing, its breaker open`;
    report.add({ part, name: `POST /v1/mailings ${refusing}: p50`, value: open.p50Ms, unit: 'ms' });
    report.add({ part, name: `POST /v1/mailings ${refusing}: p99`, value: open.p99Ms, unit: 'ms', target: { below: 50 } });

    await stopProcess(api.process);
    geocoder.mode = 'answer';
    api = await startApi();
    await firstChecked(api.url);
    // Each new address is a lookup workflow and its activity besides the mailing's start: a fifth
    // of the half load (at the whole half load, on two cores, lookups passed their deadline).
    const lookupRate = Math.max(1, Math.round(rate / 5));
    const answering = await steadyLoad('POST /v1/mailings, geocoder answering in 80 ms', {
      ...load(api.url),
      rate: lookupRate,
      expect: { status: 201, body: createdMailingProblem },
    });
    const each = `(${lookupRate}/s, Poisson), each to an address no cache knows, geocoder answering in 80 ms`;
    report.add({ part, name: `POST /v1/mailings ${each}: p50`, value: answering.p50Ms, unit: 'ms' });
    report.add({ part, name: `POST /v1/mailings ${each}: p99`, value: answering.p99Ms, unit: 'ms' });
  } finally {
    await stopProcess(worker);
    await stopProcess(api.process);
    await geocoder.stop();
  }
}
