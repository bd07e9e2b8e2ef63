import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { OpenAPIBackend, SetMatchType, ValidationContext, type Operation } from 'openapi-backend';
import YAML from 'yaml';
import { projectRoot } from '../../../lib/paths.js';

/**
 * Maileva's published OpenAPI documents (test/fixtures/maileva, verbatim), loaded with `yaml` and
 * handed to one OpenAPIBackend each: the stand-in matches every request to its operation,
 * validates it, and checks every answer it gives against the same documents.
 */

export type MailevaDocumentName = 'auth' | 'mail' | 'registered_mail';

const FILES: Record<MailevaDocumentName, string> = {
  auth: 'auth.yaml',
  mail: 'mail-v2.yaml',
  registered_mail: 'registered-mail-v2.yaml',
};

/** A path's operation, with the dereferenced parts of the document the stand-in reads. */
export type SpecOperation = Operation & { operationId: string };

/** Walks a parsed YAML document (plain objects and arrays). */
function walk(node: unknown, visit: (object: Record<string, any>) => void): void {
  if (Array.isArray(node)) node.forEach((item) => walk(item, visit));
  else if (node && typeof node === 'object') {
    visit(node as Record<string, any>);
    Object.values(node).forEach((value) => walk(value, visit));
  }
}

/**
 * The few places where the documents, as published, cannot be used by openapi-backend as they are.
 * Each fix is narrow and changes no rule a request or an answer is held to, except the last, which
 * is explained there.
 */
function adapt(name: MailevaDocumentName, document: any): any {
  // 1. openapi-backend builds its validators per operationId, and only one operation of these
  //    documents has one (patchRecipient): give the others a stable synthetic id, "METHOD /path".
  for (const [path, item] of Object.entries<any>(document.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
      if (item[method] && !item[method].operationId) item[method].operationId = `${method.toUpperCase()} ${path}`;
    }
  }
  // 2. auth.yaml puts Swagger-2-style `examples` beside the `$ref` of its response schemas. OpenAPI
  //    3.0 ignores whatever sits beside a `$ref`, but its document schema refuses it (the
  //    document would not pass openapi-backend's strict check): drop those siblings.
  walk(document, (object) => {
    if (typeof object.$ref === 'string') for (const key of Object.keys(object)) if (key !== '$ref') delete object[key];
  });
  // 3. recipients_import_response's accepted_import.id has `maxLength: 32`, yet Maileva's ids are
  //    UUIDs (36 characters: the example given for that very field is one, as are all the ids of
  //    the documents). The stand-in's ids are UUIDs, so that one bound is dropped.
  if (name !== 'auth') delete document.components.schemas.accepted_import.properties.id.maxLength;
  return document;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Formats used by the documents that openapi-backend's Ajv does not know (it registers only the
 * OpenAPI ones: int32, float, binary…, and Ajv without ajv-formats ignores the others with a
 * warning, so they would check nothing). `datetime` is not a standard format: the documents use it
 * for the same values as `date-time` (their examples are RFC 3339 instants), so it is held to the
 * same rule.
 */
const FORMATS: Record<string, (value: string) => boolean> = {
  'date-time': (value) => RFC3339.test(value) && !Number.isNaN(Date.parse(value)),
  datetime: (value) => RFC3339.test(value) && !Number.isNaN(Date.parse(value)),
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
  url: (value) => URL.canParse(value) || URL.canParse(value, 'http://relative.invalid'),
};

/** The properties an object schema declares, `allOf` members included; undefined for a free-form schema. */
function declaredProperties(schema: any): Record<string, any> | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  let properties: Record<string, any> | undefined = schema.properties ? { ...schema.properties } : undefined;
  for (const member of schema.allOf ?? []) {
    const more = declaredProperties(member);
    if (more) properties = { ...(properties ?? {}), ...more };
  }
  return properties;
}

/**
 * The paths of the properties of `value` that `schema` does not declare. None of the documents'
 * schemas sets `additionalProperties: false`, so Ajv lets any extra property through: this check
 * catches a misspelt option in a request (`acknowledgment_of_receipt` would be ignored, and the
 * letter sent without AR) and a field the stand-in invents in an answer.
 */
export function undeclaredProperties(schema: any, value: unknown, path = ''): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return schema.items ? value.flatMap((item, i) => undeclaredProperties(schema.items, item, `${path}/${i}`)) : [];
  const properties = declaredProperties(schema);
  if (!properties) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key in properties ? undeclaredProperties(properties[key], item, `${path}/${key}`) : [`${path}/${key}`],
  );
}

/** Reads an HTML table out of a description: one array of cell texts per row, header rows skipped. */
function tableRows(html: string): string[][] {
  return [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((row) => [...row[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => cell[1].replace(/<br\/>/g, ' ').trim()))
    .filter((cells) => cells.length > 0);
}

/** A request as the stand-in passes it to openapi-backend. */
export interface SpecRequest {
  method: string;
  /** Relative to the API root (e.g. /sendings/123), without the query. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body (JSON, form fields, or the multipart parts as an object), or the raw text when it does not parse. */
  body?: unknown;
}

/** One of the documents, ready to match and validate. */
export class MailevaSpec {
  /** Error codes of the `error_response` table (code → description). Empty for auth.yaml, which has none. */
  readonly errorCodes: ReadonlyMap<string, string>;
  /** The delivery status codes of the `delivery_statuses` table (code → [source, label]). */
  readonly deliveryStatuses: ReadonlyMap<string, { source: string; label: string }>;
  private readonly bodyValidators = new Map<string, ValidateFunction>();

  constructor(
    readonly name: MailevaDocumentName,
    readonly backend: OpenAPIBackend,
  ) {
    const schemas: any = (backend.definition as any).components?.schemas ?? {};
    this.errorCodes = new Map(
      tableRows(schemas.error_response?.properties?.code?.description ?? '').map(([code, description]) => [code, description] as [string, string]),
    );
    this.deliveryStatuses = new Map(
      tableRows(schemas.delivery_statuses_response?.properties?.delivery_statuses?.description ?? '').map(
        ([code, source, label]) => [code, { source, label }] as [string, { source: string; label: string }],
      ),
    );
  }

  /** The component schema of that name (dereferenced). */
  schema(name: string): any {
    return (this.backend.definition as any).components.schemas[name];
  }

  /** The operation for a method and path, or why there is none (404: no such path, 405: not that method). */
  match(method: string, path: string): SpecOperation | 404 | 405 {
    try {
      return this.backend.router.matchOperation({ method, path, headers: {} }, true) as SpecOperation;
    } catch (error) {
      return String((error as Error).message).startsWith('405') ? 405 : 404;
    }
  }

  /** The media types the operation accepts for its body (none if it takes no body). */
  requestMediaTypes(operation: SpecOperation): string[] {
    return Object.keys((operation.requestBody as any)?.content ?? {});
  }

  /** The body schema for a media type. */
  requestSchema(operation: SpecOperation, mediaType: string): any {
    return (operation.requestBody as any)?.content?.[mediaType]?.schema;
  }

  /**
   * Ajv's verdict on a request: path, query and declared headers, and the body. openapi-backend
   * validates bodies declared as application/json, multipart/form-data or
   * application/x-www-form-urlencoded only; the one other media type of the documents,
   * application/merge-patch+json (PATCH /sendings/{id}), is checked here with the same Ajv setup.
   */
  validateRequest(request: SpecRequest, operation: SpecOperation, mediaType: string | undefined): ErrorObject[] {
    const result = this.backend.validateRequest(
      { method: request.method, path: request.path, query: request.query, headers: request.headers as Record<string, string | string[]>, body: request.body },
      operation,
    );
    const errors = [...(result.errors ?? [])];
    const handled = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'];
    if (mediaType && !handled.includes(mediaType) && this.requestSchema(operation, mediaType)) {
      const key = `${operation.operationId} ${mediaType}`;
      let validate = this.bodyValidators.get(key);
      if (!validate) {
        validate = this.backend.validator.getAjv(ValidationContext.RequestBody).compile(this.requestSchema(operation, mediaType));
        this.bodyValidators.set(key, validate);
      }
      if (!validate(request.body)) errors.push(...(validate.errors ?? []).map((error) => ({ ...error, instancePath: `/requestBody${error.instancePath}` })));
    }
    return errors;
  }

  /**
   * What is wrong with an answer, measured against the operation's declared responses: the status
   * must be declared; the content type must be one declared for it (or no body when none is); a
   * JSON body must pass the schema (Ajv, through openapi-backend's validateResponse) and declare
   * every property it carries; declared headers (Location on a 201) must be present and valid.
   */
  checkResponse(operation: SpecOperation, status: number, answer: { contentType?: string; body?: unknown; headers?: Record<string, string> }): string[] {
    const where = `${this.name} ${operation.method.toUpperCase()} ${operation.path} → ${status}`;
    const declared = (operation.responses as any)?.[String(status)];
    if (!declared) return [`${where}: status not declared`];
    const problems: string[] = [];
    const content: Record<string, any> | undefined = declared.content;
    const mediaType = answer.contentType?.split(';')[0].trim().toLowerCase();
    if (!content) {
      if (mediaType || answer.body !== undefined) problems.push(`${where}: a body (${mediaType ?? 'no content type'}) where the document declares none`);
    } else if (!mediaType || !(mediaType in content)) {
      problems.push(`${where}: content type ${mediaType ?? '(none)'} where the document declares ${Object.keys(content).join(', ')}`);
    } else if (mediaType === 'application/json') {
      const result = this.backend.validateResponse(answer.body, operation, status);
      for (const error of result.errors ?? []) problems.push(`${where}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`);
      for (const path of undeclaredProperties(content[mediaType].schema, answer.body)) problems.push(`${where}: ${path} is not declared by the document`);
    } else if (!(answer.body instanceof Uint8Array) || answer.body.length === 0) {
      problems.push(`${where}: an empty ${mediaType} body`);
    }
    const headers = this.backend.validateResponseHeaders(answer.headers ?? {}, operation, { statusCode: status, setMatchType: SetMatchType.Superset });
    for (const error of headers.errors ?? []) problems.push(`${where}: header ${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
    return problems;
  }
}

let loading: Promise<Record<MailevaDocumentName, MailevaSpec>> | undefined;

/** Loads (once per process) and checks the three documents. */
export function loadMailevaSpecs(): Promise<Record<MailevaDocumentName, MailevaSpec>> {
  loading ??= (async () => {
    const entries = await Promise.all(
      (Object.keys(FILES) as MailevaDocumentName[]).map(async (name) => {
        const text = readFileSync(join(projectRoot, 'test', 'fixtures', 'maileva', FILES[name]), 'utf8');
        const backend = new OpenAPIBackend({
          definition: adapt(name, YAML.parse(text)),
          // strict: a document openapi-backend finds invalid throws here instead of a warning.
          strict: true,
          customizeAjv: (ajv) => {
            for (const [format, validate] of Object.entries(FORMATS)) ajv.addFormat(format, { type: 'string', validate });
            return ajv;
          },
        });
        await backend.init();
        return [name, new MailevaSpec(name, backend)] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<MailevaDocumentName, MailevaSpec>;
  })();
  return loading;
}

/**
 * Checks an answer against a document without a server: the operation is found by method and path
 * (relative to the API root). Tests use it to prove the checks bite.
 */
export async function checkMailevaResponse(
  document: MailevaDocumentName,
  method: string,
  path: string,
  status: number,
  answer: { contentType?: string; body?: unknown; headers?: Record<string, string> },
): Promise<string[]> {
  const spec = (await loadMailevaSpecs())[document];
  const operation = spec.match(method, path);
  if (typeof operation === 'number') return [`${document} ${method.toUpperCase()} ${path}: no such operation (${operation})`];
  return spec.checkResponse(operation, status, answer);
}
