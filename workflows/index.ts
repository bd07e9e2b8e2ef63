// The workflow bundle's entry point: every workflow type the worker serves.
export { applyRetention, closeAccounts, healthCheck, purgeExpiredData, purgeWebhookDeliveries, reconcileMailings } from './maintenance.js';
export { letterPdf } from './letters.js';
export { embedQuery, embedCatalogue } from './search.js';
export { mailing } from './mailing.js';
export { mailingBatch } from './batch.js';
export { webhookDelivery } from './webhook-delivery.js';
export { addressLookup, addressMatchLookup, companySearch, companyProfileLookup, routeLookup, fuelPriceLookup, fuelStationSearch } from './lookups.js';
export { aiGeneration } from './ai.js';
export { topUp, checkoutSession, billingCustomer } from './topup.js';
export { productionAccessCheck } from './production-access.js';
export { senderIdentityRequest, senderIdentityRead } from './sender-identity.js';
