import { openApiFingerprint } from '../api/openapi.js';
import { routes } from '../api/routes/index.js';

/** Prints the fingerprint of today's OpenAPI document, the last line of CHANGELOG.md's `## Unreleased` (npm run openapi:fingerprint). */
console.log(openApiFingerprint(routes));
