// The workflow bundle's entry point: every workflow type the worker serves.
export { healthCheck, purgeExpiredData } from './maintenance.js';
export { letterPdf } from './letters.js';
export { embedQuery, embedCatalogue } from './search.js';
