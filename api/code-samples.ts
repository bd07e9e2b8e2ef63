import type { Route } from './routes/route.js';
import type { RequestExample } from './examples.js';
import type { JsonSchema } from '../lib/json-schema.js';

/** Where every sample reads the key: pasted samples run once it is exported, never with a placeholder in them. */
export const SAMPLE_KEY_VARIABLE = 'SVC_POSTAL_API_KEY';

/** An OpenAPI parameter as the document lists it (what the Python sample needs to name its argument and type). */
export interface SampleParameter {
  name: string;
  in: string;
  style?: string;
  schema: JsonSchema;
}

/** What the samples of one operation are built from. */
export interface SampleInput {
  route: Route;
  example: RequestExample | undefined;
  serverUrl: string;
  parameters: SampleParameter[];
  /** The request body's component (`MailingRequest`), the model the Python SDK names after it; none for an inline schema. */
  bodyModel: string | undefined;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A fresh key each run, so that a sample pasted twice is two requests: `uuidgen` on macOS, the kernel's on Linux (where uuidgen may be missing). */
const SHELL_FRESH_KEY = '$(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)';

const pdfFile = (route: Route): string | undefined =>
  route.success.contentType === 'application/pdf' ? `${route.operationId.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}.pdf` : undefined;

function pathOf(input: SampleInput): string {
  const { route, example } = input;
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(example?.params?.[name] ?? `{${name}}`));
}

/** The curl command of an example request, run as pasted (after `export SVC_POSTAL_API_KEY=svc_test_…`) as many times as wanted. */
export function curlSample(input: SampleInput): string {
  const { route, example, serverUrl } = input;
  const query = example?.query ? '?' + new URLSearchParams(Object.entries(example.query).map(([k, v]): [string, string] => [k, String(v)])).toString() : '';
  const lines = [`curl ${route.method === 'GET' ? '' : `-X ${route.method} `}${shellQuote(serverUrl + pathOf(input) + query)}`];
  if (route.scope) lines.push(`-H "Authorization: Bearer $${SAMPLE_KEY_VARIABLE}"`);
  if (route.method === 'POST') lines.push(`-H "Idempotency-Key: ${SHELL_FRESH_KEY}"`);
  if (example?.body !== undefined) lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(example.body, null, 2))}`);
  const pdf = pdfFile(route);
  if (pdf) lines.push(`-o ${pdf}`);
  return lines.join(' \\\n  ');
}

const isExplodedObject = (parameter: SampleParameter): boolean => parameter.in === 'query' && parameter.style === 'form' && parameter.schema.type === 'object';

const indent = (text: string, spaces: number): string => text.replace(/\n/g, '\n' + ' '.repeat(spaces));

/** The TypeScript SDK's free function, called with an explicitly configured client. */
export function typeScriptSample(input: SampleInput): string {
  const { route, example, serverUrl } = input;
  const post = route.method === 'POST';
  const options = ['client'];
  if (post) options.push(`headers: { 'Idempotency-Key': randomUUID() }`);
  if (example?.params) options.push(`path: ${indent(JSON.stringify(example.params, null, 2), 2)}`);
  // A query given as one exploded object is one argument of the generated function, named as the document names it.
  const exploded = input.parameters.find(isExplodedObject);
  const query = exploded && example?.query ? { [exploded.name]: example.query } : example?.query;
  if (query) options.push(`query: ${indent(JSON.stringify(query, null, 2), 2)}`);
  // The generated client writes an object as `query[fuel]=…` unless told the document's style.
  if (exploded) options.push(`querySerializer: { parameters: { ${exploded.name}: { object: { style: 'form', explode: true } } } }`);
  if (example?.body !== undefined) options.push(`body: ${indent(JSON.stringify(example.body, null, 2), 2)}`);
  const pdf = pdfFile(route);
  return [
    ...(post ? [`import { randomUUID } from 'node:crypto';`] : []),
    ...(pdf ? [`import { writeFile } from 'node:fs/promises';`] : []),
    `import { createClient, ${route.operationId} } from 'svc-postal';`,
    '',
    `const client = createClient({ apiKey: process.env.${SAMPLE_KEY_VARIABLE}!, baseUrl: ${JSON.stringify(serverUrl)} });`,
    `const { data } = await ${route.operationId}({\n  ${options.join(',\n  ')},\n});`,
    pdf ? `await writeFile(${JSON.stringify(pdf)}, Buffer.from(await (data as Blob).arrayBuffer()));` : 'console.log(data);',
  ].join('\n');
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()).replace(/^_/, '');
const pascal = (name: string): string => name.replace(/(^|[_\s-])(\w)/g, (_, __, c: string) => c.toUpperCase());
/** openapi-python-client's argument names: snake case, a Python keyword with a trailing underscore. */
const PYTHON_KEYWORDS = new Set(['from', 'import', 'class', 'def', 'global', 'in', 'is', 'lambda', 'pass', 'return', 'type']);
const pythonArgument = (name: string): string => (PYTHON_KEYWORDS.has(snake(name)) ? snake(name) + '_' : snake(name));

/** A JSON value written as a Python literal. */
function pythonLiteral(value: unknown, depth = 0): string {
  const pad = '    '.repeat(depth + 1);
  const end = '    '.repeat(depth);
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return value.length ? `[\n${value.map((v) => pad + pythonLiteral(v, depth + 1)).join(',\n')},\n${end}]` : '[]';
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length ? `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(v, depth + 1)}`).join(',\n')},\n${end}}` : '{}';
}

const isEnum = (schema: JsonSchema): boolean => Array.isArray(schema.enum);
const isUuid = (schema: JsonSchema): boolean =>
  schema.format === 'uuid' || (Array.isArray(schema.allOf) && (schema.allOf as JsonSchema[]).some((s) => s.format === 'uuid'));

/**
 * The Python SDK's operation module, called with an explicitly configured client; none where the
 * generated signature is not one the document names (an inline request body becomes a model whose
 * name the generator makes up).
 */
export function pythonSample(input: SampleInput): string | undefined {
  const { route, example, serverUrl, parameters, bodyModel } = input;
  if (route.body && example?.body !== undefined && !bodyModel) return undefined;
  // The docs page and its script are a browser's; the generated Python reads a text answer as bytes and fails.
  if (route.success.contentType?.startsWith('text/')) return undefined;
  const post = route.method === 'POST';
  const models = new Set<string>();
  const args = ['client=client'];
  if (post) args.push('idempotency_key=str(uuid.uuid4())');
  let needsUuid = false;
  for (const parameter of parameters.filter((p) => p.in === 'path' || p.in === 'query')) {
    if (isExplodedObject(parameter)) {
      const model = pascal(route.operationId) + 'Query';
      models.add(model);
      args.push(`${pythonArgument(parameter.name)}=${model}.from_dict(${indent(pythonLiteral(example?.query ?? {}), 4)})`);
      continue;
    }
    const value = parameter.in === 'path' ? example?.params?.[parameter.name] : example?.query?.[parameter.name];
    if (value === undefined) continue;
    let literal = pythonLiteral(value);
    if (isEnum(parameter.schema)) {
      const model = pascal(route.operationId) + pascal(parameter.name);
      models.add(model);
      literal = `${model}(${literal})`;
    } else if (isUuid(parameter.schema)) {
      needsUuid = true;
      literal = `UUID(${literal})`;
    }
    args.push(`${pythonArgument(parameter.name)}=${literal}`);
  }
  if (example?.body !== undefined && bodyModel) {
    // A nullable body is its named component, null allowed where it is used (lib/json-schema.ts): the model keeps the name.
    const model = bodyModel;
    models.add(model);
    args.push(`body=${model}.from_dict(${indent(pythonLiteral(example.body), 4)})`);
  }
  const pdf = pdfFile(route);
  const imports = [
    'import os',
    ...(post ? ['import uuid'] : []),
    ...(needsUuid ? ['from uuid import UUID'] : []),
    '',
    'from svc_postal import create_client',
    `from svc_postal.generated.api.${snake(route.tag.replace(/\s+/g, '_').replace(/^AI$/, 'ai'))} import ${snake(route.operationId)}`,
    ...(models.size ? [`from svc_postal.generated.models import ${[...models].sort().join(', ')}`] : []),
  ];
  return [
    ...imports,
    '',
    `client = create_client(os.environ[${JSON.stringify(SAMPLE_KEY_VARIABLE)}], ${JSON.stringify(serverUrl)})`,
    `result = ${snake(route.operationId)}.sync_detailed(\n    ${args.join(',\n    ')},\n)`,
    pdf ? `with open(${JSON.stringify(pdf)}, "wb") as file:\n    file.write(result.content)` : 'print(result.status_code, result.parsed)',
  ].join('\n');
}

/** The `x-codeSamples` of one operation: curl, TypeScript and Python, each runnable as pasted, again and again. */
export function codeSamples(input: SampleInput): CodeSample[] {
  const python = pythonSample(input);
  return [
    { lang: 'Shell', label: 'curl', source: curlSample(input) },
    { lang: 'TypeScript', label: 'TypeScript', source: typeScriptSample(input) },
    ...(python ? [{ lang: 'Python', label: 'Python', source: python }] : []),
  ];
}
