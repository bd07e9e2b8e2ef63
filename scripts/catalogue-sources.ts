import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogueData } from '../domain/catalogue/catalogue.js';
import { sourcesMarkdown } from '../domain/catalogue/sources-md.js';
import { catalogueDir } from '../lib/paths.js';

/** Writes catalogue/SOURCES.md from the structured sources of the catalogue (npm run sources). */
const file = join(catalogueDir, 'SOURCES.md');
writeFileSync(file, sourcesMarkdown(loadCatalogueData()));
console.log(`wrote ${file}`);
