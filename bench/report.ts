import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../lib/paths.js';

/** A target a figure must meet: at least or at most a value. */
export interface Target {
  atLeast?: number;
  below?: number;
  atMost?: number;
}

/** One figure of a run: what it measures, its value, its target if it has one. */
export interface Figure {
  part: string;
  name: string;
  value: number;
  unit: string;
  target?: Target;
  /** A figure made of others (e.g. a p99 "met" only when both arrival patterns meet it). */
  metWhen?: () => boolean;
  note?: string;
  /** Each round's value of a figure taken over rounds (a ratio's): the report shows their spread beside it. */
  rounds?: number[];
}

export function met(figure: Figure): boolean | undefined {
  if (figure.metWhen) return figure.metWhen();
  const t = figure.target;
  if (!t) return undefined;
  return (
    (t.atLeast === undefined || figure.value >= t.atLeast) &&
    (t.below === undefined || figure.value < t.below) &&
    (t.atMost === undefined || figure.value <= t.atMost)
  );
}

function targetText(t: Target | undefined): string {
  if (!t) return '';
  if (t.atLeast !== undefined) return `≥ ${t.atLeast}`;
  if (t.below !== undefined) return `< ${t.below}`;
  return `≤ ${t.atMost}`;
}

function valueText(f: Figure): string {
  let digits = f.unit === 'ratio' ? 2 : Number.isInteger(f.value) ? 0 : 1;
  // More digits while the rounded value would read as meeting its target and the value does not
  // (0.595 against ≥ 0.6), or the other way round: the figure shown must carry its verdict.
  const verdict = met(f);
  while (f.target && !f.metWhen && digits < 6 && verdict !== met({ ...f, value: Number(f.value.toFixed(digits)) })) digits++;
  const value = f.value.toFixed(digits);
  return (f.unit === 'ratio' ? value : `${value} ${f.unit}`) + spreadText(f, digits);
}

/** " (rounds 0.58–0.66)": the lowest and highest round of a figure taken over rounds. */
function spreadText(f: Figure, digits: number): string {
  if (!f.rounds || f.rounds.length < 2) return '';
  const low = Math.min(...f.rounds).toFixed(digits);
  const high = Math.max(...f.rounds).toFixed(digits);
  return ` (${f.rounds.length} rounds ${low}–${high})`;
}

/** The run's figures, printed as each part ends and written to docs/performance.md after a full run. */
export class Report {
  readonly figures: Figure[] = [];
  constructor(private readonly title = 'Last full run of `npm run bench`') {}
  readonly failures: string[] = [];

  add(figure: Figure): void {
    this.figures.push(figure);
    const verdict = met(figure);
    console.log(`» ${figure.name}: ${valueText(figure)}${figure.target ? ` (target ${targetText(figure.target)}: ${verdict ? 'met' : 'NOT met'})` : ''}`);
  }

  fail(part: string, error: unknown): void {
    const message = `${part}: ${error instanceof Error ? error.message : String(error)}`;
    this.failures.push(message);
    console.error(`✗ ${message}`);
  }

  /** The opening table of docs/performance.md, between its markers. */
  markdown(): string {
    const commit = git(['rev-parse', '--short', 'HEAD']);
    const dirty = git(['status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : '';
    const cpu = cpus();
    const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
    const rows = this.figures.map((f) => {
      const verdict = met(f);
      return `| ${f.part} | ${f.name} | ${valueText(f)} | ${targetText(f.target)} | ${verdict === undefined ? '' : verdict ? 'met' : '**not met**'} |`;
    });
    const failures = this.failures.map((f) => `- **failed**: ${f}`);
    return [
      `${this.title}: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}${dirty}, ${machine}.`,
      'Written by the bench itself (bench/report.ts); do not edit by hand.',
      '',
      '| part | measure | value | target | |',
      '|---|---|---|---|---|',
      ...rows,
      ...(failures.length ? ['', ...failures] : []),
    ].join('\n');
  }

  /** Replaces the table between the markers of docs/performance.md: `bench` for a full run, `soak` for the soak. */
  writeDocs(section: 'bench' | 'soak'): void {
    const path = join(projectRoot, 'docs', 'performance.md');
    const text = readFileSync(path, 'utf8');
    const START = `<!-- ${section}:start -->`;
    const END = `<!-- ${section}:end -->`;
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    if (start < 0 || end < start) throw new Error(`docs/performance.md lacks the markers ${START} … ${END}`);
    writeFileSync(path, text.slice(0, start + START.length) + '\n' + this.markdown() + '\n' + text.slice(end));
    console.log('docs/performance.md: the opening table is this run');
  }
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
