import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Joi from 'joi';
import { catalogueDir } from '../../lib/paths.js';
import { compatibilityProblems, withdrawnProvider } from './compatibility.js';
import { sha256Hex } from '../../lib/crypto.js';
import { priceTable } from '../billing/prices.js';
import { notFound } from '../errors.js';
import { categorySchema, letterDataSchema, toolDataSchema, type FieldType } from './schema.js';

export interface Field {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  pattern?: string;
  options?: { value: string; label: string }[];
  help?: string;
  example?: string | number;
  default?: string | number | boolean;
  /** Required when the enum field `field` has one of `values`. */
  requiredWhen?: { field: string; values: string[] };
  /** In a mailing, the value comes from the request's validated `sender` or `recipient`. */
  filledFrom?: 'sender' | 'recipient';
}

/**
 * A legal source: the text, the article, its page on Légifrance, service-public.fr or EUR-Lex, and the
 * day it was last read there or in its official data (DILA's LEGI data); `status: 'read_on_copy'`
 * when it was read only on an unofficial copy (dated, but not verified); `status: 'unverified'` (no
 * date) while nobody has read it. `legiarti` and `quote`: the official id of the article's version
 * and the phrase relied on (test/unit/official-texts.test.ts checks them in the LEGI data).
 */
export interface LegalSource {
  text: string;
  article: string;
  url: string;
  status?: 'unverified' | 'read_on_copy';
  checkedOn?: string;
  legiarti?: string;
  quote?: string;
  note?: string;
}

/** Whether someone read the source on the official site or in its official data (it then has a check date); a copy does not count. */
export const sourceVerified = (source: LegalSource): boolean => source.status === undefined && source.checkedOn !== undefined;

/** Whether the source was read only on an unofficial copy (dated, not verified). */
export const sourceReadOnCopy = (source: LegalSource): boolean => source.status === 'read_on_copy';

export interface PostalAddress {
  name: string;
  lines: string[];
  postcode: string;
  city: string;
  /** FR for the catalogue's providers; a mailing's recipient may be abroad (domain/mailings/countries.ts). */
  country: string;
}

export interface Provider {
  slug: string;
  name: string;
  address: PostalAddress;
  addressSource: { description: string; url?: string; checkedOn: string; reliability: 'good' | 'medium' };
  fields: Field[];
}

export interface LetterData {
  slug: string;
  title: string;
  category: string;
  summary: string;
  legalBasis: string[];
  sources: LegalSource[];
  recommendedMode: 'simple' | 'registered' | 'ar';
  keywords: string[];
  providers: Provider[];
  fields: Field[];
  subject: string;
  body: string;
  /** Fields the letter refuses unless the enum field `when.field` has one of `when.values` (why says what would be wrong). */
  onlyWhen?: { field: string; when: { field: string; values: string[] }; why: string }[];
}

export interface ToolData {
  slug: string;
  title: string;
  category: string;
  summary: string;
  inputs: Field[];
  source: string[];
  sources: LegalSource[];
  needsRoute?: boolean;
  examples?: Record<string, unknown>[];
  scale?: Record<string, unknown>;
}

export interface CatalogueData {
  categories: { slug: string; title: string; description: string }[];
  letters: LetterData[];
  calculators: ToolData[];
  aiTools: ToolData[];
  quotes: ToolData[];
}

/** Fields every letter has; the renderer lays them out (sender and recipient blocks, place and date). */
export const SENDER_FIELDS: Field[] = [
  { name: 'senderName', label: "Nom et prénom de l'expéditeur", type: 'text', required: true, example: 'Marie Dupont', filledFrom: 'sender' },
  {
    name: 'senderAddress',
    label: "Adresse de l'expéditeur",
    type: 'multiline',
    required: true,
    example: '12 rue des Lilas\n75011 Paris',
    filledFrom: 'sender',
  },
];
export const RECIPIENT_FIELDS: Field[] = [
  {
    name: 'recipientName',
    label: 'Nom du destinataire',
    type: 'text',
    required: true,
    help: 'Inutile quand un fournisseur du catalogue est choisi : son adresse est utilisée.',
    example: 'Service Clients',
    filledFrom: 'recipient',
  },
  {
    name: 'recipientAddress',
    label: 'Adresse du destinataire',
    type: 'multiline',
    required: true,
    example: '5 avenue de la République\n69002 Lyon',
    filledFrom: 'recipient',
  },
];
export const CLOSING_FIELDS: Field[] = [
  { name: 'place', label: 'Fait à (commune)', type: 'text', required: true, example: 'Paris' },
  { name: 'date', label: 'Date du courrier', type: 'date', required: false, help: "Aujourd'hui (Europe/Paris) si absente.", example: '2026-11-21' },
];
const STANDARD_NAMES = new Set([...SENDER_FIELDS, ...RECIPIENT_FIELDS, ...CLOSING_FIELDS].map((f) => f.name));

const PLACEHOLDER = /\{\{\s*([A-Za-z][\w.]*)\s*\}\}/g;

export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/**
 * A passage printed only for some values of an enum field of the letter:
 * `{{#field=a,b}}…{{/field}}` (when the value is a or b) or `{{#field!=a,b}}…{{/field}}` (otherwise).
 * Passages do not nest. When the field has no value yet, the passage is left out.
 */
const PASSAGE = /\{\{#([A-Za-z]\w*)(!?=)([\w,-]+)\}\}([\s\S]*?)\{\{\/\1\}\}/g;

export interface Passage {
  field: string;
  negated: boolean;
  values: string[];
  inner: string;
}

export function passages(template: string): Passage[] {
  return [...template.matchAll(PASSAGE)].map((m) => ({ field: m[1]!, negated: m[2] === '!=', values: m[3]!.split(','), inner: m[4]! }));
}

/** Whether a passage is printed for this value of its field. */
export function passagePrinted(passage: Pick<Passage, 'negated' | 'values'>, value: unknown): boolean {
  if (value === undefined) return false;
  return passage.values.includes(String(value)) !== passage.negated;
}

/** The template with its passages resolved for these values. */
export function resolvePassages(template: string, values: Record<string, unknown>): string {
  return template.replace(PASSAGE, (_match, field: string, op: string, list: string, inner: string) =>
    passagePrinted({ negated: op === '!=', values: list.split(',') }, values[field]) ? inner : '',
  );
}

/** Whether a field is required for these values (always, or by its requiredWhen condition). */
export function fieldRequired(field: Field, values: Record<string, unknown>): boolean {
  if (field.required) return true;
  if (!field.requiredWhen) return false;
  const value = values[field.requiredWhen.field];
  return value !== undefined && field.requiredWhen.values.includes(String(value));
}

/**
 * The given fields a letter refuses with these values: those whose `onlyWhen` condition does not
 * hold (a passage they print would say what the values do not), one `{ field, message }` each.
 */
export function contradictedValues(letter: LetterData, values: Record<string, unknown>): { field: string; message: string }[] {
  return (letter.onlyWhen ?? [])
    .filter((rule) => values[rule.field] !== undefined && !rule.when.values.includes(String(values[rule.when.field])))
    .map((rule) => {
      const label = letter.fields.find((f) => f.name === rule.field)?.label ?? rule.field;
      return { field: rule.field, message: `${label} may be given only when ${rule.when.field} is ${rule.when.values.join(' or ')}: ${rule.why}` };
    });
}

/** Legal sources whose last check is older than `months` months before `today` (or dated after it). */
export function staleSources(data: CatalogueData, today: string, months = 12): string[] {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const back = new Date(Date.UTC(y, m - 1 - months, 1));
  const lastDay = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() + 1, 0)).getUTCDate();
  const oldest = `${back.toISOString().slice(0, 8)}${String(Math.min(d, lastDay)).padStart(2, '0')}`;
  const entries: [string, { slug: string; sources: LegalSource[] }][] = [
    ...data.letters.map((l) => ['letter', l] as [string, LetterData]),
    ...data.calculators.map((c) => ['calculator', c] as [string, ToolData]),
    ...data.aiTools.map((t) => ['AI tool', t] as [string, ToolData]),
    ...data.quotes.map((q) => ['quote', q] as [string, ToolData]),
  ];
  const stale: string[] = [];
  for (const [kind, entry] of entries) {
    for (const source of entry.sources) {
      // An unverified source has no date to be stale: it is listed as unverified instead (SOURCES.md).
      if (source.checkedOn === undefined) continue;
      if (source.checkedOn < oldest) stale.push(`${kind} ${entry.slug}: ${source.text}, ${source.article} last checked ${source.checkedOn} (before ${oldest})`);
      else if (source.checkedOn > today) stale.push(`${kind} ${entry.slug}: ${source.text}, ${source.article} checked in the future (${source.checkedOn})`);
    }
  }
  for (const letter of data.letters) {
    for (const provider of letter.providers) {
      const checked = provider.addressSource.checkedOn;
      if (checked < oldest || checked > today) stale.push(`letter ${letter.slug}: address of provider ${provider.slug} last checked ${checked}`);
    }
  }
  return stale;
}

/**
 * A letter whose content the law drives: its text (body or an option it prints) cites an article, a
 * deadline or an amount. Such a letter must rest on at least one verified source (issue 24).
 */
const LAW_DRIVEN = /\barticles?\s|\bdélais?\b|\d+\s*(?:jours|mois|ans)\b|€|\beuros\b|%/u;

/** The letters whose content the law drives and none of whose sources has been read (sorted slugs). */
export function lawDrivenLettersWithoutVerifiedSource(data: CatalogueData): string[] {
  return data.letters
    .filter((l) => LAW_DRIVEN.test(`${l.body}\n${JSON.stringify(l.fields)}`))
    .filter((l) => !l.sources.some(sourceVerified))
    .map((l) => l.slug)
    .sort();
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(join(catalogueDir, file), 'utf8'));
}

function validated<T>(schema: Joi.Schema, value: unknown, where: string): T {
  const { error, value: clean } = schema.validate(value, { abortEarly: false, convert: false });
  if (error) throw new Error(`catalogue/${where}: ${error.message}`);
  return clean as T;
}

/** Cross-entry rules that a schema alone cannot say; returns every problem found. */
export function catalogueProblems(data: CatalogueData): string[] {
  const problems: string[] = [];
  const categories = new Set(data.categories.map((c) => c.slug));
  const seen = new Map<string, string>();
  const entries: [string, { slug: string; category: string }][] = [
    ...data.letters.map((l) => ['letter', l] as [string, LetterData]),
    ...data.calculators.map((c) => ['calculator', c] as [string, ToolData]),
    ...data.aiTools.map((t) => ['AI tool', t] as [string, ToolData]),
    ...data.quotes.map((q) => ['quote', q] as [string, ToolData]),
  ];
  for (const [kind, entry] of entries) {
    if (seen.has(entry.slug)) problems.push(`${kind} ${entry.slug}: slug already used by a ${seen.get(entry.slug)}`);
    seen.set(entry.slug, kind);
    if (!categories.has(entry.category)) problems.push(`${kind} ${entry.slug}: unknown category ${entry.category}`);
  }
  for (const letter of data.letters) {
    const own = new Set(letter.fields.map((f) => f.name));
    for (const name of own) if (STANDARD_NAMES.has(name)) problems.push(`letter ${letter.slug}: field ${name} is a standard field`);
    const providerSlugs = new Set<string>();
    for (const provider of letter.providers) {
      if (providerSlugs.has(provider.slug)) problems.push(`letter ${letter.slug}: provider ${provider.slug} twice`);
      providerSlugs.add(provider.slug);
    }
    // A provider field may be used only when every provider declares it.
    const everyProvider = letter.providers.length
      ? letter.providers.map((p) => new Set(p.fields.map((f) => f.name))).reduce((a, b) => new Set([...a].filter((n) => b.has(n))))
      : new Set<string>();
    const template = letter.subject + '\n' + letter.body;
    const condition = conditionCheck(`letter ${letter.slug}`, letter.fields, 'field of the letter', problems);
    for (const passage of passages(template)) condition(`a passage`, passage.field, passage.values);
    if (/\{\{[#/]/.test(resolvePassages(template, {}))) problems.push(`letter ${letter.slug}: a passage {{#…}} is not closed by its {{/…}}, or is nested`);
    for (const field of letter.fields) if (field.requiredWhen) condition(`field ${field.name}`, field.requiredWhen.field, field.requiredWhen.values);
    for (const rule of letter.onlyWhen ?? []) {
      if (!own.has(rule.field)) problems.push(`letter ${letter.slug}: onlyWhen names ${rule.field}, which is not a field of the letter`);
      condition(`onlyWhen of ${rule.field}`, rule.when.field, rule.when.values);
    }
    for (const name of placeholders(template)) {
      if (name === 'provider.name') {
        if (letter.providers.length === 0) problems.push(`letter ${letter.slug}: {{provider.name}} without providers`);
      } else if (!own.has(name) && !STANDARD_NAMES.has(name) && !everyProvider.has(name)) {
        problems.push(`letter ${letter.slug}: placeholder {{${name}}} is not a declared field`);
      }
    }
  }
  const tools: [string, ToolData[]][] = [
    ['calculator', data.calculators],
    ['AI tool', data.aiTools],
    ['quote', data.quotes],
  ];
  for (const [kind, list] of tools) {
    for (const tool of list) {
      const condition = conditionCheck(`${kind} ${tool.slug}`, tool.inputs, `input of the ${kind}`, problems);
      for (const input of tool.inputs) if (input.requiredWhen) condition(`input ${input.name}`, input.requiredWhen.field, input.requiredWhen.values);
    }
  }
  problems.push(...compatibilityProblems(data));
  return problems;
}

/**
 * The check of a condition (a passage, `requiredWhen`, `onlyWhen`) on one letter's fields or one
 * tool's inputs: it must name an enum among them, and only that enum's options.
 */
function conditionCheck(
  owner: string,
  fields: readonly { name: string; type: string; options?: { value: string }[] }[],
  fieldWord: string,
  problems: string[],
): (where: string, field: string, values: string[]) => void {
  const enums = new Map(fields.filter((f) => f.type === 'enum').map((f) => [f.name, new Set(f.options!.map((o) => o.value))]));
  return (where, field, values) => {
    const options = enums.get(field);
    if (!options) problems.push(`${owner}: ${where} depends on ${field}, which is not an enum ${fieldWord}`);
    else for (const v of values) if (!options.has(v)) problems.push(`${owner}: ${where} names ${field}=${v}, which is not one of its options`);
  };
}

export function loadCatalogueData(): CatalogueData {
  const categories = validated<CatalogueData['categories']>(Joi.array().items(categorySchema), readJson('categories.json'), 'categories.json');
  const letters = readdirSync(join(catalogueDir, 'letters'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) => validated<LetterData[]>(Joi.array().items(letterDataSchema), readJson(join('letters', file)), `letters/${file}`));
  const tools = (file: string): ToolData[] => validated<ToolData[]>(Joi.array().items(toolDataSchema), readJson(file), file);
  const data = { categories, letters, calculators: tools('calculators.json'), aiTools: tools('ai-tools.json'), quotes: tools('quotes.json') };
  const problems = catalogueProblems(data);
  if (problems.length) throw new Error('catalogue problems:\n' + problems.join('\n'));
  return data;
}

/** The fields a client sends for a letter; with a provider, its address replaces the recipient fields. */
export function letterFields(letter: LetterData, provider?: Provider): Field[] {
  if (provider) return [...SENDER_FIELDS, ...letter.fields, ...provider.fields, ...CLOSING_FIELDS];
  return [...SENDER_FIELDS, ...RECIPIENT_FIELDS, ...letter.fields, ...CLOSING_FIELDS];
}

export function publicLetter(letter: LetterData) {
  return {
    slug: letter.slug,
    title: letter.title,
    category: letter.category,
    summary: letter.summary,
    legalBasis: letter.legalBasis,
    sources: letter.sources,
    recommendedMode: letter.recommendedMode,
    keywords: letter.keywords,
    providers: letter.providers.map((p) => ({ slug: p.slug, name: p.name, address: p.address })),
    fields: letterFields(letter).map((f) =>
      letter.providers.length && STANDARD_NAMES.has(f.name) && f.name.startsWith('recipient') ? { ...f, required: false } : f,
    ),
  };
}

function publicTool(tool: ToolData) {
  const { examples: _examples, scale: _scale, ...rest } = tool;
  return rest;
}

export class Catalogue {
  readonly letters: Map<string, LetterData>;
  readonly calculators: Map<string, ToolData>;
  readonly aiTools: Map<string, ToolData>;
  readonly quotes: Map<string, ToolData>;
  /** GET /v1/catalogue, serialized once, with its strong ETag. */
  readonly body: Buffer;
  readonly etag: string;
  readonly version: string;

  constructor(readonly data: CatalogueData) {
    this.letters = new Map(data.letters.map((l) => [l.slug, l]));
    this.calculators = new Map(data.calculators.map((c) => [c.slug, c]));
    this.aiTools = new Map(data.aiTools.map((t) => [t.slug, t]));
    this.quotes = new Map(data.quotes.map((q) => [q.slug, q]));
    const content = {
      categories: data.categories,
      letters: data.letters.map(publicLetter),
      calculators: data.calculators.map(publicTool),
      aiTools: data.aiTools.map(publicTool),
      quotes: data.quotes.map(publicTool),
      prices: priceTable,
    };
    const digest = sha256Hex(JSON.stringify(content));
    this.version = digest.slice(0, 12);
    this.body = Buffer.from(JSON.stringify({ version: this.version, ...content }));
    this.etag = `"${digest.slice(0, 32)}"`;
  }
}

let loaded: Catalogue | undefined;

/** The catalogue, loaded and checked once per process (a broken catalogue stops the start). */
export function catalogue(): Catalogue {
  loaded ??= new Catalogue(loadCatalogueData());
  return loaded;
}

/** A catalogue letter and, when one is named, its provider: 404 for an unknown slug or provider. */
export function findLetter(slug: string, providerSlug: string | undefined): { letter: LetterData; provider: Provider | undefined } {
  const letter = catalogue().letters.get(slug);
  if (!letter) throw notFound(`No letter "${slug}" in the catalogue.`);
  if (providerSlug === undefined) return { letter, provider: undefined };
  const provider = letter.providers.find((p) => p.slug === providerSlug);
  if (!provider)
    throw notFound(
      withdrawnProvider(slug, providerSlug) ??
        `Letter "${slug}" has no provider "${providerSlug}" (known: ${letter.providers.map((p) => p.slug).join(', ') || 'none'}).`,
    );
  return { letter, provider };
}
