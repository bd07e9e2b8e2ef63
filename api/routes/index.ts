import { catalogueRoutes } from './catalogue.js';
import { expenseRoutes } from './expenses.js';
import { geoRoutes } from './geo.js';
import { companyRoutes } from './companies.js';
import { carRouteRoutes } from './car-routes.js';
import { fuelRoutes } from './fuel.js';
import { calculatorRoutes } from './calculators.js';
import { quoteRoutes } from './quotes.js';
import { letterRoutes } from './letters.js';
import { mailingRoutes } from './mailings.js';
import { mailingQuoteRoutes } from './mailing-quotes.js';
import { mailingBatchRoutes } from './mailing-batches.js';
import { searchRoutes } from './search.js';
import { requestRoutes } from './requests.js';
import { aiRoutes } from './ai.js';
import { metaRoutes } from './meta.js';
import type { Route } from './route.js';

/** Every operation of the API, in the order of the OpenAPI document. */
export const routes: Route[] = [
  ...metaRoutes(() => routes),
  ...catalogueRoutes,
  ...searchRoutes,
  ...letterRoutes,
  ...aiRoutes,
  ...mailingRoutes,
  ...mailingQuoteRoutes,
  ...mailingBatchRoutes,
  ...geoRoutes,
  ...companyRoutes,
  ...carRouteRoutes,
  ...fuelRoutes,
  ...calculatorRoutes,
  ...quoteRoutes,
  ...expenseRoutes,
  ...requestRoutes,
];
