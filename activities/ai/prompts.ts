import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

/** Prompts live beside this file as `<name>.v<N>.md`; a change is a new version, never an edit in place. */
export const promptsDir = join(projectRoot, 'activities', 'ai', 'prompts');

export interface Prompt {
  /** e.g. "fill-letter@v1", reported with every generation. */
  version: string;
  text: string;
}

const loaded = new Map<string, Prompt>();

/** The newest version of a prompt ("fill-letter", "tools/corriger-orthographe"). */
export function loadPrompt(name: string): Prompt {
  const known = loaded.get(name);
  if (known) return known;
  const slash = name.lastIndexOf('/');
  const dir = join(promptsDir, name.slice(0, slash + 1));
  const base = name.slice(slash + 1);
  const versions = readdirSync(dir)
    .map((file) => new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.v(\\d+)\\.md$`).exec(file)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
  if (versions.length === 0) throw new Error(`no prompt file for "${name}" in ${promptsDir}`);
  const newest = Math.max(...versions);
  const prompt = { version: `${name}@v${newest}`, text: readFileSync(join(dir, `${base}.v${newest}.md`), 'utf8').trim() };
  loaded.set(name, prompt);
  return prompt;
}
