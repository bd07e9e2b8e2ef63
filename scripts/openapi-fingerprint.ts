import { openApiFingerprint } from '../api/openapi.js';
import { routes } from '../api/routes/index.js';

/** Prints the fingerprint of today's OpenAPI document, for CHANGELOG.md's newest entry (npm run openapi:fingerprint). */
console.log(openApiFingerprint(routes));
