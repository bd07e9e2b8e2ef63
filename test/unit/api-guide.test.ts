import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../../api/openapi.js';
import { webhookEventSchema } from '../../api/schemas/webhooks.js';
import { testAdvanceSchema } from '../../api/schemas/mailings.js';
import { EVENT_TYPES } from '../../domain/webhooks/event-types.js';
import {
  ELECTRONIC_LAST_STEP,
  ELECTRONIC_PATH,
  FALLBACK_ENDS,
  MODE_LABELS,
  PATHS,
  STATUSES,
  STATUS_LABELS,
  lastStep,
  lastStepOf,
  pathOf,
  proofAt,
  type MailingStatus,
  type Mode,
} from '../../domain/mailings/states.js';
import { OWN_PDF_REFUSALS } from '../../domain/mailings/own-pdf.js';

// Read from the sources, not dist/: from dist/test/unit/ up to the project root.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const guide = read('docs/api-guide.md');

/** The text of a `## ` section of the guide, up to the next one. */
function section(title: string): string {
  const start = guide.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/api-guide.md has no "## ${title}"`);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

/** The arguments' text of each call of `callee(` in `source`, strings and template literals skipped over. */
function callArguments(source: string, callee: RegExp): string[] {
  const calls: string[] = [];
  for (const match of source.matchAll(callee)) {
    const open = match.index + match[0].length;
    let depth = 1;
    let i = open;
    const skipString = (quote: string): void => {
      for (i++; i < source.length && source[i] !== quote; i++) {
        if (source[i] === '\\') i++;
        else if (quote === '`' && source[i] === '$' && source[i + 1] === '{') {
          let braces = 1;
          for (i += 2; i < source.length && braces > 0; i++) {
            if (source[i] === '{') braces++;
            else if (source[i] === '}') braces--;
          }
          i--;
        }
      }
    };
    for (; i < source.length && depth > 0; i++) {
      const c = source[i]!;
      if (c === "'" || c === '"' || c === '`') skipString(c);
      else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
    }
    calls.push(source.slice(open, i - 1));
  }
  return calls;
}

/** The last top-level argument of a call's arguments text. */
function lastArgument(args: string): string {
  let depth = 0;
  let last = 0;
  let quote: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0 && args.slice(i + 1).trim() !== '') last = i + 1;
  }
  return args.slice(last).trim().replace(/,$/, '');
}

const sourceFiles = (folder: string): string[] =>
  (readdirSync(join(root, folder), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(folder, f));

/**
 * Every error code the API can answer, with its status: the OpenAPI document's table, and each code
 * the domain or the API names when it throws (api/errors.ts maps the domain's kinds to statuses).
 */
function answeredCodes(): Map<string, number> {
  const codes = new Map(ERROR_CODES.map((e) => [e.code, e.status]));
  const thrown: [RegExp, number][] = [
    [/\b(?:invalidRequest|new InvalidRequest)\(/g, 400],
    [/\bnew NotAllowed\(/g, 403],
    [/\b(?:notFound|new NotFound)\(/g, 404],
    [/\bnew Conflict\(/g, 409],
    [/\b(?:unprocessable|new Unprocessable)\(/g, 422],
  ];
  for (const file of [...sourceFiles('api'), ...sourceFiles('domain')]) {
    const source = read(file);
    for (const [callee, status] of thrown)
      for (const args of callArguments(source, callee)) {
        const code = /^'([a-z]+(?:_[a-z]+)+)'$/.exec(lastArgument(args))?.[1];
        if (code) codes.set(code, status);
      }
    for (const [, status, code] of source.matchAll(/new ApiError\((\d{3}), '([a-z_]+)'/g)) codes.set(code!, Number(status));
  }
  return codes;
}

describe('docs/api-guide.md: the guide says what the code does', () => {
  it('lists every error code the API answers, with its status, and no other', () => {
    const errors = section('Errors');
    const listed = new Map([...errors.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map(([, status, code]) => [code!, Number(status)]));
    const answered = answeredCodes();
    expect(answered.get('batch_invalid'), 'the scan finds the codes the domain throws').to.equal(422);
    expect(Object.fromEntries(listed)).to.deep.equal(Object.fromEntries(answered));
  });

  it("says every reason of pdf_refused and the test advance's outcomes", () => {
    const pdfRow = /^\| 422 \| `pdf_refused` \|.*$/m.exec(section('Errors'))![0];
    for (const reason of OWN_PDF_REFUSALS) expect(pdfRow, reason).to.include(`\`${reason}\``);
    const statuses = (testAdvanceSchema.describe() as { keys: { status: { allow: string[] } } }).keys.status.allow;
    for (const status of statuses) expect(section('The sandbox'), status).to.include(`{ "status": "${status}" }`);
  });

  it('gives every mailing status its step, and every mode its path, its end and its proofs', () => {
    const lifecycle = section('Mailings: the lifecycle of a letter');
    const main = PATHS.ar as MailingStatus[];
    for (const status of STATUSES) {
      // The electronic path's statuses have their steps (1 to 3; its ends all at 3).
      const electronic = ELECTRONIC_PATH.includes(status) ? ELECTRONIC_PATH.indexOf(status) : FALLBACK_ENDS.has(status) ? ELECTRONIC_LAST_STEP : -1;
      const step = main.includes(status) ? String(main.indexOf(status)) : electronic >= 0 ? String(electronic) : '`lastStep`';
      expect(lifecycle, status).to.match(new RegExp(`^\\| \`${status}\` \\| ${step} \\|`, 'm'));
    }
    for (const mode of Object.keys(PATHS) as Mode[]) {
      const path = PATHS[mode].map((status, step) => `\`${status}\` ${step}`).join(' → ');
      const end = PATHS[mode][lastStep(mode)]!;
      const row = new RegExp(`^\\| \`${mode}\` \\| ${path} \\| ${lastStep(mode)} \\| \\*\\*\`${end}\`\\*\\* \\|(.*)$`, 'm').exec(lifecycle);
      expect(row, `the row of ${mode}`).to.not.equal(null);
      for (const status of PATHS[mode]) {
        const kind = proofAt(mode, status);
        if (kind) expect(row![1], `${mode}: ${kind}`).to.include(`\`${kind}\``);
      }
    }
    expect(lifecycle).to.include('never gets `mailing.in_transit` nor `mailing.delivered`');
  });

  it('lists every webhook event type, each with a complete example the schema accepts', () => {
    const webhooks = section('Webhook events');
    const examples = [...webhooks.matchAll(/```json\n([\s\S]*?)\n```/g)].map(([, json]) => JSON.parse(json!) as Record<string, unknown>);
    for (const type of EVENT_TYPES) {
      expect(webhooks, type).to.match(new RegExp(`^\\| \`${type.replace('.', '\\.')}\` \\|`, 'm'));
      const example = examples.find((e) => e.type === type);
      expect(example, `an example of ${type}`).to.not.equal(undefined);
      const { error } = webhookEventSchema.validate(example);
      expect(error?.message, type).to.equal(undefined);
    }
  });

  it("shows each mailing event's mailing in a state the event can have", () => {
    const examples = [...section('Webhook events').matchAll(/```json\n([\s\S]*?)\n```/g)].map(
      ([, json]) => JSON.parse(json!) as { type: string; data: { mailing?: Record<string, unknown> & { mode: Mode; status: MailingStatus; step: number } } },
    );
    for (const { type, data } of examples) {
      const mailing = data.mailing;
      if (!mailing) continue;
      const { mode, status, step } = mailing;
      // An electronic letter's track: its path, and its last step (7 or 8 once its paper fallback began).
      const electronic = mailing.electronic as { fallback: 'none' | 'paper'; fallbackUsed: boolean } | null;
      const track =
        mailing.channel === 'electronic' && electronic
          ? { mode, channel: 'electronic' as const, fallback: electronic.fallback, fallbackUsed: electronic.fallbackUsed }
          : { mode };
      const path = pathOf(track, FALLBACK_ENDS.has(status) ? status : undefined);
      const onPath = path.indexOf(status);
      expect(step, type).to.equal(onPath >= 0 ? onPath : lastStepOf(track));
      expect(mailing.lastStep, type).to.equal(lastStepOf(track));
      expect([mailing.modeLabel, mailing.statusLabel], type).to.deep.equal([MODE_LABELS[mode], STATUS_LABELS[status]]);
      const events = mailing.events as { step: number; status: MailingStatus; label: string }[];
      expect(events.at(-1)!.status, type).to.equal(status);
      for (const event of events) expect(event.label).to.equal(STATUS_LABELS[event.status]);
      const named = type.slice('mailing.'.length) as MailingStatus;
      if (STATUSES.includes(named)) expect(status, type).to.equal(named);
      if (type === 'mailing.created') expect([status, step]).to.deep.equal(['paid', 0]);
    }
  });
});

/** A heading's anchor as GitHub makes it. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n ? `${base}-${n}` : base);
  }
  return found;
}

const withoutCode = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```/gm, '');

const markdownFiles = (): string[] => [
  'README.md',
  ...(readdirSync(join(root, 'docs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => join('docs', f)),
  ...readdirSync(join(root, 'sdk'))
    .map((sdk) => join('sdk', sdk, 'README.md'))
    .filter((f) => existsSync(join(root, f))),
];

describe('README and docs stand alone', () => {
  it('name no document outside the repository', () => {
    for (const file of markdownFiles()) expect(read(file), file).to.not.match(/SPEC\.md|DESIGN\.md|\.\.\/shared/);
  });

  it('link only to files of the repository, and to headings that exist', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = withoutCode(read(file));
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^(https?|mailto):/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path ? resolve(root, dirname(file), path) : join(root, file);
        if (relative(root, resolved).startsWith('..') || !existsSync(resolved)) broken.push(`${file}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).to.deep.equal([]);
  });
});
