import { join } from 'node:path';
import { projectRoot } from '../lib/paths.js';
import { GENERATED_PATHS, generateSdks } from './local/sdk-generation.js';

/** npm run sdk:generate: the OpenAPI document and the generated part of both SDKs, under sdk/ (test/unit/sdk-generated.test.ts fails when they are stale). */
await generateSdks(join(projectRoot, 'sdk'), (line) => console.log(line));
console.log(`Generated ${GENERATED_PATHS.map((path) => 'sdk/' + path).join(', ')}`);
