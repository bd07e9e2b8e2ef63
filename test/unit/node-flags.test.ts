import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import { API_NODE_FLAGS } from '../../server/node-flags.js';

const read = (file: string): string => readFileSync(join(projectRoot, file), 'utf8');

/** The words of a JSON-like array literal (`["node", "x"]` or `['node', 'x']`) found after `prefix` on one line. */
function arrayAfter(text: string, prefix: string): string[] {
  const line = text.split('\n').find((l) => l.trimStart().startsWith(prefix));
  expect(line, `a line starting with ${prefix}`).to.be.a('string');
  const literal = line!.slice(line!.indexOf('[')).replace(/'/g, '"');
  return JSON.parse(literal) as string[];
}

/** What comes between `node` and the script in a command: the flags it gives Node. */
function nodeFlags(command: string[], script: string): string[] {
  expect(command[0]).to.equal('node');
  expect(command.at(-1)).to.equal(script);
  return command.slice(1, -1);
}

/**
 * server/node-flags.ts is the one owner of the API's Node flags: every place that starts the API
 * gives exactly those (the bench and the tests' API processes import the list itself).
 */
describe('the API’s Node flags (server/node-flags.ts)', () => {
  it('are given by the image’s command, the chart’s API container, docker-compose and npm start, exactly', () => {
    expect(nodeFlags(arrayAfter(read('Dockerfile'), 'CMD'), 'dist/server/main.js'), 'Dockerfile CMD').to.deep.equal(API_NODE_FLAGS);
    expect(nodeFlags(arrayAfter(read('deploy/helm/svc-postal/templates/api.yaml'), 'args:'), 'dist/server/main.js'), 'the chart').to.deep.equal(API_NODE_FLAGS);
    const compose = read('docker-compose.yml');
    const apiService = compose.slice(compose.indexOf('\n  api:'));
    expect(nodeFlags(arrayAfter(apiService, 'command:'), 'dist/server/main.js'), 'docker-compose').to.deep.equal(API_NODE_FLAGS);
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start!;
    const command = start
      .slice(start.lastIndexOf('&&') + 2)
      .trim()
      .split(/\s+/);
    expect(nodeFlags(command, 'dist/scripts/start.js'), 'npm start').to.deep.equal(API_NODE_FLAGS);
  });

  it('are flags this Node accepts (a misspelt V8 flag would stop the process at start)', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [...API_NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.equal('');
  });
});
