import type { Context } from 'koa';
import type Joi from 'joi';
import type { Scope } from '../../domain/access/scopes.js';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

export interface SuccessResponse {
  status: number;
  description: string;
  /** JSON body schema; omitted for binary responses. */
  schema?: Joi.Schema;
  contentType?: string;
  /** Error statuses answered with this same body rather than the error shape (e.g. /health's 503). */
  sameBodyOn?: number[];
}

/**
 * One operation of the API. The same object mounts the route, validates its input and documents
 * it in the OpenAPI document: each limit is written once, in these Joi schemas.
 */
export interface RouteSpec<P, Q, B> {
  operationId: string;
  method: 'GET' | 'POST';
  /** OpenAPI form, e.g. /v1/letters/{slug}. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** null for the few public routes (health, OpenAPI document). */
  scope: Scope | null;
  params?: Joi.ObjectSchema<P>;
  query?: Joi.ObjectSchema<Q>;
  body?: Joi.Schema<B>;
  success: SuccessResponse;
  /** Another success answer of the same operation (e.g. the 200 report of a batch's dry run beside its 201). */
  otherSuccess?: SuccessResponse;
  /**
   * Error statuses of SPEC.md's Endpoints table for this operation. The OpenAPI document adds the
   * statuses every route of its kind can answer (api/openapi.ts `commonStatuses`).
   */
  errors: number[];
  /** Answered from memory (no database, no Temporal): never 503. */
  fromMemory?: true;
  handler(ctx: Context, input: RouteInput<P, Q, B>): Promise<void>;
}

export type Route = RouteSpec<unknown, unknown, unknown>;

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(spec: RouteSpec<P, Q, B>): Route {
  return spec as unknown as Route;
}
