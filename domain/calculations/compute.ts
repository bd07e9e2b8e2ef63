import { catalogue, fieldRequired, type ToolData } from '../catalogue/catalogue.js';
import { calculatorDefaults, explainMissing, newlyRequired } from '../catalogue/compatibility.js';
import { type DomainError, PartnerFailure, notFound, unprocessable, upstreamError, type Unprocessable } from '../errors.js';
import { requireValidValues, type FieldValue } from '../letters/values.js';
import { parisTodayIso } from '../letters/render.js';
import { fuelPrices } from '../lookups/lookup.js';
import { partnerBreaker, throughBreaker } from '../lookups/breaker.js';
import type { Deps } from '../deps.js';
import { calculators, inputProblems, kilometricScale, type Inputs } from './calculators.js';

export interface DefaultApplied {
  field: string;
  value: string | number;
  reason: string;
}

/** Documented defaults for inputs left out, applied before the formula (and reported). */
function localDefaults(slug: string, inputs: Inputs): DefaultApplied[] {
  const out: DefaultApplied[] = [];
  const set = (field: string, value: string | number, reason: string): void => {
    if (inputs[field] === undefined) out.push({ field, value, reason });
  };
  if (slug === 'indemnite-licenciement' && inputs.averageSalary12MonthsCents !== undefined) {
    set('averageSalary3MonthsCents', inputs.averageSalary12MonthsCents, 'not given: the 12-month average is used');
  }
  if (slug === 'depot-garantie-restitution') {
    set('deductionsCents', 0, 'no deduction given');
    set('refundDate', parisTodayIso(), 'not refunded yet: the penalty is computed as of today (Europe/Paris)');
    set('leaseDate', 'depuis-2014-03-27', 'not given: a lease signed on or after 27 March 2014 (10 % of the rent per started month late)');
    set('sharedBuildingProvisionCents', 0, 'no provision kept for the accounts of a shared building');
  }
  if (slug === 'indemnites-kilometriques') {
    set('incomeYear', Math.max(...kilometricScale().incomeYears), 'not given: the latest income year the scale covers');
  }
  if (slug === 'conges-payes-acquis') set('sickLeaveMonths', 0, 'no sick leave given');
  if (slug === 'date-fin-preavis' && inputs.noticeType === 'personnalise') {
    set('customMonths', 0, 'no months given');
    set('customDays', 0, 'no days given');
  }
  return out;
}

/** Rules between inputs that their fields alone cannot say (422, before anything is billed). */
function crossChecks(slug: string, inputs: Inputs): void {
  const problems = inputProblems[slug]?.(inputs) ?? [];
  if (problems.length) throw unprocessable(problems.map((p) => `${p.field} ${p.message}`).join('; ') + '.', problems);
}

/** Road distance in km (1 decimal) between two addresses, through the route lookup workflow. */
export async function roadDistance(
  deps: Deps,
  from: string,
  to: string,
  onFailure: () => DomainError,
): Promise<{ distanceKm: number; durationMinutes: number; from: string; to: string } | null> {
  // Through the route planner's breaker (domain/lookups/breaker.ts), which counts its failures as
  // PartnerFailure; the caller's own refusal (a 422) is what the client sees, at once when it is open.
  const route = await throughBreaker(partnerBreaker('routing', deps.config.partners.breaker), onFailure, () =>
    deps.workflows.lookups.run('routeLookup', [{ address: from }, { address: to }, false], {
      idPrefix: 'route-lookup',
      failure: () => upstreamError('The routing service is failing.'),
    }),
  ).catch((error: unknown) => {
    throw error instanceof PartnerFailure ? onFailure() : error;
  });
  if (!route.from || !route.to || !route.route) return null;
  return {
    distanceKm: Math.round(route.route.distanceMeters / 100) / 10,
    durationMinutes: Math.round(route.route.durationSeconds / 60),
    from: route.from.label,
    to: route.to.label,
  };
}

/**
 * SPEC.md lists no 502 for calculators: a partner outage is a 422 whose detail starts with
 * `route_unavailable` or `fuel_price_unavailable` (retry later, or give the value), nothing billed.
 */
export const partnerUnavailable = (field: string, reason: string, message: string): Unprocessable =>
  unprocessable(message, [{ field, message: `${reason}: ${message}` }]);

/** Trip cost: distance (given, or by road) × consumption × the day's national average price. */
async function tripCost(deps: Deps, inputs: Inputs, defaults: DefaultApplied[]): Promise<Record<string, number | string>> {
  let distanceKm = inputs.distanceKm === undefined ? undefined : Number(inputs.distanceKm);
  if (distanceKm === undefined) {
    const route = await roadDistance(deps, String(inputs.from), String(inputs.to), () =>
      partnerUnavailable(
        'distanceKm',
        'route_unavailable',
        'The road distance could not be computed right now (routing service unavailable); retry, or give distanceKm.',
      ),
    );
    if (!route)
      throw unprocessable('No road route was found between from and to; give distanceKm.', [
        { field: 'distanceKm', message: 'no road route between from and to' },
      ]);
    distanceKm = route.distanceKm;
    defaults.push({ field: 'distanceKm', value: distanceKm, reason: `road distance from ${route.from} to ${route.to}` });
  }
  let fuel;
  try {
    fuel = await fuelPrices(deps, null);
  } catch (error) {
    if (error instanceof PartnerFailure)
      throw partnerUnavailable('fuel', 'fuel_price_unavailable', "The day's average fuel price could not be read right now; retry later.");
    throw error;
  }
  const price = fuel.national.prices[String(inputs.fuel) as keyof typeof fuel.national.prices];
  if (price === null || price === undefined)
    throw partnerUnavailable('fuel', 'fuel_price_unavailable', `No average price is published today for ${inputs.fuel}.`);
  const liters = (distanceKm * Number(inputs.consumption)) / 100;
  return { distanceKm, fuelPriceEurPerLiter: price, liters: Math.round(liters * 1000) / 1000, costCents: Math.round(liters * price * 100) };
}

export interface PreparedComputation {
  slug: string;
  title: string;
  source: string[];
  inputs: Inputs;
  defaultsApplied: DefaultApplied[];
}

/**
 * A tool's inputs checked against its fields (422 with one problem per field), as the formulas
 * take them. Every refusal comes before anything is billed.
 */
export function checkInputs(tool: ToolData, given: Record<string, FieldValue>): Inputs {
  const values = requireValidValues(tool.inputs, given, 'input');
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v]));
}

/** 422 listing the required inputs still missing (those in `notNeeded` excepted), `requiredWhen` included. */
export function requireInputs(tool: ToolData, inputs: Inputs, notNeeded: string[] = []): void {
  const missing = tool.inputs.filter((f) => fieldRequired(f, inputs) && inputs[f.name] === undefined && !notNeeded.includes(f.name)).map((f) => f.name);
  if (missing.length)
    throw unprocessable(`Missing inputs: ${explainMissing('calculators', tool.slug, missing)}.`, {
      missingFields: missing,
      newlyRequired: newlyRequired('calculators', tool.slug, missing),
    });
}

/** Checks and completes the inputs: every refusal (404, 422) comes before anything is billed. */
export function prepareComputation(slug: string, given: Record<string, FieldValue>): PreparedComputation {
  const calculator = catalogue().calculators.get(slug);
  if (!calculator) throw notFound(`No calculator "${slug}" in the catalogue.`);
  const inputs = checkInputs(calculator, given);
  // First an input added since (the value that gives the earlier result: catalogue/compatibility.json), then the formula's own.
  const defaultsApplied: DefaultApplied[] = [];
  for (const defaults of [calculatorDefaults, localDefaults]) {
    const applied = defaults(slug, inputs);
    for (const d of applied) inputs[d.field] = d.value;
    defaultsApplied.push(...applied);
  }
  requireInputs(calculator, inputs);
  crossChecks(slug, inputs);
  return { slug, title: calculator.title, source: calculator.source, inputs, defaultsApplied };
}

/** Runs the formula (with the partners it needs): the result of POST /v1/calculators/{slug}/compute. */
export async function runComputation(deps: Deps, prepared: PreparedComputation) {
  const { slug, inputs, defaultsApplied } = prepared;
  const result = slug === 'cout-trajet-voiture' ? await tripCost(deps, inputs, defaultsApplied) : calculators[slug]!(inputs);
  for (const d of defaultsApplied) inputs[d.field] = d.value;
  return { slug, title: prepared.title, inputs, defaultsApplied, result, source: prepared.source };
}
