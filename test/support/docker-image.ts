import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

/**
 * The production image without Docker: the build context (the tree less .dockerignore), then each
 * stage of the Dockerfile replayed on folders, following its WORKDIR, ENV, COPY and RUN lines, so
 * that a change to either file changes what the check boots. What is not replayed, and why:
 *
 * - `npx tsc …`: the build under test (dist/, made by `npm test`) is copied instead; each compiled
 *   file's source must be in the stage, so a context that lacks what tsc reads still fails.
 * - `npm ci` with every dependency (the build stage's, for tsc only): the project's node_modules,
 *   installed from the same lockfile, is linked instead. `npm ci --omit=dev` runs for real (with
 *   `--prefer-offline`, from the npm cache), since that is what the image runs with.
 * - `apt-get install …` (tini, Debian's chromium): system packages, recorded per stage
 *   (`systemPackages`), not installed; the check's printing worker is given the project's browser.
 * - `FROM <an earlier stage>`: the new stage starts as a copy of that one (files, ENV, WORKDIR, USER).
 *
 * Any other RUN command is refused: teach this file before the Dockerfile uses it.
 */
export interface ReplayedImage {
  /** The stage's root folder: its container paths are under it. */
  rootDir: string;
  /** Its WORKDIR, as the container sees it. */
  workdir: string;
  /** The WORKDIR on disk: what `node dist/server/main.js` runs in. */
  appDir: string;
  /** ENV of the final stage. */
  env: Record<string, string>;
  /** The final stage's ENTRYPOINT and CMD. */
  entrypoint: string[];
  cmd: string[];
  /** The final stage's base image, as its FROM line names it. */
  base: string;
  user: string | undefined;
  /** What its `apt-get install` lines ask for, its parent stages' included. */
  systemPackages: string[];
  /** One line per step, for failure messages. */
  log: string[];
  /** Every stage by name (`AS …`), the final one included. */
  stages: Record<string, ReplayedImage>;
}

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!pending && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (pending && line.trimStart().startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    const whole = (pending + line).trim();
    pending = '';
    const match = /^(\S+)\s+([\s\S]*)$/.exec(whole);
    if (!match) throw new Error(`Dockerfile: cannot read "${whole}"`);
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim() });
  }
  return instructions;
}

/** .dockerignore patterns as Docker reads them: from the context root, `*`, `?`, `**`, `!` exceptions, last match wins. */
export function dockerIgnore(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = posix.normalize((negated ? line.slice(1) : line).trim()).replace(/^\/+|\/+$/g, '');
      const source = pattern
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/');
      return { negated, regex: new RegExp(`^${source}$`) };
    });
  return (path: string): boolean => {
    // A pattern that matches a folder leaves out everything under it.
    const parts = path.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (prefixes.some((prefix) => rule.regex.test(prefix))) excluded = !rule.negated;
    return excluded;
  };
}

/** Copies the build context (the project less .dockerignore) into `dest`. */
export function buildContext(dest: string, root = projectRoot): string[] {
  const ignored = dockerIgnore(existsSync(join(root, '.dockerignore')) ? readFileSync(join(root, '.dockerignore'), 'utf8') : '');
  const copied: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (ignored(path)) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        mkdirSync(dirname(join(dest, path)), { recursive: true });
        cpSync(join(root, path), join(dest, path));
        copied.push(path);
      }
      // Links (e.g. a node_modules link in a worktree) are not followed: list them in .dockerignore.
      else if (entry.isSymbolicLink()) throw new Error(`build context: ${path} is a symbolic link; leave it out in .dockerignore`);
    }
  };
  walk('');
  return copied;
}

/** Splits `a b "c d"` and JSON arrays into words. */
function words(args: string): string[] {
  if (args.startsWith('[')) return JSON.parse(args) as string[];
  return (args.match(/"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^"|"$/g, ''));
}

/** ENV A=b C="d e" or ENV A b. */
function envPairs(args: string): [string, string][] {
  if (!args.includes('=')) {
    const [name, ...rest] = args.split(/\s+/);
    return [[name!, rest.join(' ')]];
  }
  return words(args).map((word) => {
    const at = word.indexOf('=');
    return [word.slice(0, at), word.slice(at + 1)];
  });
}

function run(command: string, args: string[], cwd: string, log: string[]): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' }, timeout: 600_000 });
  log.push(`  ${command} ${args.join(' ')} → exit ${result.status}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
}

/**
 * Every compiled file's source must be in the stage: what tsc in the image would read. A compiled
 * file whose source is gone from the project too is a stale output of an earlier build here (tsc
 * never deletes), not something the image would miss.
 */
function checkTscInputs(stageDir: string, distDir: string, root: string): void {
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        const source = relative(distDir, path).replace(/\.js$/, '.ts');
        if (!existsSync(join(stageDir, source)) && existsSync(join(root, source))) missing.push(source);
      }
    }
  };
  walk(distDir);
  if (missing.length) throw new Error(`tsc in the image would miss ${missing.length} source file(s), e.g. ${missing.slice(0, 5).join(', ')}`);
}

/** Replays the Dockerfile in `workDir` (one folder per stage) and returns the final stage, with every named one. */
export function replayDockerfile(workDir: string, root = projectRoot): ReplayedImage {
  const log: string[] = [];
  const context = join(workDir, 'context');
  buildContext(context, root);
  log.push(`context: ${context}`);
  type Stage = Omit<ReplayedImage, 'appDir' | 'log' | 'stages'>;
  /** Stages by name and by number, for COPY --from and FROM. */
  const stages = new Map<string, Stage>();
  let stage: Stage | undefined;
  let index = 0;
  const current = (): Stage => {
    if (!stage) throw new Error('Dockerfile: an instruction before FROM');
    return stage;
  };
  const inStage = (containerPath: string): string =>
    join(current().rootDir, isAbsolute(containerPath) ? containerPath : posix.join(current().workdir, containerPath));
  for (const { keyword, args } of parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'))) {
    if (keyword === 'FROM') {
      const [from, , name] = words(args);
      const stageDir = join(workDir, `stage-${index++}`);
      const parent = stages.get(from!);
      if (parent) {
        cpSync(parent.rootDir, stageDir, { recursive: true, verbatimSymlinks: true });
        stage = { ...parent, rootDir: stageDir, env: { ...parent.env }, systemPackages: [...parent.systemPackages] };
      } else {
        mkdirSync(stageDir, { recursive: true });
        stage = { rootDir: stageDir, workdir: '/', env: {}, cmd: [], entrypoint: [], base: from!, user: undefined, systemPackages: [] };
      }
      if (name) stages.set(name, stage);
      stages.set(String(index - 1), stage);
      log.push(`FROM ${args} → ${stageDir}`);
    } else if (keyword === 'WORKDIR') {
      current().workdir = posix.resolve(current().workdir, args);
      mkdirSync(inStage('.'), { recursive: true });
    } else if (keyword === 'ENV') {
      for (const [name, value] of envPairs(args)) current().env[name] = value;
    } else if (keyword === 'USER') {
      current().user = args;
    } else if (keyword === 'CMD') {
      current().cmd = words(args);
    } else if (keyword === 'ENTRYPOINT') {
      current().entrypoint = words(args);
    } else if (keyword === 'EXPOSE' || keyword === 'LABEL' || keyword === 'ARG') {
      continue;
    } else if (keyword === 'COPY') {
      const parts = words(args);
      const from = parts.find((part) => part.startsWith('--from='))?.slice('--from='.length);
      const unknown = parts.filter((part) => part.startsWith('--') && !part.startsWith('--from='));
      if (unknown.length) throw new Error(`Dockerfile: COPY ${unknown.join(' ')} is not replayed by test/support/docker-image.ts`);
      const paths = parts.filter((part) => !part.startsWith('--'));
      const dest = paths.pop()!;
      const source = from === undefined ? undefined : stages.get(from);
      if (from !== undefined && !source) throw new Error(`Dockerfile: COPY --from=${from}: no such stage`);
      const sourceRoot = source ? source.rootDir : context;
      const target = inStage(dest);
      const intoFolder = dest.endsWith('/') || dest === '.' || paths.length > 1 || (existsSync(target) && statSync(target).isDirectory());
      for (const path of paths) {
        if (/[*?[]/.test(path)) throw new Error(`Dockerfile: COPY ${path}: wildcards are not replayed`);
        const origin = join(sourceRoot, path);
        if (!existsSync(origin)) throw new Error(`Dockerfile: COPY ${from ? `--from=${from} ` : ''}${path}: not found (${origin})`);
        if (statSync(origin).isDirectory()) {
          mkdirSync(target, { recursive: true });
          cpSync(origin, target, { recursive: true, verbatimSymlinks: true });
        } else {
          const file = intoFolder ? join(target, basename(path)) : target;
          mkdirSync(dirname(file), { recursive: true });
          cpSync(origin, file);
        }
      }
      log.push(`COPY ${args}`);
    } else if (keyword === 'RUN') {
      const cwd = inStage('.');
      log.push(`RUN ${args}`);
      for (const command of args.split('&&').map((part) => part.trim())) {
        const argv = words(command);
        if (argv[0] === 'npm' && argv[1] === 'ci') {
          if (argv.includes('--omit=dev')) run('npm', [...argv.slice(1), '--prefer-offline'], cwd, log);
          else {
            // Every dependency, for tsc only: the project's own install of the same lockfile.
            symlinkSync(join(root, 'node_modules'), join(cwd, 'node_modules'));
            log.push('  (every dependency: the project node_modules, linked)');
          }
        } else if (argv[0] === 'npx' && argv[1] === 'tsc') {
          if (!existsSync(join(cwd, 'tsconfig.json'))) throw new Error('Dockerfile: npx tsc runs without tsconfig.json in the stage');
          checkTscInputs(cwd, join(root, 'dist'), root);
          cpSync(join(root, 'dist'), join(cwd, 'dist'), { recursive: true });
          log.push('  (the build under test copied in)');
        } else if (argv[0] === 'sh' && argv[1]?.startsWith('scripts/')) {
          run('sh', argv.slice(1), cwd, log);
        } else if (argv[0] === 'apt-get' && argv[1] === 'install') {
          current().systemPackages.push(...argv.slice(2).filter((word) => !word.startsWith('-')));
          log.push('  (system packages: recorded, not installed)');
        } else if (argv[0] === 'apt-get' || (argv[0] === 'rm' && argv.some((word) => word.startsWith('/var/lib/apt')))) {
          log.push('  (the package lists: not replayed)');
        } else {
          throw new Error(`Dockerfile: RUN ${command} is not replayed by test/support/docker-image.ts; teach it there`);
        }
      }
    } else {
      throw new Error(`Dockerfile: ${keyword} is not replayed by test/support/docker-image.ts`);
    }
  }
  const replayed = (s: Stage): ReplayedImage => ({ ...s, appDir: join(s.rootDir, s.workdir), log, stages: {} });
  const named = [...stages].filter(([key]) => !/^\d+$/.test(key));
  return { ...replayed(current()), stages: Object.fromEntries(named.map(([name, s]) => [name, replayed(s)])) };
}
