import Mocha from 'mocha';
import { relative } from 'node:path';

const { EVENT_SUITE_BEGIN, EVENT_TEST_END, EVENT_HOOK_END } = Mocha.Runner.constants;

const SHOWN = 20;

interface Timed {
  title: string;
  file: string;
  ms: number;
}

/**
 * The spec reporter, plus the run's slowest tests and hooks and its slowest files, printed before
 * mocha's usual closing lines ("N passing", "N failing"), which stay the last ones. It works in
 * serial and in parallel mode alike: durations come with each test's and hook's events, measured
 * where it ran. A file's time is the sum of its tests and hooks; the root hooks that start a worker's
 * stack belong to no file and are counted apart.
 */
export default class DurationsReporter extends Mocha.reporters.Spec {
  private readonly timed: Timed[] = [];

  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    // Parallel mode replays each file's events in one piece: the last suite begun names the file.
    let currentFile = '';
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.file) currentFile = suite.file;
    });
    const record = (runnable: Mocha.Runnable, kind: 'test' | 'hook'): void => {
      if (typeof runnable.duration !== 'number') return;
      const rootHook = kind === 'hook' && !runnable.parent?.parent && !runnable.file;
      const file = rootHook ? '(root hooks: the test stack)' : relative(process.cwd(), runnable.file ?? currentFile);
      this.timed.push({ title: kind === 'hook' ? `${runnable.fullTitle()} [hook]` : runnable.fullTitle(), file, ms: runnable.duration });
    };
    runner.on(EVENT_TEST_END, (test: Mocha.Test) => record(test, 'test'));
    runner.on(EVENT_HOOK_END, (hook: Mocha.Hook) => record(hook, 'hook'));
  }

  override epilogue(): void {
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`.padStart(8);
    const slowest = [...this.timed].sort((a, b) => b.ms - a.ms).slice(0, SHOWN);
    const perFile = new Map<string, number>();
    for (const { file, ms } of this.timed) perFile.set(file, (perFile.get(file) ?? 0) + ms);
    const files = [...perFile].sort((a, b) => b[1] - a[1]);
    const total = files.reduce((sum, [, ms]) => sum + ms, 0);
    const lines = [
      '',
      `  The ${slowest.length} slowest tests and hooks:`,
      ...slowest.map(({ title, file, ms }) => `  ${seconds(ms)}  ${title}  (${file})`),
      '',
      `  The ${Math.min(SHOWN, files.length)} slowest files (sum of their tests and hooks; all ${files.length}: ${seconds(total).trim()}):`,
      ...files.slice(0, SHOWN).map(([file, ms]) => `  ${seconds(ms)}  ${file}`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    // In a parallel run, an error thrown outside any test reaches the reporter as a plain object
    // without titlePath, and mocha's own listing of the failures throws on it: every failure's
    // message would be lost. It is listed under its title instead.
    for (const failure of this.failures as (Mocha.Test & { titlePath?: unknown })[])
      if (typeof failure.titlePath !== 'function') failure.titlePath = () => [failure.title];
    super.epilogue();
  }
}
