/** Task queue of the geocoding partner: its worker caps requests per second for all processes together. */
export const GEOCODING_QUEUE = 'partner-geocoding';

/** Task queue of the company directory (recherche-entreprises). */
export const COMPANIES_QUEUE = 'partner-companies';

/** Task queue of the OSRM-compatible routing service. */
export const ROUTING_QUEUE = 'partner-routing';

/** Task queue of the official fuel-price open data. */
export const FUEL_QUEUE = 'partner-fuel';

/** Task queue of the LLM (OpenAI-compatible chat completions) of the AI operations. */
export const LLM_QUEUE = 'partner-llm';
