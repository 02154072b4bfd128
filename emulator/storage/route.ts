// Shapes shared by the storage route handlers, and small response/body helpers.
import type { Db } from '../db/types.js';
import { ERRORS } from './errors.js';
import type { FileStore } from './files.js';

export interface StorageDeps {
  db: Db;
  files: FileStore;
  /** Global upload limit in bytes; a bucket's own limit can only be lower. */
  fileSizeLimit: number;
  log: (message: string, err?: unknown) => void;
}

export interface RouteArgs {
  req: Request;
  url: URL;
  /** `bucket` and, for wildcard routes, `key` (URL-decoded). */
  params: Record<string, string>;
  deps: StorageDeps;
}

export type RouteHandler = (args: RouteArgs) => Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * A JSON request body. An empty body counts as `{}` (upstream registers an empty-JSON-body
 * parser); malformed JSON is fastify's FST_ERR_CTP_INVALID_JSON_BODY, rendered as InvalidRequest.
 */
export async function readJson(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  throw ERRORS.invalidRequest(
    "Body is not valid JSON but content-type is set to 'application/json'",
  );
}

/** Fastify schema validation messages (FST_ERR_VALIDATION → InvalidRequest). */
export function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (value === undefined)
    throw ERRORS.invalidRequest(`body must have required property '${field}'`);
  if (typeof value !== 'string') throw ERRORS.invalidRequest(`body/${field} must be string`);
  return value;
}

export function optionalInteger(
  body: Record<string, unknown>,
  field: string,
  min: number,
): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw ERRORS.invalidRequest(`body/${field} must be integer`);
  }
  if (n < min) throw ERRORS.invalidRequest(`body/${field} must be >= ${min}`);
  return n;
}
