import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../lib/paths.js';
import { pythonSdkTools } from './local/python-sdk-venv.js';

/**
 * npm run lint's Python part: ruff (pinned in sdk/python/requirements-tools.txt) over the
 * hand-written Python SDK and its test driver; the generated code is the generator's
 * (sdk/python/pyproject.toml leaves it out).
 */
const { bin } = pythonSdkTools((line) => console.error(line));
const ruff = join(bin, 'ruff');
const sdk = join(projectRoot, 'sdk', 'python');
const config = join(sdk, 'pyproject.toml');
const targets = [sdk, join(projectRoot, 'test', 'support', 'sdk_python_scenario.py')];
let failed = false;
for (const args of [
  ['check', '--no-cache', '--config', config, ...targets],
  ['format', '--check', '--no-cache', '--config', config, ...targets],
]) {
  const result = spawnSync(ruff, args, { cwd: sdk, stdio: 'inherit' });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
