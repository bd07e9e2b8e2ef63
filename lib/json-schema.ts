import type Joi from 'joi';
import joiToJson, { type parse as Parse } from 'joi-to-json';

// The package is CommonJS whose export is the function itself.
/** Joi → JSON Schema for the AI operations' structured outputs (a loose shape the model follows). */
export const joiToJsonSchema = joiToJson as unknown as typeof Parse;

export type JsonSchema = Record<string, unknown>;

/**
 * Joi → JSON Schema (OpenAPI 3.1) for the published contract. Written for exactness rather than
 * taken from joi-to-json, which is looser than Joi in ways a client generated from the document
 * would trip on: whatever this schema allows, the Joi schema accepts (the reverse may be stricter,
 * e.g. Joi's conversions such as "10" for a number in a body are not advertised).
 *
 * - Joi strings refuse "" unless `.allow('')`: minLength 1; `.trim()` checks the trimmed value, so
 *   the document asks for a non-blank value of at least min characters between the blanks.
 * - Joi numbers refuse anything beyond ±Number.MAX_SAFE_INTEGER: the bounds are written.
 * - `.guid({ version })` is a pattern of those versions; `.pattern()` is the same pattern.
 * - Objects refuse unknown keys (additionalProperties false) unless `.unknown()`; `.pattern()`
 *   keys become propertyNames/additionalProperties; `.and/.or/.xor/.oxor/.nand/.with/.without`
 *   become the equivalent required/not combinations.
 * - `.allow(null)` is nullable; `.valid(...)` an enum (in an answer, open: any other string too, for
 *   the values added later); alternatives anyOf (Joi tries each and keeps
 *   the first that matches, so more than one may match), `.match('one')` oneOf.
 * - A label names a component under #/components/schemas, a null its use allows left at the use; a
 *   request's schema whose label an answer's different schema took first is `<label>Input`; other
 *   differing schemas of one label are inlined. Answers' open enums are named by nameOpenEnums.
 *
 * A construct this function cannot express exactly on a request (custom rules, conditions) throws
 * unless `loose` is set (response schemas, documented but never validated by clients).
 */
export interface ConvertOptions {
  /** Shared components, filled by labelled schemas. */
  components: Record<string, JsonSchema>;
  /** Response schemas: inexpressible rules are dropped rather than refused. */
  loose?: boolean;
  /** A query string carries no JSON null: nullable values are documented without null. */
  query?: boolean;
}

interface Description {
  type: string;
  flags?: Record<string, unknown>;
  rules?: { name: string; args?: Record<string, unknown> }[];
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Description[];
  ordered?: Description[];
  matches?: { schema?: Description; ref?: unknown; is?: Description; then?: Description; otherwise?: Description; switch?: unknown }[];
  patterns?: { schema?: Description; regex?: string; rule: Description }[];
  dependencies?: { rel: string; key?: unknown; peers: (string | { path: string[] })[] }[];
  whens?: { then?: Description; otherwise?: Description; is?: Description }[];
  examples?: unknown[];
  renames?: unknown;
  link?: unknown;
}

/** The description of an open enum's second branch: any other string, for the values added later. */
const OPEN_VALUE = 'A value added after this version of the document';

/** JavaScript's String.prototype.trim() blanks (ECMAScript WhiteSpace and LineTerminator), spelled out so Python's `re` reads them alike. */
const BLANKS = '\\t\\n\\x0b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** Every character of the Basic Multilingual Plane but those blanks. */
const NON_BLANK_BMP =
  '\\u0001-\\u0008\\u000e-\\u001f\\u0021-\\u009f\\u00a1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ufefe\\uff00-\\uffff';
/**
 * Characters of the Basic Multilingual Plane but U+0000. JSON Schema counts characters (code
 * points), Joi counts UTF-16 code units, where a character beyond the BMP (an emoji) counts two: a
 * string is documented as BMP-only, so that what fits the document fits Joi. U+0000 is refused in
 * every input (PostgreSQL text cannot hold it: api/middleware/validate.ts).
 */
export const BMP_ONLY = '^[\\u0001-\\uffff]*$';

/** A string whose trimmed value has at least `min` characters (min ≥ 1), of the BMP only. */
export function trimmedMinPattern(min: number): string {
  const middle = min <= 1 ? '(?:[\\u0001-\\uffff]*[' + NON_BLANK_BMP + '])?' : `[\\u0001-\\uffff]{${min - 2},}[${NON_BLANK_BMP}]`;
  return `^[${BLANKS}]*[${NON_BLANK_BMP}]${middle}[${BLANKS}]*$`;
}

const GUID_VERSIONS: Record<string, string> = { uuidv1: '1', uuidv2: '2', uuidv3: '3', uuidv4: '4', uuidv5: '5', uuidv6: '6', uuidv7: '7', uuidv8: '8' };

function regexSource(regex: string): string {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(regex);
  if (!match) throw new Error(`Unreadable pattern ${regex}`);
  if (match[2]!.replace(/[u]/g, '') !== '') throw new Error(`Pattern flags ${match[2]} cannot be documented: ${regex}`);
  // JavaScript's \d is ASCII only, Python's any Unicode digit: spelled out for both.
  let out = '';
  let inClass = false;
  const source = match[1]!;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === 'd') out += inClass ? '0-9' : '[0-9]';
      else if (next === 'D' || next === 'w' || next === 'W' || next === 's' || next === 'S' || next === 'b' || next === 'B')
        throw new Error(`Pattern ${regex}: \\${next} differs between JavaScript and Python; spell the characters out`);
      else out += c + (next ?? '');
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return out;
}

const rule = (d: Description, name: string): Record<string, unknown> | undefined => {
  const found = d.rules?.filter((r) => r.name === name).at(-1);
  return found ? (found.args ?? {}) : undefined;
};

const peerName = (peer: string | { path: string[] }): string => (typeof peer === 'string' ? peer : peer.path.join('.'));
const required = (...keys: string[]): JsonSchema => ({ required: keys });

function dependencyConstraints(d: Description, options: ConvertOptions): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const dep of d.dependencies ?? []) {
    const peers = dep.peers.map(peerName);
    if (peers.some((p) => p.includes('.'))) {
      if (options.loose) continue;
      throw new Error(`Nested dependency peers cannot be documented: ${peers.join(', ')}`);
    }
    const pairs = peers.flatMap((a, i) => peers.slice(i + 1).map((b) => required(a, b)));
    const none: JsonSchema = { not: { anyOf: peers.map((p) => required(p)) } };
    const key = dep.key === null || dep.key === undefined ? undefined : peerName(dep.key as string | { path: string[] });
    switch (dep.rel) {
      case 'and':
        out.push({ anyOf: [required(...peers), none] });
        break;
      case 'or':
        out.push({ anyOf: peers.map((p) => required(p)) });
        break;
      case 'xor':
        out.push({ anyOf: peers.map((p) => required(p)) }, { not: { anyOf: pairs } });
        break;
      case 'oxor':
        if (pairs.length) out.push({ not: { anyOf: pairs } });
        break;
      case 'nand':
        out.push({ not: required(...peers) });
        break;
      case 'with':
        out.push({ anyOf: [{ not: required(key!) }, required(key!, ...peers)] });
        break;
      case 'without':
        out.push({ anyOf: [{ not: required(key!) }, { allOf: [required(key!), ...peers.map((p) => ({ not: required(p) }))] }] });
        break;
      default:
        if (!options.loose) throw new Error(`Object rule ${dep.rel} cannot be documented`);
    }
  }
  return out;
}

function withNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !('enum' in schema)) return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.enum)) return { ...schema, ...(schema.type ? { type: [schema.type, 'null'].flat() } : {}), enum: [...schema.enum, null] };
  return { anyOf: [schema, { type: 'null' }] };
}

function inexpressible(d: Description, what: string, options: ConvertOptions): void {
  if (!options.loose) throw new Error(`${what} on a ${d.type} cannot be documented exactly; keep it out of request schemas or document it by hand`);
}

function core(d: Description, options: ConvertOptions): JsonSchema {
  const flags = d.flags ?? {};
  const allow = (d.allow ?? []).filter((v) => !(typeof v === 'object' && v !== null && 'override' in v));
  if (flags.only) {
    const values = allow.filter((v) => v !== null && !(options.query && v === ''));
    const types = [...new Set(values.map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)))];
    const closed = { ...(types.length === 1 ? { type: types[0] } : {}), enum: values };
    // An answer's list of values grows within /v1 (a new status, event or mode): documented open, so
    // that a client generated from the document keeps an unknown value rather than failing on it.
    if (options.loose && values.length > 1 && types.length === 1 && types[0] === 'string')
      return { anyOf: [closed, { type: 'string', description: OPEN_VALUE }] };
    return closed;
  }
  switch (d.type) {
    case 'string': {
      const s: JsonSchema = { type: 'string' };
      const min = rule(d, 'min')?.limit as number | undefined;
      const max = rule(d, 'max')?.limit as number | undefined;
      const length = rule(d, 'length')?.limit as number | undefined;
      const trimmed = rule(d, 'trim')?.enabled === true;
      const emptyAllowed = allow.includes('');
      const effectiveMin = length ?? Math.max(min ?? 0, emptyAllowed ? 0 : 1);
      const patterns: string[] = [];
      if (trimmed) {
        if (effectiveMin > 0) patterns.push(trimmedMinPattern(effectiveMin));
        else if (!options.loose) patterns.push(BMP_ONLY);
        // The maximum applies to the trimmed value: the raw length is a stricter, exact-enough bound.
        if (length !== undefined) inexpressible(d, 'length() with trim()', options);
      } else {
        if (effectiveMin > 0) s.minLength = effectiveMin;
        if (!options.loose) patterns.push(BMP_ONLY);
      }
      if (length !== undefined) s.maxLength = length;
      else if (max !== undefined) s.maxLength = max;
      for (const r of d.rules ?? []) {
        if (r.name === 'pattern') {
          if ((r.args?.options as { invert?: boolean } | undefined)?.invert) inexpressible(d, 'an inverted pattern', options);
          else patterns.push(regexSource(r.args!.regex as string));
        } else if (r.name === 'guid') {
          const versions = ((r.args?.options as { version?: string[] } | undefined)?.version ?? []).map((v) => GUID_VERSIONS[v]!);
          const v = versions.length ? `[${versions.join('')}]` : '[0-9a-fA-F]';
          patterns.push(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${v}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$`);
          s.format = 'uuid';
        } else if (r.name === 'email') s.format = 'email';
        else if (r.name === 'isoDate') s.format = 'date-time';
        else if (r.name === 'uri') s.format = 'uri';
        else if (!['min', 'max', 'length', 'trim'].includes(r.name)) inexpressible(d, `rule ${r.name}`, options);
      }
      if (patterns.length === 1) s.pattern = patterns[0];
      // Each part says its type too: a generator reading a part alone (hey-api) then keeps a string.
      else if (patterns.length > 1) s.allOf = patterns.map((pattern) => ({ type: 'string', pattern }));
      if (emptyAllowed && effectiveMin > 0 && !options.query) return { anyOf: [s, { const: '' }] };
      return s;
    }
    case 'number': {
      const integer = d.rules?.some((r) => r.name === 'integer');
      const s: JsonSchema = { type: integer ? 'integer' : 'number' };
      let minimum = -Number.MAX_SAFE_INTEGER;
      let maximum = Number.MAX_SAFE_INTEGER;
      for (const r of d.rules ?? []) {
        const limit = r.args?.limit as number;
        if (r.name === 'min') minimum = Math.max(minimum, limit);
        else if (r.name === 'max') maximum = Math.min(maximum, limit);
        else if (r.name === 'greater') s.exclusiveMinimum = limit;
        else if (r.name === 'less') s.exclusiveMaximum = limit;
        else if (r.name === 'sign') s[r.args?.sign === 'positive' ? 'exclusiveMinimum' : 'exclusiveMaximum'] = 0;
        else if (r.name === 'multiple') s.multipleOf = r.args?.base;
        else if (r.name !== 'integer') inexpressible(d, `rule ${r.name}`, options);
      }
      return { ...s, minimum, maximum };
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'object': {
      const s: JsonSchema = { type: 'object' };
      const properties: Record<string, JsonSchema | boolean> = {};
      const requiredKeys: string[] = [];
      for (const [key, child] of Object.entries(d.keys ?? {})) {
        if (child.flags?.presence === 'forbidden') {
          if (flags.unknown) properties[key] = false;
          continue;
        }
        properties[key] = convert(child, options);
        if (child.flags?.presence === 'required') requiredKeys.push(key);
      }
      if (d.keys) s.properties = properties;
      if (requiredKeys.length) s.required = requiredKeys;
      if (d.patterns?.length) {
        if (d.patterns.length > 1 || flags.unknown) inexpressible(d, 'several key patterns', options);
        const pattern = d.patterns[0]!;
        if (pattern.regex) s.patternProperties = { [regexSource(pattern.regex)]: convert(pattern.rule, options) };
        else {
          s.propertyNames = convert(pattern.schema!, { ...options });
          s.additionalProperties = convert(pattern.rule, options);
        }
        if (pattern.regex) s.additionalProperties = false;
      } else if (!d.keys && flags.unknown !== false) {
        // Joi.object() without keys accepts any keys.
      } else s.additionalProperties = flags.unknown === true;
      const min = rule(d, 'min')?.limit;
      const max = rule(d, 'max')?.limit;
      const length = rule(d, 'length')?.limit;
      if (length !== undefined) Object.assign(s, { minProperties: length, maxProperties: length });
      if (min !== undefined) s.minProperties = min;
      if (max !== undefined) s.maxProperties = max;
      const constraints = dependencyConstraints(d, options);
      if (constraints.length === 1) Object.assign(s, constraints[0]);
      else if (constraints.length > 1) s.allOf = constraints;
      for (const r of d.rules ?? []) if (!['min', 'max', 'length'].includes(r.name)) inexpressible(d, `rule ${r.name}`, options);
      return s;
    }
    case 'array': {
      const s: JsonSchema = { type: 'array' };
      if (d.ordered?.length) s.prefixItems = d.ordered.map((o) => convert(o, options));
      const items = (d.items ?? []).filter((i) => i.flags?.presence !== 'forbidden');
      if (items.length === 1) s.items = convert(items[0]!, options);
      else if (items.length > 1) s.items = { anyOf: items.map((i) => convert(i, options)) };
      else if (d.ordered?.length) s.items = false;
      for (const r of d.rules ?? []) {
        const limit = r.args?.limit;
        if (r.name === 'min') s.minItems = limit;
        else if (r.name === 'max') s.maxItems = limit;
        else if (r.name === 'length') Object.assign(s, { minItems: limit, maxItems: limit });
        else if (r.name === 'unique') s.uniqueItems = true;
        else if (r.name !== 'items' && r.name !== 'ordered') inexpressible(d, `rule ${r.name}`, options);
      }
      return s;
    }
    case 'alternatives': {
      const branches: JsonSchema[] = [];
      for (const m of d.matches ?? []) {
        if (m.schema) branches.push(convert(m.schema, options));
        else {
          inexpressible(d, 'a conditional alternative', options);
          for (const branch of [m.then, m.otherwise]) if (branch) branches.push(convert(branch, options));
        }
      }
      return flags.match === 'one' ? { oneOf: branches } : { anyOf: branches };
    }
    case 'any': {
      if (d.whens?.length) {
        inexpressible(d, 'a condition (when)', options);
        // A forbidden branch is the key left out: no value to document (else an `{}` branch, which
        // generators read as one more type of the union).
        const branches = d.whens.flatMap((w) =>
          [w.then, w.otherwise].filter((b): b is Description => !!b && b.flags?.presence !== 'forbidden').map((b) => convert(b, options)),
        );
        return branches.length > 1 ? { anyOf: branches } : (branches[0] ?? {});
      }
      return {};
    }
    default:
      inexpressible(d, `type ${d.type}`, options);
      return {};
  }
}

/** One described Joi schema as JSON Schema; labelled ones become components. */
function convert(d: Description, options: ConvertOptions): JsonSchema {
  const flags = d.flags ?? {};
  if (d.link || d.renames) inexpressible(d, 'links and renames', options);
  let schema = core(d, options);
  const nullable = (d.allow ?? []).includes(null) && !options.query;
  const withDefaultAndExamples = (s: JsonSchema): JsonSchema => {
    if (
      flags.default !== undefined &&
      typeof flags.default !== 'function' &&
      !(typeof flags.default === 'object' && flags.default && 'special' in flags.default)
    )
      s.default = flags.default;
    if (Array.isArray(d.examples) && d.examples.length) s.examples = d.examples;
    return s;
  };
  const label = flags.label as string | undefined;
  const description = flags.description as string | undefined;
  if (label && (d.type === 'object' || d.type === 'alternatives')) {
    // The component is the value itself; a null the use allows stays at the use (`anyOf: [$ref, null]`),
    // so generators name the component as labelled rather than by its place in a nullable union.
    const component = withDefaultAndExamples({ ...schema });
    // A request's version of a label an answer took first (stricter strings) is its own component, `<label>Input`.
    for (const name of options.loose ? [label] : [label, `${label}Input`]) {
      const existing = options.components[name];
      if (existing && JSON.stringify(existing) !== JSON.stringify(component)) continue;
      options.components[name] = component;
      const ref: JsonSchema = { $ref: `#/components/schemas/${name}` };
      return { ...(nullable ? withNull(ref) : ref), ...(description ? { description } : {}) };
    }
  }
  if (nullable) schema = withNull(schema);
  schema = withDefaultAndExamples(schema);
  return description ? { description, ...schema } : schema;
}

/** The JSON Schema of a Joi schema, for the OpenAPI document. */
export function joiToOpenApiSchema(schema: Joi.Schema, options: ConvertOptions): JsonSchema {
  return convert(schema.describe() as Description, options);
}

/**
 * Names each open enum of the components (an answer's `anyOf: [enum, any other string]`): its
 * closed list becomes a component named after where it sits, the component then each key
 * (`LegalSource` › `status` → `LegalSourceStatus`; an array's items add `Item`), referenced from
 * the property. Left inline, generators name it by its position in the anyOf (Python's
 * `LegalSourceStatusType0`) or not at all (TypeScript's inline union). A name already taken by
 * another schema leaves that enum inline.
 */
export function nameOpenEnums(components: Record<string, JsonSchema>): void {
  const visit = (node: unknown, name: string): void => {
    if (Array.isArray(node)) return node.forEach((branch) => visit(branch, name));
    if (typeof node !== 'object' || node === null) return;
    const schema = node as JsonSchema;
    const branches = schema.anyOf as JsonSchema[] | undefined;
    const closed = branches?.[0];
    if (branches?.length === 2 && closed && Array.isArray(closed.enum) && branches[1]?.description === OPEN_VALUE) {
      const existing = components[name];
      if (!existing || JSON.stringify(existing) === JSON.stringify(closed)) {
        components[name] = closed;
        branches[0] = { $ref: `#/components/schemas/${name}` };
      }
      return;
    }
    for (const [key, child] of Object.entries(schema.properties ?? {})) visit(child, name + key.charAt(0).toUpperCase() + key.slice(1));
    visit(schema.items, name + 'Item');
    visit(schema.anyOf, name);
    visit(schema.oneOf, name);
    visit(schema.allOf, name);
  };
  for (const [name, schema] of Object.entries(components)) visit(schema, name);
}
