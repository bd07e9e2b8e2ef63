import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Joi from 'joi';
import { catalogueDir } from '../../lib/paths.js';
import { unprocessable } from '../errors.js';

/**
 * What requests written for an earlier catalogue still mean (SPEC.md: no breaking change within
 * /v1), from catalogue/compatibility.json: renamed fields are read under their new name, a field
 * merged into another is read with it, a withdrawn option as the one that replaces it, new fields
 * get the value that gives the earlier letter (or calculator result) where the law allows it, and
 * what cannot be guessed is a 422 that names the field and says why. Each adjustment is reported as
 * a warning (a calculator's, in defaultsApplied).
 */

/** Something the API did with a request instead of refusing it; on a mailing and a letter render. */
export interface RequestWarning {
  code:
    'field_replaced' | 'field_renamed' | 'field_defaulted' | 'value_retired' | 'address_unverified' | 'address_check_unavailable' | 'address_check_not_applied';
  /** The field of the request concerned, e.g. `letter.fields.senderName`. */
  field: string;
  message: string;
}

type Value = string | number | boolean;

interface Renamed {
  from: string;
  to: string;
  since: string;
  values?: Record<string, string>;
  why: string;
}
/**
 * A field merged into another enum field: `values` maps "<value of into>+<value of from>" to the
 * value of `into` that now says both; a pair it does not list keeps the value of `into`.
 */
interface Merged {
  from: string;
  into: string;
  since: string;
  values: Record<string, string>;
  why: string;
}
interface Defaulted {
  field: string;
  value: string;
  since: string;
  why: string;
}
interface RetiredValues {
  field: string;
  values: Record<string, string>;
  since: string;
  why: string;
}
export interface NewlyRequired {
  field: string;
  since: string;
  why: string;
}
interface RetiredProvider {
  slug: string;
  since: string;
  why: string;
}
interface LetterChanges {
  renamed?: Renamed[];
  retiredValues?: RetiredValues[];
  merged?: Merged[];
  defaults?: Defaulted[];
  required?: NewlyRequired[];
  retiredProviders?: RetiredProvider[];
}
interface Changes {
  letters: Record<string, LetterChanges>;
  calculators: Record<string, { defaults?: Defaulted[]; required?: NewlyRequired[] }>;
}

const day = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .required();
const why = Joi.string().min(20).required();
const requiredSchema = Joi.object({ field: Joi.string().required(), since: day, why });
const defaultsSchema = Joi.array().items(Joi.object({ field: Joi.string().required(), value: Joi.string().required(), since: day, why }));
const changesSchema = Joi.object({
  about: Joi.string().required(),
  letters: Joi.object().pattern(
    Joi.string(),
    Joi.object({
      renamed: Joi.array().items(
        Joi.object({ from: Joi.string().required(), to: Joi.string().required(), since: day, values: Joi.object().pattern(Joi.string(), Joi.string()), why }),
      ),
      retiredValues: Joi.array().items(
        Joi.object({ field: Joi.string().required(), values: Joi.object().pattern(Joi.string(), Joi.string()).min(1).required(), since: day, why }),
      ),
      merged: Joi.array().items(
        Joi.object({
          from: Joi.string().required(),
          into: Joi.string().required(),
          since: day,
          values: Joi.object()
            .pattern(/^[^+]+\+[^+]+$/, Joi.string())
            .min(1)
            .required(),
          why,
        }),
      ),
      defaults: defaultsSchema,
      required: Joi.array().items(requiredSchema),
      retiredProviders: Joi.array().items(Joi.object({ slug: Joi.string().required(), since: day, why })),
    }),
  ),
  calculators: Joi.object().pattern(Joi.string(), Joi.object({ defaults: defaultsSchema, required: Joi.array().items(requiredSchema) })),
});

let loaded: Changes | undefined;

function changes(): Changes {
  if (!loaded) {
    const raw: unknown = JSON.parse(readFileSync(join(catalogueDir, 'compatibility.json'), 'utf8'));
    const { error, value } = changesSchema.validate(raw, { abortEarly: false });
    if (error) throw new Error(`catalogue/compatibility.json: ${error.message}`);
    loaded = value as Changes;
  }
  return loaded;
}

/** The shape of the catalogue this file speaks of, enough to check it (no import of the catalogue: it imports this). */
interface CatalogueShape {
  letters: { slug: string; fields: { name: string; required: boolean; options?: { value: string }[] }[]; providers: { slug: string }[] }[];
  calculators: { slug: string; inputs: { name: string; options?: { value: string }[] }[] }[];
}

/** What in compatibility.json no longer matches the catalogue: a stale entry would mislead. */
export function compatibilityProblems(catalogue: CatalogueShape): string[] {
  const problems: string[] = [];
  const { letters, calculators } = changes();
  for (const [slug, entry] of Object.entries(letters)) {
    const letter = catalogue.letters.find((l) => l.slug === slug);
    if (!letter) {
      problems.push(`compatibility: no letter ${slug}`);
      continue;
    }
    const field = (name: string) => letter.fields.find((f) => f.name === name);
    for (const r of entry.renamed ?? []) {
      const to = field(r.to);
      if (!to) problems.push(`compatibility: ${slug}.${r.to} is not a field`);
      if (field(r.from)) problems.push(`compatibility: ${slug}.${r.from} is still a field`);
      for (const value of Object.values(r.values ?? {}))
        if (to && !to.options?.some((o) => o.value === value)) problems.push(`compatibility: ${slug}.${r.to} has no option ${value}`);
    }
    for (const r of entry.retiredValues ?? []) {
      const f = field(r.field);
      if (!f) problems.push(`compatibility: ${slug}.${r.field} is not a field`);
      for (const [old, value] of Object.entries(r.values)) {
        if (f?.options?.some((o) => o.value === old)) problems.push(`compatibility: ${slug}.${r.field} still has option ${old}`);
        if (f && !f.options?.some((o) => o.value === value)) problems.push(`compatibility: ${slug}.${r.field} has no option ${value}`);
      }
    }
    for (const m of entry.merged ?? []) {
      const into = field(m.into);
      if (!into) problems.push(`compatibility: ${slug}.${m.into} is not a field`);
      if (field(m.from)) problems.push(`compatibility: ${slug}.${m.from} is still a field`);
      for (const value of Object.values(m.values))
        if (into && !into.options?.some((o) => o.value === value)) problems.push(`compatibility: ${slug}.${m.into} has no option ${value}`);
    }
    for (const d of entry.defaults ?? []) {
      const f = field(d.field);
      if (!f) problems.push(`compatibility: ${slug}.${d.field} is not a field`);
      else if (f.options && !f.options.some((o) => o.value === d.value)) problems.push(`compatibility: ${slug}.${d.field} has no option ${d.value}`);
    }
    for (const r of entry.required ?? []) if (!field(r.field)) problems.push(`compatibility: ${slug}.${r.field} is not a field`);
    for (const p of entry.retiredProviders ?? [])
      if (letter.providers.some((known) => known.slug === p.slug)) problems.push(`compatibility: ${slug} still has provider ${p.slug}`);
  }
  for (const [slug, entry] of Object.entries(calculators)) {
    const calculator = catalogue.calculators.find((c) => c.slug === slug);
    if (!calculator) problems.push(`compatibility: no calculator ${slug}`);
    for (const d of entry.defaults ?? []) {
      const input = calculator?.inputs.find((i) => i.name === d.field);
      if (calculator && !input) problems.push(`compatibility: ${slug}.${d.field} is not an input`);
      else if (input?.options && !input.options.some((o) => o.value === d.value)) problems.push(`compatibility: ${slug}.${d.field} has no option ${d.value}`);
    }
    for (const r of entry.required ?? [])
      if (calculator && !calculator.inputs.some((i) => i.name === r.field)) problems.push(`compatibility: ${slug}.${r.field} is not an input`);
  }
  return problems;
}

/** Why a provider was withdrawn from a letter and what to send instead; undefined when it was not. */
export function withdrawnProvider(letterSlug: string, providerSlug: string): string | undefined {
  const retired = changes().letters[letterSlug]?.retiredProviders?.find((p) => p.slug === providerSlug);
  if (!retired) return undefined;
  return (
    `Provider "${providerSlug}" was withdrawn from letter "${letterSlug}" on ${retired.since}: ${retired.why}. ` +
    'Leave out provider and give the address you know: recipient (POST /v1/mailings) or recipientName and recipientAddress (letter render).'
  );
}

/**
 * Where an operation can say 422 (render, pdf, mailings): a withdrawn provider is refused as such,
 * with what to send instead, rather than as an unknown one (404, as GET /v1/letters/{slug} still says).
 */
export function refuseWithdrawnProvider(letterSlug: string, providerSlug: string | undefined): void {
  const why = providerSlug === undefined ? undefined : withdrawnProvider(letterSlug, providerSlug);
  if (!why) return;
  const retired = changes().letters[letterSlug]!.retiredProviders!.find((p) => p.slug === providerSlug)!;
  throw unprocessable(why, { field: 'provider', withdrawnOn: retired.since, reason: retired.why });
}

/**
 * A catalogue letter's field values as the catalogue reads them today: a renamed field under its
 * new name (its value translated), a merged field read into the field that now says it, an option
 * since withdrawn read as the one that replaces it, a new field absent from the request given the
 * value that writes the earlier letter. `prefix` names the fields in the warnings
 * (`letter.fields.` for a mailing).
 */
export function upgradeLetterFields(
  letterSlug: string,
  given: Record<string, Value>,
  prefix = '',
): { fields: Record<string, Value>; warnings: RequestWarning[] } {
  const entry = changes().letters[letterSlug];
  if (!entry) return { fields: given, warnings: [] };
  const fields = { ...given };
  const warnings: RequestWarning[] = [];
  for (const r of entry.renamed ?? []) {
    if (!(r.from in fields)) continue;
    const old = fields[r.from]!;
    delete fields[r.from];
    if (r.to in fields) {
      warnings.push({
        code: 'field_renamed',
        field: prefix + r.from,
        message: `${r.from} is now ${r.to} (since ${r.since}); ${r.to} was given, so ${r.from} was ignored.`,
      });
      continue;
    }
    const value = r.values?.[String(old)] ?? old;
    fields[r.to] = value;
    warnings.push({
      code: 'field_renamed',
      field: prefix + r.from,
      message: `${r.from} is now ${r.to} (since ${r.since}): ${r.why}. "${String(old)}" was read as ${r.to} "${String(value)}"; send ${r.to} instead.`,
    });
  }
  for (const r of entry.retiredValues ?? []) {
    const old = fields[r.field];
    const key = String(old).trim();
    // Own keys only: "constructor" is no retired value.
    if (old === undefined || !Object.hasOwn(r.values, key)) continue;
    const value = r.values[key]!;
    fields[r.field] = value;
    warnings.push({
      code: 'value_retired',
      field: prefix + r.field,
      message: `${r.field} "${String(old)}" is no longer offered (since ${r.since}): ${r.why}. It was read as "${value}"; send "${value}" instead.`,
    });
  }
  for (const m of entry.merged ?? []) {
    if (!(m.from in fields)) continue;
    const old = fields[m.from]!;
    delete fields[m.from];
    if (!(m.into in fields)) {
      warnings.push({
        code: 'field_renamed',
        field: prefix + m.from,
        message: `${m.from} is now part of ${m.into} (since ${m.since}): ${m.why}. Send ${m.into} instead.`,
      });
      continue;
    }
    const given = fields[m.into]!;
    const value = m.values[`${String(given)}+${String(old)}`] ?? given;
    fields[m.into] = value;
    warnings.push({
      code: 'field_renamed',
      field: prefix + m.from,
      message: `${m.from} is now part of ${m.into} (since ${m.since}): ${m.why}. ${m.into} "${String(given)}" with ${m.from} "${String(old)}" was read as ${m.into} "${String(value)}"; send ${m.into} alone.`,
    });
  }
  for (const d of entry.defaults ?? []) {
    if (d.field in fields) continue;
    fields[d.field] = d.value;
    warnings.push({ code: 'field_defaulted', field: prefix + d.field, message: `${d.field} was not given and is "${d.value}": ${d.why}.` });
  }
  return { fields, warnings };
}

/**
 * The inputs added to a calculator since, absent from the request: the value that gives the earlier
 * result, with the reason reported in the answer's defaultsApplied.
 */
export function calculatorDefaults(slug: string, given: Record<string, Value>): { field: string; value: string; reason: string }[] {
  return (changes().calculators[slug]?.defaults ?? [])
    .filter((d) => given[d.field] === undefined)
    .map((d) => ({ field: d.field, value: d.value, reason: `not given (an input since ${d.since}): ${d.why}` }));
}

/** Why each of `names` must now be given, for the ones that became required (in the 422 that lists them). */
export function newlyRequired(kind: 'letters' | 'calculators', slug: string, names: string[]): NewlyRequired[] {
  const required = changes()[kind][slug]?.required ?? [];
  return names.flatMap((name) => required.filter((r) => r.field === name));
}

/** "leaseDate (required since 2026-11-23: …)" for a field that became required; the bare name otherwise. */
export function explainMissing(kind: 'letters' | 'calculators', slug: string, names: string[]): string {
  const reasons = newlyRequired(kind, slug, names);
  return names
    .map((name) => {
      const reason = reasons.find((r) => r.field === name);
      return reason ? `${name} (required since ${reason.since}: ${reason.why})` : name;
    })
    .join(', ');
}
