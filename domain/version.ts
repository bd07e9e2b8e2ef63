/** The API version (SPEC.md "Versioning"): in the OpenAPI document and the webhook sender's User-Agent. */
export const API_VERSION = '1.2.0';
