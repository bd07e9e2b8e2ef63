import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

/**
 * An integrator's first program, as sdk/typescript/README.md shows it: the bound client, a typed
 * open enum, the iterator, a typed error, a free function given the client, and a WebhookEvent
 * narrowed by `type` (the `@ts-expect-error` fails the compilation if an arm is not narrowed).
 */
export const FIRST_DAY_PROGRAM = String.raw`
import { createClient, ApiError, getCompany, type WebhookEvent } from 'svc-postal';

const svc = createClient({ apiKey: 'svc_test_…', baseUrl: 'http://localhost:3000', webhookSecrets: 'whsec_…' });

const mailing = await svc.mailings.create(
  {
    mode: 'simple',
    letter: { title: 'Demande de rendez-vous', body: 'Madame, Monsieur,\n\nJe souhaite un rendez-vous.' },
    sender: { name: 'Marie Dupont', lines: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon' },
    recipient: { name: 'Mairie de Lyon', lines: ['1 place de la Comédie'], postcode: '69001', city: 'Lyon' },
  },
  { idempotencyKey: 'order-1234' },
);
// An open enum keeps its known values (what the editor offers): collapsed to string, KnownValues would be never.
type KnownValues<T> = T extends string ? (string extends T ? never : T) : never;
const paid: KnownValues<typeof mailing.status> = 'paid';
const addedLater: typeof mailing.status = 'held_at_customs';

for await (const m of svc.mailings.list({ status: 'paid', limit: 100 })) console.log(m.id, m.status);
await svc.mailings.advance(mailing.id, { step: 2 });
try {
  await svc.mailings.cancel(mailing.id);
} catch (error) {
  if (error instanceof ApiError) console.log(error.status, error.code, error.requestId);
}
const letter = await svc.letters.render('resiliation-box-internet', { provider: 'bouygues-telecom', fields: { place: 'Lyon' } });
console.log(letter.text, letter.missingFields, paid, addedLater);
await getCompany({ client: svc, path: { siret: '55203253400646' } });

function describe(event: WebhookEvent): string {
  switch (event.type) {
    case 'mailing.posted':
      // @ts-expect-error a mailing step has no endpoint: the arm is narrowed
      console.log(event.data.endpoint);
      return event.data.mailing.status;
    case 'mailing.proof_available':
      return event.data.proof.kind;
    case 'ping':
      return event.data.endpoint.url;
    case 'unknown':
      return event.receivedType;
    default:
      return event.type;
  }
}
console.log(describe(svc.webhooks.verify({ rawBody: '{}', signature: undefined })));
`;

/** A generated function called without a client: it must not compile (no default client on localhost). */
export const NO_CLIENT_PROGRAM = String.raw`
import { getMailing } from 'svc-postal';

await getMailing({ path: { id: '5f0c7a9e-0000-4000-8000-000000000000' } });
`;

/**
 * `tsc --strict --noEmit` over `programs` (file name → source), in a scratch ESM package whose
 * `svc-postal` is the built sdk/typescript: what a user's project sees. Returns tsc's diagnostics.
 */
export function compileAgainstTheSdk(programs: Record<string, string>): { status: number | null; diagnostics: string } {
  const scratch = mkdtempSync(join(tmpdir(), 'sdk-ts-program-'));
  try {
    mkdirSync(join(scratch, 'node_modules'));
    symlinkSync(join(projectRoot, 'sdk', 'typescript'), join(scratch, 'node_modules', 'svc-postal'), 'dir');
    symlinkSync(join(projectRoot, 'node_modules', '@types'), join(scratch, 'node_modules', '@types'), 'dir');
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
    for (const [name, source] of Object.entries(programs)) writeFileSync(join(scratch, name), source);
    const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', ...Object.keys(programs)];
    const result = spawnSync(process.execPath, [tsc, ...args], { cwd: scratch, encoding: 'utf8' });
    return { status: result.status, diagnostics: result.stdout + result.stderr };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
