// A minimal OpenAPI (Swagger 2.0) description of the exposed schema, as PostgREST serves on `GET /`.
import type { Column, SchemaCache } from './schema-cache.js';

type JsonObject = Record<string, unknown>;

/** Swagger type of a Postgres column type (PostgREST's `toSwaggerType`). */
function swaggerType(pgType: string): JsonObject {
  if (pgType.endsWith('[]')) return { type: 'array', items: swaggerType(pgType.slice(0, -2)) };
  if (/^(smallint|integer|bigint)$/.test(pgType)) return { type: 'integer', format: pgType };
  if (/^(numeric|real|double precision)/.test(pgType)) return { type: 'number', format: pgType };
  if (pgType === 'boolean') return { type: 'boolean', format: pgType };
  if (pgType === 'json' || pgType === 'jsonb') return { format: pgType };
  return { type: 'string', format: pgType };
}

function property(column: Column, primaryKey: string[]): JsonObject {
  const prop = swaggerType(column.type);
  if (primaryKey.includes(column.name)) prop.description = 'Note:\nThis is a Primary Key.<pk/>';
  return prop;
}

/** Paths and definitions of the tables, views and functions of `schema`. */
export function openApiDocument(cache: SchemaCache, schema: string, host: string): JsonObject {
  const paths: JsonObject = {
    '/': {
      get: {
        produces: ['application/openapi+json', 'application/json'],
        responses: { 200: { description: 'OK' } },
        summary: 'OpenAPI description (this document)',
        tags: ['Introspection'],
      },
    },
  };
  const definitions: JsonObject = {};
  for (const table of cache.tables.values()) {
    if (table.schema !== schema) continue;
    const ref = { $ref: `#/definitions/${table.name}` };
    const ok = (status: number, description: string) => ({ [status]: { description } });
    const writable =
      table.kind === 'r' || table.kind === 'p' || table.kind === 'v' || table.kind === 'f';
    paths[`/${table.name}`] = {
      get: {
        tags: [table.name],
        responses: {
          200: { description: 'OK', schema: { type: 'array', items: ref } },
          206: { description: 'Partial Content' },
        },
      },
      ...(writable
        ? {
            post: {
              tags: [table.name],
              parameters: [{ in: 'body', name: table.name, schema: ref }],
              responses: ok(201, 'Created'),
            },
            patch: {
              tags: [table.name],
              parameters: [{ in: 'body', name: table.name, schema: ref }],
              responses: ok(204, 'No Content'),
            },
            delete: { tags: [table.name], responses: ok(204, 'No Content') },
          }
        : {}),
    };
    definitions[table.name] = {
      type: 'object',
      required: table.columns
        .filter((c) => !c.nullable && !c.hasDefault && !c.generated)
        .map((c) => c.name),
      properties: Object.fromEntries(
        table.columns.map((c) => [c.name, property(c, table.primaryKey)]),
      ),
    };
  }
  for (const fns of cache.functions.values()) {
    for (const fn of fns) {
      if (fn.schema !== schema || fn.args.some((a) => a.name === '')) continue;
      const args = {
        type: 'object',
        required: fn.args.slice(0, fn.args.length - fn.nDefaults).map((a) => a.name),
        properties: Object.fromEntries(fn.args.map((a) => [a.name, swaggerType(a.type)])),
      };
      const path = {
        post: {
          tags: ['(rpc) ' + fn.name],
          parameters: [{ in: 'body', name: 'args', required: true, schema: args }],
          responses: { 200: { description: 'OK' } },
        },
        get: {
          tags: ['(rpc) ' + fn.name],
          parameters: fn.args.map((a) => ({
            in: 'query',
            name: a.name,
            required: false,
            ...swaggerType(a.type),
          })),
          responses: { 200: { description: 'OK' } },
        },
      };
      paths[`/rpc/${fn.name}`] = path;
    }
  }
  return {
    swagger: '2.0',
    info: {
      description: '',
      title: 'standard public schema',
      version: '12.2.0 (postbox emulator)',
    },
    host,
    basePath: '/',
    schemes: ['http'],
    consumes: [
      'application/json',
      'application/vnd.pgrst.object+json;nulls=stripped',
      'application/vnd.pgrst.object+json',
    ],
    produces: [
      'application/json',
      'application/vnd.pgrst.object+json;nulls=stripped',
      'application/vnd.pgrst.object+json',
    ],
    paths,
    definitions,
  };
}
